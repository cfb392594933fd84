"""The output files: results.json (Gradescope's schema), JUnit XML and the table, built from a
hand-made grade, including the worst cases (nothing graded, grader failure)."""

import json
import random
import tempfile
import unittest
import xml.etree.ElementTree as ET
from pathlib import Path

import sys as _sys
from pathlib import Path as _Path

_sys.path.insert(0, str(_Path(__file__).resolve().parent))
import support
from scanlab_grader import outputs, tree
from scanlab_grader.model import Grade, LabResult, TestResult


def make_grade() -> Grade:
    labs = {lab.number: lab for lab in tree.discover_labs(support.REPO)}
    grade = Grade(submission="alice", seed=7, backend="simt", hidden=True)
    ok = LabResult(labs["00"], 5, status="graded", tests=[
        TestResult("a", passed=True, max_score=2.5, score=2.5),
        TestResult("b", passed=False, message="wrong at 3\nmore\x01", max_score=2.5)])
    broken = LabResult(labs["01"], 10, status="build failed", tests=[
        TestResult("build failed", synthetic=True, message="error: x", max_score=10)])
    hidden = TestResult("hidden: c", hidden=True, passed=True, max_score=1, score=1,
                        visibility="after_published")
    ok.tests.append(hidden)
    grade.labs = [ok, broken]
    return grade


class Outputs(unittest.TestCase):
    def test_results_json(self):
        data = outputs.results_json(make_grade())
        support.check_results_schema(self, data)
        self.assertAlmostEqual(data["score"], 3.5)
        self.assertEqual(data["extra_data"]["max_score"], 16)
        names = [t["name"] for t in data["tests"]]
        self.assertIn("lab00 sequential: [hidden] hidden: c", names)
        hidden = next(t for t in data["tests"] if "[hidden]" in t["name"])
        self.assertEqual(hidden["visibility"], "after_published")
        self.assertIn("hidden", hidden["tags"])
        broken = next(t for t in data["tests"] if t["name"].startswith("lab01"))
        self.assertIn("build failed", broken["output"])

    def test_top_level_output_counts_no_hidden_test_case(self):
        """The top-level output is visible at once: hidden test cases (after_published) are
        neither counted nor added up in it, only in their own entries."""
        grade = make_grade()
        lab00 = grade.labs[0]
        for i in range(random.randint(1, 9)):
            lab00.tests.append(TestResult(f"hidden: more {i}", hidden=True,
                                          passed=random.random() < 0.5, max_score=0.25,
                                          visibility="after_published"))
            lab00.tests[-1].score = 0.25 if lab00.tests[-1].passed else 0.0
        output = outputs.results_json(grade)["output"]
        self.assertIn("lab00 sequential: 2.50 / 5.00  (1/2 test cases passed)", output)
        self.assertIn("Scan Lab: 2.50 / 15.00 points in the test cases shown now", output)
        lab00.tests = [t for t in lab00.tests if not t.hidden]
        output = outputs.results_json(grade)["output"]
        self.assertIn("Scan Lab: 2.50 / 15.00 points\n", output)
        self.assertNotIn("shown now", output)

    def test_missing_sandbox_is_said_at_the_top(self):
        grade = make_grade()
        grade.sandbox, grade.sandbox_mode = "SANDBOX MISSING: no mount namespace", "user"
        data = outputs.results_json(grade)
        self.assertIn("SANDBOX MISSING: no mount namespace", data["output"])
        self.assertEqual(data["extra_data"]["sandbox"], "user")
        self.assertIn("SANDBOX MISSING", outputs.table(grade))

    def test_junit_is_valid_xml(self):
        root = ET.fromstring(outputs.junit_xml(make_grade()))
        self.assertEqual(root.tag, "testsuites")
        self.assertEqual(len(root.findall("testsuite")), 2)
        self.assertEqual(root.get("failures"), "2")
        failure = root.find(".//testcase[@name='b']/failure")
        self.assertEqual(failure.get("message"), "wrong at 3")

    def test_table(self):
        text = outputs.table(make_grade())
        self.assertIn("TOTAL 3.50 / 16.00", text)
        self.assertIn("FAILED", text)
        self.assertIn("[build failed]", text)

    def test_table_shows_why_a_case_failed(self):
        """The context line a test's message opens with is the same for every case; the table
        shows the line that says why (the emulator's report, the first wrong output), whole."""
        grade = make_grade()
        index = random.randint(0, 99999)
        reasons = {
            "wrong": f"first wrong output at index {index} (3 of 100000 outputs are wrong): "
                     "expected 5, got 7",
            "fault": "simt: illegal address in kernel k<int>(...) at lab.cu:42: illegal read",
        }
        grade.labs[0].tests += [
            TestResult("wrong", passed=False, max_score=1,
                       message=f"lab.cpp:12: lab04::scan (n=100000): inclusive scan, op=sum\n"
                               f"  {reasons['wrong']}\n  hint: something"),
            TestResult("fault", passed=False, max_score=1,
                       message=f"lab.cpp:40: lab04::scan: the kernel failed: cudaDeviceSynchronize"
                               f"() failed at lab.cu:9: cudaErrorIllegalAddress\n"
                               f"  {reasons['fault']}")]
        text = outputs.table(grade)
        for reason in reasons.values():
            self.assertIn(reason, text)
        self.assertNotIn("lab04::scan (n=100000)", text)
        self.assertIn("wrong at 3", text)  # a one-line message is its own reason
        grade.labs[0].tests = [TestResult("gpu fault", passed=False, max_score=1,
                                          message="lab.cpp:40: lab05::scan (n=7): the kernel "
                                                  "failed: cudaErrorIllegalAddress")]
        text = outputs.table(grade)
        self.assertIn(" the kernel failed: cudaErrorIllegalAddress", text)
        self.assertNotIn("lab05::scan (n=7)", text)

    def test_write_all_replaces_whatever_was_there(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp)
            (out / "results.json").write_text('{"score": 1000}')
            outputs.write_all(make_grade(), out)
            data = support.load_results(self, out / "results.json")
            self.assertAlmostEqual(data["score"], 3.5)
            self.assertEqual(sorted(p.name for p in out.iterdir()),
                             ["junit.xml", "results.json", "table.txt"])

    def test_empty_and_fatal_grade(self):
        grade = Grade(submission="x", seed=1, backend="simt", hidden=False)
        grade.fatal = "RuntimeError('boom')"
        data = outputs.results_json(grade)
        support.check_results_schema(self, data)
        self.assertIn("grader failed", data["output"])
        json.dumps(data)


if __name__ == "__main__":
    unittest.main()
