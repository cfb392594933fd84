#!/usr/bin/env python3
"""Every claim a lesson makes about what the tools say of a mistake is a test.

A lesson (labs/*/README.md) that says a mistake "is reported", that the emulator "reports" it,
that a run "fails with" something, what "the hint" says or names, or which index is the first
wrong one, must back the sentence with a check, in the same paragraph or list item:

- a quoted output right after it (a `<!-- output: ID -->` block: tests/lessons/outputs.py keeps
  it equal to what the tool prints);
- `<!-- checked: mistake "NAME" says "TEXT" ... -->`: the mistake NAME of the catalog
  (tests/mistakes/catalog.toml), whose run the catalog checks; each TEXT (any number, or none)
  must be part of what the catalog expects of it (its kind, report, hint or said), so the claim
  and the check cannot drift apart;
- `<!-- checked: test "NAME" -->`: a doctest test case of that name in tests/ checks it.

Prints one line per problem and `N claims checked, M problems`; exit status 1 on any problem."""

from __future__ import annotations

import re
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LESSONS = sorted(ROOT.glob("labs/*/README.md"))

CLAIM = re.compile(
    r"\b(is|are) reported\b|\breported (by|as|with|together)\b|\bfails with\b"
    r"|\b(emulator|backend|check|it|still)\b[^.;:]{0,30}\breports\b"
    r"|\bthe hint (says|names)\b|\bfirst wrong index is\b|\bcounts? (itself|them) twice\b",
    re.IGNORECASE)
CHECKED = re.compile(r"<!-- checked: (.*?) -->")
OUTPUT = re.compile(r"^\s*<!-- output: [A-Za-z0-9_.-]+ -->\s*$")
FENCE = re.compile(r"^\s*```")
ITEM = re.compile(r"^\s*([-*]|\d+\.)\s")
QUOTED = re.compile(r'"([^"]*)"')


def blocks(lines: list[str]):
    """(first line number, lines) of each paragraph or list item outside fenced code, and the
    line number after it."""
    i = 0
    while i < len(lines):
        if FENCE.match(lines[i]):
            i += 1
            while i < len(lines) and not FENCE.match(lines[i]):
                i += 1
            i += 1
            continue
        if not lines[i].strip():
            i += 1
            continue
        start = i
        i += 1
        while (i < len(lines) and lines[i].strip() and not ITEM.match(lines[i])
               and not FENCE.match(lines[i])):
            i += 1
        yield start, lines[start:i], i


def next_content_line(lines: list[str], after: int) -> str:
    for line in lines[after:]:
        if line.strip():
            return line
    return ""


def check_marker(marker: str, mistakes: dict[str, dict], test_cases: set[str]) -> str:
    """Why the marker does not check anything, or ''."""
    words = marker.split(" ", 1)
    quoted = QUOTED.findall(marker)
    if words[0] == "mistake":
        if not quoted or quoted[0] not in mistakes:
            return f"the catalog has no mistake {quoted[0]!r}" if quoted else "no mistake named"
        m = mistakes[quoted[0]]
        expected = " ".join([m["kind"], m["report"], m["hint"], *m.get("said", [])])
        missing = [text for text in quoted[1:] if text not in expected]
        if missing:
            return (f"the catalog does not expect {missing} of the mistake {quoted[0]!r} (its "
                    "kind, report, hint or said must contain each)")
        return ""
    if words[0] == "test":
        if not quoted or quoted[0] not in test_cases:
            return f"no test case {quoted[0]!r} in tests/" if quoted else "no test case named"
        return ""
    return f"unknown check {words[0]!r} (mistake or test)"


def main() -> int:
    catalog = tomllib.loads((ROOT / "tests/mistakes/catalog.toml").read_text())
    mistakes = {m["name"]: m for m in catalog["mistake"]}
    test_cases = set()
    for source in (ROOT / "tests").rglob("*"):
        if source.suffix in (".cpp", ".cu", ".h"):
            test_cases.update(re.findall(r'TEST_CASE\("([^"]*)"\)', source.read_text()))
    problems, checked = [], 0
    for lesson in LESSONS:
        lines = lesson.read_text().splitlines()
        where = lesson.relative_to(ROOT)
        for start, block, end in blocks(lines):
            text = "\n".join(block)
            claim = CLAIM.search(text)
            if not claim:
                continue
            checked += 1
            markers = CHECKED.findall(text)
            for marker in markers:
                why = check_marker(marker, mistakes, test_cases)
                if why:
                    problems.append(f"{where}:{start + 1}: {why}")
            if not markers and not OUTPUT.match(next_content_line(lines, end)):
                problems.append(f"{where}:{start + 1}: '{claim.group(0)}' is claimed with no "
                                "check: quote the output, or add <!-- checked: mistake \"NAME\" "
                                "... --> (see tests/lessons/check_claims.py)")
    for problem in problems:
        print(f"FAIL: {problem}")
    print(f"{checked} claims checked, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
