#!/usr/bin/env python3
"""Tests of the catalog runner's choice of operators (tests/mistakes/run_mistakes.py): what a
mistake is compiled for decides whether its run is the one every operator would give, so the
rules it relies on are checked here without a build (ctest mistakes.runner)."""

import re
import sys
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import run_mistakes  # noqa: E402

LAB_TESTS = run_mistakes.ROOT / "tests" / "labs"


class OperatorsNamed(unittest.TestCase):
    def setUp(self):
        self.operators = list(run_mistakes.graded_operators())
        self.families = {}
        for op, (family, _) in run_mistakes.graded_operators().items():
            self.families.setdefault(family, []).append(op)

    def test_a_type_named_is_that_operator_alone(self):
        for op, (family, element) in run_mistakes.graded_operators().items():
            case = f"inclusive {family} {element}"
            self.assertEqual(run_mistakes.operators_named([case]), [op])
            # Only a case made per family is cut to the first type; this one names its type.
            self.assertEqual(run_mistakes.operators_named([case], {case}), [op])

    def test_a_family_named_is_its_types_or_its_first_type_for_a_family_case(self):
        for family, members in self.families.items():
            case = f"warp scan shuffle: exclusive {family}"
            self.assertEqual(run_mistakes.operators_named([case]), members)
            self.assertEqual(run_mistakes.operators_named([case], {case}), members[:1])

    def test_every_family_cut_to_its_first_types(self):
        cases = [f"warp scan shared_memory: {kind} {family}"
                 for family in self.families for kind in ("inclusive", "exclusive")]
        self.assertIsNone(run_mistakes.operators_named(cases))  # every operator
        self.assertEqual(run_mistakes.operators_named(cases, set(cases)),
                         [members[0] for members in self.families.values()])
        # A case that passed on its first type is compiled with its whole family again.
        passed = cases[0]
        family = passed.rsplit(" ", 1)[1]
        wanted = run_mistakes.operators_named(cases, set(cases) - {passed})
        self.assertEqual(set(wanted), {members[0] for members in self.families.values()} |
                         set(self.families[family]))

    def test_a_case_naming_no_operator_may_use_any(self):
        self.assertIsNone(run_mistakes.operators_named(["argument checks"], {"argument checks"}))


class FamilyCases(unittest.TestCase):
    def test_every_case_made_per_family_stops_at_its_first_failing_type(self):
        """The runner compiles a family case for its first type only because the case walks
        the types with for_each_type_of, which stops at the first that fails: a family case
        written otherwise would run types compiled from the solution instead of the mistake."""
        found = 0
        for test in sorted(LAB_TESTS.glob("lab*_*.cpp")):
            text = test.read_text()
            starts = [m.start() for m in re.finditer(r"SCANLAB_CASE_PER_FAMILY_AND_KIND\(", text)]
            prefixes = run_mistakes.FAMILY_CASES.findall(text)
            self.assertEqual(len(starts), len(prefixes),
                             f"{test.name}: a family case's prefix is not a string literal")
            for start in starts:
                body = re.split(r"\n(?=SCANLAB_CASE_PER|TEST_CASE|// ----)", text[start:])[0]
                found += 1
                with self.subTest(file=test.name, at=text[start:start + 80]):
                    self.assertIn("for_each_type_of<Family>", body)
            lab = test.name[3:5]
            for prefix in prefixes:
                self.assertIn(prefix, run_mistakes.family_case_prefixes(lab))
        self.assertGreater(found, 0)


class FailedCases(unittest.TestCase):
    def test_failed_cases_are_read_from_doctest_output(self):
        output = ("=" * 79 + "\n../tests/labs/lab05_warp_synchronous_test.cpp:230:\n"
                  "TEST CASE:  warp scan shuffle: inclusive sum\n\nsome check failed\n"
                  "TEST CASE:  block scan tiles: exclusive max\n"
                  "[doctest] test cases: 3 | 1 passed | 2 failed | 77 skipped\n")
        self.assertEqual(run_mistakes.failed_cases(output),
                         {"warp scan shuffle: inclusive sum", "block scan tiles: exclusive max"})
        self.assertEqual(run_mistakes.failed_cases("[doctest] test cases: 1 | 1 passed"), set())


if __name__ == "__main__":
    unittest.main()
