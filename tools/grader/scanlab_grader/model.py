"""What grading produces: per lab, per test case, and the whole submission."""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass, field
from .tree import Lab


@dataclass
class TestResult:
    name: str
    hidden: bool = False
    passed: bool = False
    message: str = ""  # the first failure, or why the test case counts as failed
    duration: float | None = None
    max_score: float = 0.0
    score: float = 0.0
    synthetic: bool = False  # stands for a lab that could not be built or run
    kind: str = "test"  # "test" or "speed"
    visibility: str = "visible"


@dataclass
class LabResult:
    lab: Lab
    max_points: float
    status: str = "not graded"  # graded, build failed, ... (see grading.py)
    problem: str = ""  # lab-level explanation (build errors, why tests ran one at a time)
    tests: list[TestResult] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    build_s: float = 0.0
    run_s: float = 0.0
    isolated: bool = False  # the test cases had to be run one process each
    review: list[str] = field(default_factory=list)  # review.flags(): lines for a code review

    @property
    def points(self) -> float:
        return sum(t.score for t in self.tests)

    @property
    def total_max(self) -> float:
        return sum(t.max_score for t in self.tests)


@dataclass
class Grade:
    submission: str
    seed: int
    backend: str
    hidden: bool
    labs: list[LabResult] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    started: float = field(default_factory=time.time)
    finished: float | None = None
    fatal: str = ""  # the grader itself failed: results.json says so
    speed: str = ""  # a line about speed grading (skipped, why)
    sandbox: str = ""  # how the submission's code was isolated (sandbox.Sandbox.describe)
    sandbox_mode: str = ""  # namespaces, user, none

    @property
    def score(self) -> float:
        return sum(lab.points for lab in self.labs)

    @property
    def max_score(self) -> float:
        return sum(lab.total_max for lab in self.labs)

    @property
    def execution_time(self) -> float:
        return (self.finished or time.time()) - self.started


class Progress:
    """Progress lines with the elapsed time, flushed at once (Gradescope shows stdout to staff)."""

    def __init__(self, quiet: bool = False, stream=None) -> None:
        self.start = time.monotonic()
        self.quiet = quiet
        self.stream = stream or sys.stdout

    def __call__(self, message: str) -> None:
        if self.quiet:
            return
        print(f"[{time.monotonic() - self.start:7.1f}s] {message}", file=self.stream, flush=True)

    def heartbeat(self, what: str):
        return lambda elapsed: self(f"{what} ({elapsed:.0f} s so far)")


def fmt_points(value: float) -> str:
    return f"{value:.2f}"
