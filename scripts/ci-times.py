#!/usr/bin/env python3
"""Prints CI's time per step as a table: wall seconds, CPU seconds (user + sys of everything the
step ran) and the exit status, from the times file .ci/run writes (scripts/ci-step.sh) or from a
CI log (its `=== STEP: W s wall, C s CPU, exit status S` lines).

  scripts/ci-times.py [FILE]            one run (default: $SCANLAB_CI_TIMES or
                                        /tmp/scanlab-ci-times.tsv)
  scripts/ci-times.py BEFORE AFTER      two runs side by side, steps matched by name

Steps that ran side by side overlap in wall time: the total line is the sum of the steps, and
CI's own last line says how long the whole run took."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

LOG_LINE = re.compile(r"^=== (?P<name>.+): (?P<wall>\d+) s wall, (?P<cpu>\d+) s CPU, "
                      r"exit status (?P<status>\d+)$")


def read_times(path: Path) -> dict[str, tuple[int, int, int]]:
    """Step name -> (wall s, CPU s, exit status), in the order the steps ended."""
    steps: dict[str, tuple[int, int, int]] = {}
    for line in path.read_text(errors="replace").splitlines():
        fields = line.split("\t")
        if len(fields) == 4 and fields[1].isdigit():
            name, wall, cpu, status = fields
        else:
            match = LOG_LINE.match(line.strip())
            if not match:
                continue
            name, wall, cpu, status = match.group("name", "wall", "cpu", "status")
        steps[name] = (int(wall), int(float(cpu)), int(status))
    return steps


def table(runs: list[dict[str, tuple[int, int, int]]], titles: list[str]) -> str:
    names: list[str] = []
    for run in runs:
        names += [n for n in run if n not in names]
    width = max([len(n) for n in names] + [len("total")])
    head = f"{'step':<{width}}" + "".join(f"  {t + ' wall':>12}  {t + ' CPU':>11}" for t in titles)
    lines = [head, "-" * len(head)]
    for name in names + ["total"]:
        cells = []
        for run in runs:
            if name == "total":
                wall, cpu = sum(v[0] for v in run.values()), sum(v[1] for v in run.values())
                failed = any(v[2] for v in run.values())
            elif name in run:
                wall, cpu, status = run[name]
                failed = status != 0
            else:
                cells.append(f"  {'-':>12}  {'-':>11}")
                continue
            mark = " !" if failed else "  "
            cells.append(f"  {wall:>10} s  {cpu:>9} s{mark}")
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
