"""Scan Lab's grader: builds a student's labs against the graded tests, runs each lab in its own
process with time limits, and scores the results with grading/rubric.toml.

Standard library only (Python 3.11+: tomllib). Entry points: tools/grader/grade.py and
tools/grader/check_stubs.py; docs/grading.md describes both.
"""

__version__ = "1.0"
