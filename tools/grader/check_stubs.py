#!/usr/bin/env python3
"""Scan Lab: every graded test must fail on the untouched stubs and pass on the solutions.
Prints `N passed, M failed` last; exit status 0 only when nothing failed. See --help."""

import sys
from pathlib import Path

if sys.version_info < (3, 11):
    sys.exit("check_stubs.py needs Python 3.11 or newer (tomllib)")
sys.path.insert(0, str(Path(__file__).resolve().parent))

from scanlab_grader.check import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
