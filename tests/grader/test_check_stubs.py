"""check_stubs.py on labs 00-01 (hidden tests included): all checks pass on this tree, and a test
that cannot fail, or one that fails on the solution, is caught. Builds (shared build folder)."""

import re
import sys as _sys
import tempfile
import unittest
from pathlib import Path as _Path

_sys.path.insert(0, str(_Path(__file__).resolve().parent))
import support  # noqa: E402

CLOSING = re.compile(r"^(\d+) passed, (\d+) failed$")


def closing_line(stdout: str) -> tuple[int, int]:
    last = stdout.strip().splitlines()[-1]
    match = CLOSING.match(last)
    assert match, f"last line is not 'N passed, M failed': {last!r}"
    return int(match.group(1)), int(match.group(2))


@unittest.skipUnless((support.REPO / "solutions" / "01_naive").is_dir(), "needs solutions/")
class CheckStubs(unittest.TestCase):
    def test_labs_00_01_with_hidden_tests(self):
        proc = support.run_tool("check_stubs.py", "--labs", "00,01", "--seed", "3",
                                "--build-dir", str(support.shared_build_dir()))
        passed, failed = closing_line(proc.stdout)
        self.assertEqual((failed, proc.returncode), (0, 0), proc.stdout[-4000:])
        # lab 00: 48 cases, lab 01: 47 + 4 hidden; each twice, plus builds, runs, listings
        self.assertGreaterEqual(passed, 2 * (48 + 51))
        self.assertIn("lab01 stub: 0/51 test cases pass (want 0)", proc.stdout)
        self.assertIn("lab01 solution: 51/51 test cases pass (want all)", proc.stdout)

    def test_a_test_that_cannot_fail_and_one_that_cannot_pass_are_caught(self):
        with tempfile.TemporaryDirectory() as tmp:
            (_Path(tmp) / "lab01_bad_hidden_test.cpp").write_text(
                '#include <doctest/doctest.h>\n'
                'TEST_SUITE("hidden") {\n'
                'TEST_CASE("hidden: always passes") { CHECK(1 + 1 == 2); }\n'
                'TEST_CASE("hidden: never passes") { CHECK(1 + 1 == 3); }\n'
                '}\n')
            proc = support.run_tool("check_stubs.py", "--labs", "01", "--seed", "3",
                                    "--hidden-dir", tmp,
                                    "--build-dir", str(support.shared_build_dir()))
        passed, failed = closing_line(proc.stdout)
        self.assertEqual(failed, 2, proc.stdout[-4000:])
        self.assertEqual(proc.returncode, 1)
        self.assertIn("'[hidden] hidden: always passes' PASSES on the untouched stub", proc.stdout)
        self.assertIn("'[hidden] hidden: never passes' FAILS on the solution", proc.stdout)
        self.assertGreater(passed, 90)


if __name__ == "__main__":
    unittest.main()
