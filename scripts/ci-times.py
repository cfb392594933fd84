#!/usr/bin/env python3
"""Prints CI's time per step as a table: wall seconds, CPU seconds (user + sys of everything the
step ran) and the exit status, from the times file .ci/run writes (scripts/ci-step.sh) or from a
CI log (its `=== STEP: W s wall, C s CPU, exit status S` lines).

  scripts/ci-times.py [FILE]            one run (default: $SCANLAB_CI_TIMES or
                                        /tmp/scanlab-ci-times.tsv)
  scripts/ci-times.py BEFORE AFTER      two runs side by side, steps matched by name

Steps that ran side by side overlap in wall time: "total of the steps" is their sum, "whole run"
CI's own total. A log from before the steps were timed this way gives the wall times it printed
(CPU time: -)."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

LOG_LINE = re.compile(r"^=== (?P<name>.+): (?P<wall>\d+) s wall, (?P<cpu>\d+) s CPU, "
                      r"exit status (?P<status>\d+)$")
# The lines of a CI log from before the steps were timed this way (.ci/run until issue 35): the
# wall times it printed, under today's step names (CPU time unknown: -1).
OLD_LINES = [
    (re.compile(r"^Total Test time \(real\) = +(\d+)"), "tests (ctest)"),
    (re.compile(r"^check_stubs: \d+ lab\(s\), (\d+) s"), "stubs fail, solutions pass"),
    (re.compile(r"^=== platform packages installed in (\d+) s"), "platform packages"),
    (re.compile(r"^=== clang 16 job: (\d+) s"), "clang 16 job"),
    (re.compile(r"^=== arm64 job: (\d+) s"), "arm64 job (qemu)"),
    (re.compile(r"^=== the grader's own tests: (\d+) s, exit status (\d+)"),
     "the grader's own tests (beside the steps below)"),
]
WHOLE_RUN = re.compile(r"^=== CI done in (\d+) s")


def read_times(path: Path) -> dict[str, tuple[int, int, int]]:
    """Step name -> (wall s, CPU s or -1 where unknown, exit status), in the order the steps
    ended; "whole run" -> CI's own total, where the log has it."""
    steps: dict[str, tuple[int, int, int]] = {}
    for line in path.read_text(errors="replace").splitlines():
        line = line.strip()
        fields = line.split("\t")
        if len(fields) == 4 and fields[1].isdigit():
            name, wall, cpu, status = fields
        elif match := LOG_LINE.match(line):
            name, wall, cpu, status = match.group("name", "wall", "cpu", "status")
        elif match := WHOLE_RUN.match(line):
            name, wall, cpu, status = "whole run", match.group(1), "-1", "0"
        else:
            old = [(name, m) for pattern, name in OLD_LINES if (m := pattern.match(line))]
            if not old or old[0][0] in steps:
                continue
            name, match = old[0]
            wall, cpu = match.group(1), "-1"
            status = match.group(2) if match.lastindex and match.lastindex > 1 else "0"
        steps[name] = (int(wall), int(float(cpu)), int(status))
    return steps


def table(runs: list[dict[str, tuple[int, int, int]]], titles: list[str]) -> str:
    names: list[str] = []
    for run in runs:
        names += [n for n in run if n not in names]
    width = max([len(n) for n in names] + [len("total of the steps")])
    head = f"{'step':<{width}}" + "".join(f"  {t + ' wall':>12}  {t + ' CPU':>11}" for t in titles)
    lines = [head, "-" * len(head)]
    names = [n for n in names if n != "whole run"]
    whole = ["whole run"] if any("whole run" in run for run in runs) else []
    for name in names + ["total of the steps"] + whole:
        cells = []
        for run in runs:
            steps = [v for n, v in run.items() if n != "whole run"]
            if name == "total of the steps":
                wall = sum(v[0] for v in steps)
                known = [v[1] for v in steps if v[1] >= 0]
                cpu = sum(known) if known else -1
                failed = any(v[2] for v in steps)
            elif name in run:
                wall, cpu, status = run[name]
                failed = status != 0
            else:
                cells.append(f"  {'-':>12}  {'-':>11}")
                continue
            mark = " !" if failed else "  "
            cpu_cell = f"{cpu:>9} s" if cpu >= 0 else f"{'-':>11}"
            cells.append(f"  {wall:>10} s  {cpu_cell}{mark}")
        lines.append(f"{name:<{width}}" + "".join(cells).rstrip())
    if any(v[2] for run in runs for v in run.values()):
        lines.append("(!: the step failed)")
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    if len(argv) > 2 or any(a in ("-h", "--help") for a in argv):
        print(__doc__)
        return 0 if argv and argv[0] in ("-h", "--help") else 2
    paths = [Path(a) for a in argv] or [
        Path(os.environ.get("SCANLAB_CI_TIMES", "/tmp/scanlab-ci-times.tsv"))]
    runs = []
    for path in paths:
        if not path.is_file():
            print(f"ci-times: {path} does not exist (.ci/run writes it; see --help)",
                  file=sys.stderr)
            return 2
        runs.append(read_times(path))
        if not runs[-1]:
            print(f"ci-times: {path} holds no step times", file=sys.stderr)
            return 2
    titles = ["before", "after"] if len(runs) == 2 else ["this run"]
    print(table(runs, titles))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
