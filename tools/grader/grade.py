#!/usr/bin/env python3
"""Scan Lab grader: grades a student's copy of labs/ (see --help and docs/grading.md)."""

import sys
from pathlib import Path

if sys.version_info < (3, 11):
    sys.exit("grade.py needs Python 3.11 or newer (tomllib)")
sys.path.insert(0, str(Path(__file__).resolve().parent))

from scanlab_grader.cli import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
