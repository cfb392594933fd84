#!/usr/bin/env python3
"""What grading costs: the CPU time of grading the reference solutions and the untouched stubs
of every lab with a warm build folder, with the sandbox and without it, and (optionally) the
same for another tree of the project, such as a commit before the sandbox existed.

    scripts/grading-cost.py [--tree DIR]... [--rounds 2] [--labs 00,01] [--csv FILE]

Each tree grades in a build folder of its own (<tree>/build-grading-cost), warmed by one
untimed grading of the stubs first. Every timed grading then compiles its submission's lab
files, as a real one does: within a tree the solutions and the stubs take turns. Then every round grades each (tree, sandbox, submission) once, in the
same order, so that a slow patch of the machine touches every entry alike. The seed is fixed.

CPU time is counted in a cgroup of its own (cgroup v2 cpu.stat, or v1 cpuacct) where this
machine lets us make one: that counts every process of the grading, also those inside the
sandbox's PID namespace, which getrusage() does not always see. Without a writable cgroup the
children's rusage is used, and the table says so."""

from __future__ import annotations

import argparse
import csv
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SEED = "11"


class CpuCounter:
    """CPU seconds of a command and all its descendants: a cgroup where possible."""

    def __init__(self) -> None:
        self.kind = "rusage of children"
        self.folder: Path | None = None
        name = f"scanlab-grading-cost-{os.getpid()}"
        for parent, kind in ((Path("/sys/fs/cgroup"), "cgroup v2"),
                             (Path("/sys/fs/cgroup/cpuacct"), "cgroup v1 cpuacct")):
            probe = parent / ("cpu.stat" if kind == "cgroup v2" else "cpuacct.usage")
            if not probe.exists() and kind == "cgroup v2":
                continue
            try:
                folder = parent / name
                folder.mkdir()
            except OSError:
                continue
            self.folder, self.kind = folder, kind
            break

    def _usage_s(self) -> float:
        assert self.folder is not None
        if self.kind == "cgroup v2":
            for line in (self.folder / "cpu.stat").read_text().splitlines():
                key, value = line.split()
                if key == "usage_usec":
                    return int(value) / 1e6
            raise RuntimeError("cpu.stat has no usage_usec")
        return int((self.folder / "cpuacct.usage").read_text()) / 1e9

    def run(self, command: list[str], log: Path) -> tuple[float, float, int]:
        """Runs `command`; returns (CPU seconds, wall seconds, exit status)."""
        start_wall = time.monotonic()
        with log.open("w") as out:
            if self.folder is not None:
                before = self._usage_s()
                # The shell joins the cgroup, then becomes the command: nothing runs outside it.
                join = f'echo $$ > "{self.folder}/cgroup.procs" && exec "$@"'
                status = subprocess.run(["sh", "-c", join, "sh", *command], stdout=out,
                                        stderr=subprocess.STDOUT).returncode
                return self._usage_s() - before, time.monotonic() - start_wall, status
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            status = subprocess.run(command, stdout=out, stderr=subprocess.STDOUT).returncode
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        return cpu, time.monotonic() - start_wall, status

    def close(self) -> None:
        if self.folder is not None:
            try:
                self.folder.rmdir()
            except OSError:
                pass


def has_sandbox_option(tree: Path) -> bool:
    cli = tree / "tools" / "grader" / "scanlab_grader" / "cli.py"
    return cli.exists() and '"--sandbox"' in cli.read_text()


def grade_command(tree: Path, submission: str, sandbox: str | None, labs: str | None,
                  out: Path) -> list[str]:
    folder = tree / ("solutions" if submission == "solutions" else "labs")
    command = [sys.executable, str(tree / "tools" / "grader" / "grade.py"), str(folder),
               "--build-dir", str(tree / "build-grading-cost"), "--seed", SEED,
               "--out", str(out), "--quiet"]
    if sandbox is not None:
        command += ["--sandbox", sandbox]
    if labs:
        command += ["--labs", labs]
    return command


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--tree", action="append", type=Path,
                   help="a tree of the project to measure (repeatable; default: this one)")
    p.add_argument("--rounds", type=int, default=2)
    p.add_argument("--labs", help="only these labs, e.g. 00,01 (default: all)")
    p.add_argument("--csv", type=Path, help="write every measurement here")
    args = p.parse_args()
    trees = [t.resolve() for t in (args.tree or [REPO])]

    entries = []  # (tree, sandbox, submission)
    for tree in trees:
        modes = ["none", "auto"] if has_sandbox_option(tree) else [None]
        for mode in modes:
            for submission in ("solutions", "stubs"):
                entries.append((tree, mode, submission))

    counter = CpuCounter()
    rows = []
    try:
        with tempfile.TemporaryDirectory(prefix="scanlab-grading-cost-") as tmp:
            work = Path(tmp)
            for tree in trees:
                print(f"[warm-up] {tree}: building and grading the stubs once", flush=True)
                cpu, wall, status = counter.run(
                    grade_command(tree, "stubs", None, args.labs, work / "warm"),
                    work / "warm.log")
                print(f"[warm-up] done in {wall:.0f} s (exit status {status})", flush=True)
            for round_number in range(1, args.rounds + 1):
                for tree, mode, submission in entries:
                    label = f"{tree.name} sandbox={mode or '(none: no such option)'} {submission}"
                    log = work / f"r{round_number}-{len(rows)}.log"
                    cpu, wall, status = counter.run(
                        grade_command(tree, submission, mode, args.labs, work / "out"), log)
                    # The grader exits 0 also when cases fail; anything else is its own fault.
                    if status != 0:
                        print(log.read_text()[-3000:])
                        raise SystemExit(f"{label}: the grader exited with {status}")
                    print(f"[round {round_number}] {label}: {cpu:.1f} s CPU, {wall:.1f} s wall",
                          flush=True)
                    rows.append({"tree": str(tree), "sandbox": mode or "", "submission": submission,
                                 "round": round_number, "cpu_s": round(cpu, 2),
                                 "wall_s": round(wall, 2)})
    finally:
        counter.close()

    print(f"\nCPU time counted by: {counter.kind}; seed {SEED}; {args.rounds} round(s); median "
          "[min, max] of CPU seconds")
    for tree, mode, submission in entries:
        cpus = [r["cpu_s"] for r in rows if r["tree"] == str(tree) and r["sandbox"] == (mode or "")
                and r["submission"] == submission]
        print(f"  {tree.name:24} sandbox={mode or '-':5} {submission:9} "
              f"{statistics.median(cpus):7.1f} [{min(cpus):.1f}, {max(cpus):.1f}]")
    if args.csv:
        with args.csv.open("w", newline="") as f:
            writer = csv.DictWriter(f, fieldnames=list(rows[0]))
            writer.writeheader()
            writer.writerows(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
