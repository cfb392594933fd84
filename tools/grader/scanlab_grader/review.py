"""Pointers for the instructor's code review: constructs in a submitted lab file that a scan
kernel has no use for and that the attacks on the grader need (docs/grading.md, "What student
code can still do"). They change no score: the grader cannot tell intent, and a reviewer reads
the lines it names. They go to the table and to results.json's extra_data, not to the test
cases' output."""

from __future__ import annotations

import re
from pathlib import Path

# (what it is, pattern); patterns match one line of source.
SUSPICIOUS = [
    ("#line directive (code that claims to be in another file)", re.compile(r"^\s*#\s*line\b")),
    ("ends the process (_exit, quick_exit, exit)",
     re.compile(r"\b(_exit|_Exit|quick_exit|exit)\s*\(")),
    ("exit handler (atexit)", re.compile(r"\b(atexit|at_quick_exit)\s*\(")),
    ("code before main (constructor attribute, init_priority, init arrays)",
     re.compile(r"constructor\s*\)|init_priority|\.(pre)?init_array")),
    ("doctest, the test framework", re.compile(r"doctest|TEST_CASE")),
    ("/proc (the process's own command line, descriptors, memory)", re.compile(r"/proc\b")),
    ("new processes (fork, exec, system, popen, setsid)",
     re.compile(r"\b(fork|vfork|execl|execlp|execle|execv|execvp|execve|system|popen|setsid)"
                r"\s*\(")),
    ("file or descriptor access (fopen, fstream, open, write, dup2)",
     re.compile(r"\b(fopen|open|write|dup2)\s*\(|\b(ofstream|ifstream|fstream)\b")),
    ("device-to-host copy (a host-side scan?)",
     re.compile(r"cudaMemcpyDeviceToHost|cudaMemcpyDefault")),
    ("host scan algorithm", re.compile(r"\b(inclusive_scan|exclusive_scan|partial_sum)\b")),
]


def flags(path: Path, shown_as: str, max_per_kind: int = 3) -> list[str]:
    """'shown_as:LINE: what' for each suspicious line of one submitted file."""
    try:
        lines = path.read_text(errors="replace").splitlines()
    except OSError:
        return []
    found: list[str] = []
    for what, pattern in SUSPICIOUS:
        hits = [number for number, line in enumerate(lines, start=1)
                if pattern.search(line.split("//", 1)[0])]  # not in a // comment
        if hits:
            where = ", ".join(str(n) for n in hits[:max_per_kind])
            more = f" and {len(hits) - max_per_kind} more" if len(hits) > max_per_kind else ""
            found.append(f"{shown_as}:{where}{more}: {what}")
    return found
