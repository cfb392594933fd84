"""Reading doctest's XML reporter output: complete, cut short, filtered, failure messages."""

import unittest
from pathlib import Path

import sys as _sys
from pathlib import Path as _Path

_sys.path.insert(0, str(_Path(__file__).resolve().parent))
import support
from scanlab_grader import doctest_xml

REPORT = """<?xml version="1.0" encoding="UTF-8"?>
<doctest binary="t" version="2.4.9">
  <Options order_by="file" rand_seed="0"/>
  <TestSuite>
    <TestCase name="good" filename="/r/tests/labs/lab01_naive_test.cpp" line="5">
      <OverallResultsAsserts successes="1" failures="0" test_case_success="true" duration="0.25"/>
    </TestCase>
    <TestCase name="bad message" filename="/r/tests/labs/lab01_naive_test.cpp" line="6">
      <Message type="ERROR" filename="/r/tests/labs/lab01_naive_test.cpp" line="38">
        <Text>
          first wrong output at index 3
  hint: look here
        </Text>
      </Message>
      <OverallResultsAsserts successes="0" failures="1" test_case_success="false"/>
    </TestCase>
    <TestCase name="bad expr" filename="/r/tests/labs/lab01_naive_test.cpp" line="7">
      <Expression success="false" type="REQUIRE" filename="/r/tests/labs/lab01_naive_test.cpp" line="9">
        <Original>
          x == 1
        </Original>
        <Expanded>
          2 == 1
        </Expanded>
        <Info>
          context
        </Info>
      </Expression>
      <OverallResultsAsserts successes="0" failures="1" test_case_success="false"/>
    </TestCase>
    <TestCase name="throws" filename="/r/tests/labs/lab01_naive_test.cpp" line="8">
      <Exception crash="false">
        cudaErrorIllegalAddress: boom
      </Exception>
      <OverallResultsAsserts successes="0" failures="1" test_case_success="false"/>
    </TestCase>
    <TestCase name="filtered" filename="/r/tests/labs/lab01_naive_test.cpp" line="9" skipped="true"/>
  </TestSuite>
  <TestSuite name="hidden">
    <TestCase name="hidden: one" filename="/r/grading/hidden/lab01_x.cpp" line="3">
      <OverallResultsAsserts successes="1" failures="0" test_case_success="true"/>
    </TestCase>
  </TestSuite>
  <OverallResultsAsserts successes="2" failures="3"/>
  <OverallResultsTestCases successes="2" failures="3" skipped="1"/>
</doctest>
"""

LISTING = """<?xml version="1.0" encoding="UTF-8"?>
<doctest binary="t" version="2.4.9">
  <Options order_by="file"/>
  <TestCase name="good" testsuite="" filename="/r/tests/labs/lab01_naive_test.cpp" line="5" skipped="false"/>
  <TestCase name="hidden: one" testsuite="hidden" filename="/r/grading/hidden/lab01_x.cpp" line="3" skipped="false"/>
  <OverallResultsTestCases unskipped="2"/>
</doctest>
"""


class DoctestXml(support.InTempDir):
    def setUp(self):
        super().setUp()

    def write(self, text: str) -> Path:
        path = self.dir / "r.xml"
        path.write_text(text)
        return path

    def test_complete_report(self):
        report = doctest_xml.read_report(self.write(REPORT))
        self.assertTrue(report.complete, report.problem)
        cases = report.by_name()
        self.assertEqual(set(cases), {"good", "bad message", "bad expr", "throws", "hidden: one"})
        self.assertTrue(cases["good"].passed)
        self.assertEqual(cases["good"].duration, 0.25)
        self.assertEqual(cases["hidden: one"].suite, "hidden")
        self.assertIn("first wrong output at index 3\n  hint: look here",
                      cases["bad message"].message)
        self.assertTrue(cases["bad message"].message.startswith("lab01_naive_test.cpp:38:"))
        self.assertIn("REQUIRE( x == 1 ) is NOT correct", cases["bad expr"].message)
        self.assertIn("values: REQUIRE( 2 == 1 )", cases["bad expr"].message)
        self.assertIn("context", cases["bad expr"].message)
        self.assertIn("uncaught exception: cudaErrorIllegalAddress", cases["throws"].message)

    def test_report_cut_short_is_incomplete(self):
        cut = REPORT[: REPORT.index("<TestSuite name=\"hidden\">")]
        self.assertFalse(doctest_xml.read_report(self.write(cut)).complete)
        # well-formed but without doctest's closing summary
        no_summary = REPORT.replace('  <OverallResultsTestCases successes="2" failures="3" skipped="1"/>\n', "")
        report = doctest_xml.read_report(self.write(no_summary))
        self.assertFalse(report.complete)
        self.assertIn("closing summary", report.problem)

    def test_missing_empty_and_foreign_files(self):
        self.assertFalse(doctest_xml.read_report(self.dir / "none.xml").complete)
        self.assertFalse(doctest_xml.read_report(self.write("")).complete)
        self.assertFalse(doctest_xml.read_report(self.write("<testsuites/>")).complete)
        self.assertFalse(doctest_xml.read_report(self.write("[doctest] Status: SUCCESS!")).complete)

    def test_listing(self):
        cases, problem = doctest_xml.read_listing(self.write(LISTING))
        self.assertEqual(problem, "")
        self.assertEqual([c.name for c in cases], ["good", "hidden: one"])
        self.assertEqual(cases[1].suite, "hidden")
        cases, problem = doctest_xml.read_listing(self.write(LISTING.replace(
            '  <OverallResultsTestCases unskipped="2"/>\n', "")))
        self.assertIsNone(cases)


if __name__ == "__main__":
    unittest.main()
