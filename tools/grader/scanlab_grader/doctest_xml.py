"""Reads what doctest's XML reporter wrote (`--reporters=xml --out=FILE`): the test-case listing
(`--list-test-cases`) and the results of a run.

A report counts as complete only when the file parses and ends with doctest's closing summary
(`<OverallResultsTestCases>` directly under `<doctest>`): a program that died or exited early
leaves no such element behind (the reporter writes it in test_run_end, and the output stream is
only flushed when doctest's context is destroyed).
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path

MAX_REPORT_BYTES = 64 * 1024 * 1024


@dataclass
class CaseInfo:
    name: str
    filename: str
    line: int
    suite: str


@dataclass
class CaseResult:
    name: str
    filename: str
    suite: str
    line: int
    passed: bool
    message: str = ""  # the first failure, empty when passed
    duration: float | None = None


@dataclass
class Report:
    complete: bool
    problem: str = ""  # why it is not complete
    cases: list[CaseResult] = field(default_factory=list)

    def by_name(self) -> dict[str, CaseResult]:
        """Name -> result; a name that appears twice keeps its first failure."""
        out: dict[str, CaseResult] = {}
        for case in self.cases:
            if case.name not in out or (out[case.name].passed and not case.passed):
                out[case.name] = case
        return out


def _load(path: Path) -> tuple[ET.Element | None, str]:
    try:
        size = path.stat().st_size
    except OSError:
        return None, "no report file was written"
    if size > MAX_REPORT_BYTES:
        return None, f"the report file is too large ({size} bytes)"
    try:
        data = path.read_bytes()
    except OSError as error:
        return None, f"the report file cannot be read ({error})"
    return _parse(data, "report file")


def _parse(data: bytes, what: str) -> tuple[ET.Element | None, str]:
    if not data:
        return None, f"the {what} is empty"
    if len(data) > MAX_REPORT_BYTES:
        return None, f"the {what} is too large ({len(data)} bytes)"
    try:
        # Anything written after doctest's closing </doctest> (an atexit handler appending a
        # second report) makes this fail: "junk after document element".
        root = ET.fromstring(data)
    except ET.ParseError as error:
        return None, f"the {what} is incomplete or corrupt ({error})"
    if root.tag != "doctest":
        return None, f"the {what} is not doctest's (root element <{root.tag}>)"
    return root, ""


def _text(element: ET.Element | None) -> str:
    if element is None:
        return ""
    return "".join(element.itertext()).strip()


def read_listing(path: Path) -> tuple[list[CaseInfo] | None, str]:
    """The test cases an executable has (`--list-test-cases --reporters=xml`)."""
    root, problem = _load(path)
    if root is None:
        return None, problem
    if root.find("OverallResultsTestCases") is None:
        return None, "the test-case listing is incomplete"
    cases = [
        CaseInfo(
            name=tc.get("name", ""),
            filename=tc.get("filename", ""),
            line=int(tc.get("line", "0") or 0),
            suite=tc.get("testsuite", ""),
        )
        for tc in root.findall("TestCase")
    ]
    return cases, ""


def _location(element: ET.Element) -> str:
    filename = element.get("filename", "")
    if not filename:
        return ""
    return f"{Path(filename).name}:{element.get('line', '?')}"


def _describe_expression(expr: ET.Element) -> str:
    kind = expr.get("type", "CHECK")
    original = _text(expr.find("Original"))
    lines = [f"{_location(expr)}: {kind}( {original} ) is NOT correct!"]
    expanded = _text(expr.find("Expanded"))
    if expanded and expanded != original:
        lines.append(f"  values: {kind}( {expanded} )")
    exception = expr.find("Exception")
    if exception is not None:
        lines.append(f"  threw exception: {_text(exception)}")
    expected = expr.find("ExpectedException")
    if expected is not None:
        lines.append(f"  expected exception: {_text(expected)}")
    expected_string = expr.find("ExpectedExceptionString")
    if expected_string is not None:
        lines.append(f"  expected exception message: {_text(expected_string)}")
    for info in expr.findall("Info"):
        lines.append(_text(info))
    return "\n".join(lines)


def first_failure(test_case: ET.Element) -> str:
    """The first thing that went wrong in a <TestCase>, as a student reads it."""
    for element in test_case.iter():
        if element.tag == "Expression" and element.get("success") == "false":
            return _describe_expression(element)
        if element.tag == "Message" and "ERROR" in element.get("type", "").upper():
            where = _location(element)
            text = _text(element.find("Text"))
            return f"{where}: {text}" if where else text
        if element.tag == "Exception":
            if element.get("crash") == "true":
                return f"crashed: {_text(element)}"
            return f"uncaught exception: {_text(element)}"
    return "failed"


def read_report(path: Path) -> Report:
    """The results of a test run (`--reporters=xml --out=FILE`)."""
    root, problem = _load(path)
    if root is None:
        return Report(False, problem)
    return _report(root)


def read_report_bytes(data: bytes | None) -> Report:
    """The results of a test run whose report came through the grader's pipe."""
    if data is None:
        return Report(False, "no report came through the report pipe")
    root, problem = _parse(data, "report")
    if root is None:
        return Report(False, problem)
    return _report(root)


def _report(root: ET.Element) -> Report:
    if root.find("OverallResultsTestCases") is None:
        return Report(False, "the report ends before doctest's closing summary (the program "
                             "stopped before all its tests had finished)")
    cases: list[CaseResult] = []
    for suite in root.findall("TestSuite"):
        suite_name = suite.get("name", "")
        for tc in suite.findall("TestCase"):
            if tc.get("skipped") == "true":  # filtered out (--test-case) or doctest::skip()
                continue
            overall = tc.find("OverallResultsAsserts")
            if overall is None:
                return Report(False, f"test case '{tc.get('name', '')}' has no result")
            passed = overall.get("test_case_success") == "true"
            duration = overall.get("duration")
            cases.append(
                CaseResult(
                    name=tc.get("name", ""),
                    filename=tc.get("filename", ""),
                    suite=suite_name,
                    line=int(tc.get("line", "0") or 0),
                    passed=passed,
                    message="" if passed else first_failure(tc),
                    duration=float(duration) if duration else None,
                )
            )
    return Report(True, "", cases)
