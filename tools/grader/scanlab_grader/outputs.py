"""The grader's outputs: Gradescope's results.json, JUnit XML, and a readable table.
Every file is written atomically (a temporary file renamed over the target), so a reader never
sees half a file, and whatever a test program wrote under that name is replaced."""

from __future__ import annotations

import json
import os
import re
import xml.etree.ElementTree as ET
from pathlib import Path

from .model import Grade, LabResult, TestResult

MAX_OUTPUT_CHARS = 8000  # per test case in results.json / JUnit


def write_atomic(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def _clip(text: str, limit: int = MAX_OUTPUT_CHARS) -> str:
    text = text.replace("\x00", "")
    return text if len(text) <= limit else text[:limit] + "\n[... cut]"


def test_name(lab: LabResult, test: TestResult) -> str:
    prefix = "[hidden] " if test.hidden else ""
    return f"{lab.lab.title}: {prefix}{test.name}"


def _round(value: float) -> float:
    return round(value + 0.0, 4)


def _speed_and_failure(grade: Grade, failure: str) -> list[str]:
    """The lines that close both reports: the speed grading's line and, where the grader itself
    failed, `failure` with the reason in its {}."""
    return ([grade.speed] if grade.speed else []) + (
        [failure.format(grade.fatal)] if grade.fatal else [])


def results_json(grade: Grade) -> dict:
    """Gradescope's format (https://gradescope-autograders.readthedocs.io, "Autograder
    Specifications"): top-level score, execution_time, output, tests[]; each test with name,
    number, score, max_score, status, output, visibility, tags. extra_data holds the rest."""
    tests = []
    for lab_index, lab in enumerate(grade.labs):
        for index, test in enumerate(lab.tests, start=1):
            output = test.message or ("passed" if test.passed else "failed")
            if test.synthetic:
                output = f"{lab.lab.title} could not be graded ({lab.status}): {test.message}"
            entry = {
                "name": test_name(lab, test),
                "number": f"{lab.lab.number}.{index:02d}",
                "score": _round(test.score),
                "max_score": _round(test.max_score),
                "status": "passed" if test.passed else "failed",
                "output": _clip(output),
                "visibility": test.visibility,
                "tags": [f"lab{lab.lab.number}"] + (["hidden"] if test.hidden else [])
                        + (["speed"] if test.kind == "speed" else []),
            }
            tests.append(entry)
    # The top-level output is shown at once: test cases whose visibility is not "visible"
    # (hidden tests before grades are published) are neither counted nor added up in it.
    def shown(test: TestResult) -> bool:
        return test.visibility == "visible"

    withheld = any(not shown(t) for lab in grade.labs for t in lab.tests)
    score = sum(t.score for lab in grade.labs for t in lab.tests if shown(t))
    max_score = sum(t.max_score for lab in grade.labs for t in lab.tests if shown(t))
    lines = [f"Scan Lab: {score:.2f} / {max_score:.2f} points" +
             (" in the test cases shown now (the others when grades are published)"
              if withheld else "")]
    for lab in grade.labs:
        visible = [t for t in lab.tests if shown(t)]
        passed = sum(1 for t in visible if t.passed and not t.synthetic)
        counted = sum(1 for t in visible if not t.synthetic)
        state = f"{passed}/{counted} test cases passed" if counted else lab.status
        points = sum(t.score for t in visible)
        most = sum(t.max_score for t in visible)
        lines.append(f"  {lab.lab.title}: {points:.2f} / {most:.2f}  ({state})")
    if grade.sandbox and grade.sandbox_mode != "namespaces":
        lines.append(grade.sandbox)
    lines += _speed_and_failure(grade, "The grader failed: {}. Please tell your instructor.")
    lines.append(f"Random seed of this run: {grade.seed} (SCANLAB_SEED={grade.seed} reproduces "
                 f"the inputs)")
    return {
        "score": _round(grade.score),
        "execution_time": int(round(grade.execution_time)),
        "output": "\n".join(lines),
        "output_format": "text",
        "test_output_format": "text",
        "visibility": "visible",
        "stdout_visibility": "hidden",
        "extra_data": {
            "max_score": _round(grade.max_score),
            "seed": grade.seed,
            "backend": grade.backend,
            "hidden_tests": grade.hidden,
            "sandbox": grade.sandbox_mode,
            "grader_error": grade.fatal,
            "labs": {
                lab.lab.number: {"status": lab.status, "score": _round(lab.points),
                                 "max_score": _round(lab.total_max),
                                 "isolated": lab.isolated, "review": lab.review}
                for lab in grade.labs
            },
        },
        "tests": tests,
    }


def junit_xml(grade: Grade) -> str:
    suites = ET.Element("testsuites", name="scanlab-grade",
                        tests=str(sum(len(l.tests) for l in grade.labs)),
                        failures=str(sum(1 for l in grade.labs for t in l.tests
                                         if not t.passed)),
                        time=f"{grade.execution_time:.3f}")
    for lab in grade.labs:
        suite = ET.SubElement(suites, "testsuite", name=f"lab{lab.lab.number}_{lab.lab.name}",
                              tests=str(len(lab.tests)),
                              failures=str(sum(1 for t in lab.tests if not t.passed)),
                              errors="0", skipped="0", time=f"{lab.build_s + lab.run_s:.3f}")
        props = ET.SubElement(suite, "properties")
        for name, value in (("score", f"{lab.points:.4f}"), ("max_score", f"{lab.total_max:.4f}"),
                            ("status", lab.status), ("seed", str(grade.seed))):
            ET.SubElement(props, "property", name=name, value=value)
        for test in lab.tests:
            case = ET.SubElement(suite, "testcase", classname=f"lab{lab.lab.number}_{lab.lab.name}",
                                 name=("[hidden] " if test.hidden else "") + test.name,
                                 time=f"{test.duration or 0.0:.3f}")
            cprops = ET.SubElement(case, "properties")
            ET.SubElement(cprops, "property", name="score", value=f"{test.score:.4f}")
            ET.SubElement(cprops, "property", name="max_score", value=f"{test.max_score:.4f}")
            if not test.passed:
                message = test.message or "failed"
                failure = ET.SubElement(case, "failure",
                                        message=_xml_safe(message.splitlines()[0][:300]),
                                        type=lab.status if test.synthetic else "failure")
                failure.text = _xml_safe(_clip(message))
            elif test.kind == "speed" and test.message:
                ET.SubElement(case, "system-out").text = _xml_safe(test.message)
    ET.indent(suites)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(suites, encoding="unicode")


def _xml_safe(text: str) -> str:
    """XML 1.0 cannot hold most control characters; a student's output may."""
    return "".join(c if c in "\t\n\r" or ord(c) >= 0x20 else "?" for c in text)


def _first_line(text: str, width: int) -> str:
    line = text.strip().splitlines()[0] if text.strip() else ""
    return line if len(line) <= width else line[: width - 3] + "..."


# The lines of a failure message that say why it failed, best first: a test's message opens
# with a line of context (which call, which operator and size) that is the same for every case.
_REASONS = [re.compile(p) for p in (
    r"^simt: .* in kernel",             # the emulator's report of a fault
    r"first wrong output at index",     # the checker: where the values go wrong
    r"^\s*(count|values): ",            # a count or an expression that was off
    r"the kernel failed|failed at ",    # a fault without the emulator's report
    r"^\s*(threw exception|uncaught exception|crashed)",
)]


def failure_reason(message: str) -> str:
    """The line of a failure message that says why the case failed (its first line if none
    does), without the file:line that doctest puts in front."""
    lines = [line.strip() for line in message.strip().splitlines() if line.strip()]
    if not lines:
        return ""
    for pattern in _REASONS:
        for line in lines:
            if pattern.search(line):
                line = re.sub(r"^[\w.+-]+:\d+: ", "", line)
                # "<which call>: the kernel failed at ...": the call is context too
                at = line.find("the kernel failed")
                return line[at:] if at > 0 else line
    return re.sub(r"^[\w.+-]+:\d+: ", "", lines[0])


def table(grade: Grade, width: int = 132) -> str:
    out = [f"Scan Lab grade: {grade.submission}",
           f"seed {grade.seed}, backend {grade.backend}, hidden tests "
           f"{'included' if grade.hidden else 'not included'}"]
    if grade.sandbox:
        out.append(grade.sandbox)
    out.append("")
    for lab in grade.labs:
        header = f"{lab.lab.title}  [{lab.status}]"
        timing = f"build {lab.build_s:.1f} s, run {lab.run_s:.1f} s"
        score = f"{lab.points:6.2f} / {lab.total_max:6.2f}"
        out.append(f"{header:<{width - len(score) - len(timing) - 4}}{score}  {timing}")
        out.append(f"  {'points':>15}  {'status':<7} {'test case':<46} first failure")
        for test in lab.tests:
            name = ("[hidden] " if test.hidden else "") + test.name
            status = "passed" if test.passed else ("FAILED" if test.kind == "test" else "slow")
            if test.kind == "speed" and not test.passed and test.score == 0:
                status = "FAILED"
            pts = f"{test.score:6.2f}/{test.max_score:<6.2f}"
            reason = "" if test.passed and test.kind == "test" else failure_reason(test.message)
            row = f"  {pts:>15}  {status:<7} {name[:46]:<46}"
            if len(row) + 1 + len(reason) <= width:
                out.append(f"{row} {reason}".rstrip())
            else:  # a reason too long for the column gets a line of its own, whole if it fits
                out.append(row.rstrip())
                out.append(f"      {_first_line(reason, width - 6)}")
        if lab.isolated:
            out.append(f"  note: {_first_line(lab.problem, width - 8)}")
        for note in lab.notes:
            out.append(f"  note: {_first_line(note, width - 8)}")
        for flag in lab.review:
            out.append(f"  review: {_first_line(flag, width - 10)}")
        if lab.status not in ("graded",) and lab.problem:
            for line in lab.problem.splitlines()[:12]:
                out.append(f"  | {line[: width - 4]}")
        out.append("")
    for note in grade.notes:
        out.append(f"note: {_first_line(note, width - 6)}")
    out += _speed_and_failure(grade, "GRADER ERROR: {}")
    out.append(f"TOTAL {grade.score:.2f} / {grade.max_score:.2f}   "
               f"({grade.execution_time:.1f} s)")
    return "\n".join(out) + "\n"


def write_all(grade: Grade, out_dir: Path, results_path: Path | None = None,
              junit_path: Path | None = None) -> dict[str, Path]:
    results_path = results_path or out_dir / "results.json"
    junit_path = junit_path or out_dir / "junit.xml"
    table_path = out_dir / "table.txt"
    written = {}
    # results.json first: it is the one file that must exist whatever else fails.
    write_atomic(results_path, json.dumps(results_json(grade), indent=2) + "\n")
    written["results"] = results_path
    write_atomic(junit_path, junit_xml(grade))
    written["junit"] = junit_path
    write_atomic(table_path, table(grade))
    written["table"] = table_path
    return written
