"""What running a lab's programs needs besides the lab itself: the grading context, the test
programs' environment and memory limit. Used by grading.py (graded tests) and speed.py (speed
timing); neither imports the other."""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from pathlib import Path

from . import rubric as rubric_mod, sandbox as sandbox_mod
from .model import Progress


@dataclass
class Context:
    """What grading a lab needs to know besides the lab itself."""
    repo: Path
    rubric: rubric_mod.Rubric
    runs: Path  # scratch folder for reports and working directories
    logs: Path  # logs that are kept (the output folder's logs/)
    seed: int
    hidden_dir: Path | None  # the hidden tests compiled into the lab's programs
    run_hidden: bool = True  # whether their cases are graded (not with --hidden no)
    backend: str = "simt"
    jobs: int | None = None
    env: dict[str, str] = field(default_factory=dict)
    progress: Progress = field(default_factory=Progress)
    sandbox: sandbox_mod.Sandbox = field(default_factory=lambda: sandbox_mod.Sandbox("none"))
    deadline: float | None = None  # time.monotonic() when the submission's time budget ends
    build: Path | None = None  # where the compilers ran: doctest's relative file names start there
    # The trusted programs (no student code) that the grader runs as itself, and their SHA-256
    # right after the grader built them: each is checked again before it runs.
    trusted: dict[Path, str] = field(default_factory=dict)

    def verify_trusted(self, exe: Path) -> None:
        """Raises RuntimeError unless `exe` is one of the trusted programs, unchanged."""
        if not self.trusted:
            return  # check_stubs.py: no submission's code was built or run
        real = Path(exe).resolve()
        expected = self.trusted.get(real)
        if expected is None:
            raise RuntimeError(f"{exe} is not one of the trusted programs the grader built")
        if sha256_of(real) != expected:
            raise RuntimeError(f"the trusted program {exe} changed after the grader built it "
                               f"(its SHA-256 differs): not run")

    @property
    def run_as(self) -> tuple[int, int] | None:
        """The (uid, gid) that the submission's programs run as, when not the grader's own."""
        return self.sandbox.user

    def time_left(self, wanted: float) -> float:
        """`wanted` seconds, or what is left of the submission's time budget if less."""
        if self.deadline is None:
            return wanted
        return max(0.0, min(wanted, self.deadline - time.monotonic()))

    def program_view(self, exe: Path, cwd: Path) -> sandbox_mod.View:
        """What a test program sees: itself (read-only) and its own working folder."""
        return sandbox_mod.View(read_only=[exe], writable=[cwd], gpu=self.backend == "cuda")

    def graded_dirs(self) -> list[str]:
        dirs = [os.path.realpath(self.repo / "tests" / "labs")]
        if self.hidden_dir is not None:
            dirs.append(os.path.realpath(self.hidden_dir))
        return dirs



def sha256_of(path: Path) -> str:
    import hashlib
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def test_env(ctx: Context, lab_rubric: rubric_mod.LabRubric, home: Path) -> dict[str, str]:
    """A small, explicit environment: nothing of the grader's own leaks in except what a GPU
    program needs to find its driver."""
    env = {
        "PATH": os.environ.get("PATH", "/usr/local/bin:/usr/bin:/bin"),
        "HOME": str(home),
        "TMPDIR": str(home),
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "SCANLAB_SEED": str(ctx.seed),
    }
    for key, value in os.environ.items():
        if key.startswith(("CUDA_", "NVIDIA_")) or key == "LD_LIBRARY_PATH":
            env[key] = value
    env.update(lab_rubric.env)
    env.update(ctx.env)
    return env


def memory_limit_mb(backend: str, lab_rubric: rubric_mod.LabRubric) -> int:
    """RLIMIT_AS for a test program. None on the cuda backend: the CUDA driver reserves far more
    address space than any limit that makes sense (cudaGetDeviceCount then fails with "out of
    memory"), so a GPU program's memory is bounded by the GPU instead."""
    return lab_rubric.memory_limit_mb if backend == "simt" else 0
