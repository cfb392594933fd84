"""End-to-end grading of planted submissions (tests/grader/submissions/, assembled from their
recipes by assemble.py): each one is lab 00's reference solution plus a lab 01 with one planted
problem. The planted problem may cost lab 01
points, never lab 00's, and results.json must be valid and right every time.

These tests build (the first run builds the emulator: a few minutes on two cores; later runs
reuse build-grader-tests/ and only recompile lab 01)."""

import os
import shutil
import tempfile
import time
import unittest
from pathlib import Path

import sys as _sys
from pathlib import Path as _Path

_sys.path.insert(0, str(_Path(__file__).resolve().parent))
import support
from support import FAST_RUBRIC, LAB00_SOLUTION, failed_names, lab_score, lab_tests


class PlantedBase(support.GradesInSharedBuild):
    """Grades lab 00's solution plus a planted lab 01 in a shared build folder."""

    def grade(self, planted: str | list[str], *extra: str, lab01: bool = True,
              name: str | None = None, substitute: dict[str, str] | None = None,
              rubric: Path = FAST_RUBRIC, hidden: str = "no"):
        """`substitute`: placeholders in the planted .cu (@REPO@, ...) and their values. Grades
        lab 00 and the planted submission's lab (its recipe's `lab`; 01 without a planted one).
        Several recipes of different labs (a list) are graded together, in one submission."""
        recipes = [planted] if isinstance(planted, str) else planted
        name = name or "+".join(recipes)
        sub = self.root / name / "labs"
        shutil.copytree(LAB00_SOLUTION, sub / "00_sequential")
        if lab01:
            for recipe in recipes:
                support.assemble.assemble(recipe, sub, substitute)
        out = self.root / name / "out"
        start = time.monotonic()
        labs = ",".join(["00"] + ([support.assemble.lab_of(r) for r in recipes] if lab01
                                  else ["01"]))
        proc = support.run_tool(
            "grade.py", str(sub), "--labs", labs, "--hidden", hidden, "--seed", "7",
            "--rubric", str(rubric), "--build-dir", str(self.build),
            "--work-dir", str(self.root / name / "work"), "--out", str(out), *extra)
        elapsed = time.monotonic() - start
        self.assertEqual(proc.returncode, 0, proc.stdout[-3000:] + proc.stderr[-3000:])
        data = support.load_results(self, out / "results.json")
        # Lab 00 is the reference solution in every planted submission: never touched.
        score, max_score = lab_score(data, "00")
        self.assertAlmostEqual(score, 5.0, places=6, msg="lab 00 lost points")
        self.assertAlmostEqual(max_score, 5.0, places=6)
        self.assertFalse(failed_names(data, "00"))
        return data, proc, out, elapsed

    def expect_lab01_failures(self, data, names: set[str], needle: str):
        self.assertEqual(failed_names(data, "01"), names)
        for test in lab_tests(data, "01"):
            if test["status"] == "failed":
                self.assertIn(needle, test["output"])
                self.assertEqual(test["score"], 0)
        score, max_score = lab_score(data, "01")
        self.assertAlmostEqual(max_score, 10.0, places=6)
        per_case = 10.0 / (len(lab_tests(data, "01")) + 1)  # "argument checks" weighs 2
        self.assertAlmostEqual(score, 10.0 - len(names) * per_case, places=3)
        self.assertAlmostEqual(data["score"], 5.0 + score, places=3)


class Planted(PlantedBase):
    def test_correct(self):
        data, proc, _, _ = self.grade("correct")
        score, max_score = lab_score(data, "01")
        self.assertAlmostEqual(score, 10.0, places=6)
        self.assertAlmostEqual(max_score, 10.0, places=6)
        self.assertAlmostEqual(data["score"], 15.0, places=6)
        self.assertIn("TOTAL 15.00 / 15.00", proc.stdout)
        self.assertIn("lab01 naive: building", proc.stdout)  # progress lines

    def test_crash(self):
        data, _, _, _ = self.grade("crash")
        self.expect_lab01_failures(
            data, {"inclusive product float", "exclusive product float"}, "SIGSEGV")
        # Lab 01's code runs in a worker process (tools/worker): the crash fails its call, the
        # next call gets a fresh worker, and the run of all cases together needs no reruns.
        self.assertFalse(data["extra_data"]["labs"]["01"]["isolated"])

    def test_hang(self):
        data, _, _, elapsed = self.grade("hang")
        self.expect_lab01_failures(
            data, {"inclusive max double", "exclusive max double", "inclusive min float",
                   "exclusive min float"}, "timed out")
        # whole run 20 s + four cases at 4 s + the rest; far below an unbounded hang
        self.assertLess(elapsed, 150)

    def test_exit0(self):
        data, _, _, _ = self.grade("exit0")
        self.expect_lab01_failures(
            data, {"inclusive sum int64", "exclusive sum int64"}, "exited with code 0")
        self.assertFalse(data["extra_data"]["labs"]["01"]["isolated"])

    def test_fake_output(self):
        data, proc, out, _ = self.grade("fake_output")
        score, max_score = lab_score(data, "01")
        self.assertEqual(score, 0.0)
        self.assertAlmostEqual(max_score, 10.0, places=6)
        self.assertEqual(len(failed_names(data, "01")), len(lab_tests(data, "01")))
        self.assertAlmostEqual(data["score"], 5.0)
        self.assertNotIn("1000", (out / "results.json").read_text())
        self.assertEqual(sorted(p.name for p in out.iterdir()),
                         ["junit.xml", "logs", "results.json", "table.txt"])
        self.assertFalse((self.root / "fake_output" / "results.json").exists())

    @unittest.skipUnless(os.geteuid() == 0, "--run-as needs root")
    def test_fake_output_as_an_unprivileged_user(self):
        """As on Gradescope (run_autograder --run-as scanlab-student): same grades, and the
        program cannot write anywhere but its own scratch folders."""
        try:
            import pwd
            pwd.getpwnam("nobody")
        except KeyError:
            self.skipTest("no user 'nobody'")
        data, _, out, _ = self.grade("fake_output", "--run-as", "nobody", name="as_nobody")
        score, _ = lab_score(data, "01")
        self.assertEqual(score, 0.0)
        self.assertAlmostEqual(data["score"], 5.0, places=6)

    def test_compile_error(self):
        data, proc, _, _ = self.grade("compile_error")
        tests = lab_tests(data, "01")
        self.assertEqual(len(tests), 1)
        self.assertEqual(tests[0]["status"], "failed")
        self.assertEqual((tests[0]["score"], tests[0]["max_score"]), (0, 10.0))
        self.assertIn("naive_scan.cu", tests[0]["output"])
        self.assertIn("error", tests[0]["output"])
        self.assertEqual(data["extra_data"]["labs"]["01"]["status"], "build failed")
        self.assertAlmostEqual(data["score"], 5.0)
        self.assertIn("BUILD FAILED", proc.stdout)

    def test_lab_not_submitted_is_graded_as_the_stub(self):
        data, _, _, _ = self.grade("missing", lab01=False)
        score, max_score = lab_score(data, "01")
        self.assertEqual(score, 0.0)
        self.assertAlmostEqual(max_score, 10.0, places=6)
        self.assertIn("no files submitted", (self.root / "missing" / "out" / "table.txt").read_text())


class AlwaysResults(unittest.TestCase):
    """results.json exists and is valid even when there is nothing to grade."""

    def test_missing_submission(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / "out"
            proc = support.run_tool("grade.py", str(Path(tmp) / "nowhere"), "--out", str(out),
                                    "--labs", "00,01", "--rubric", str(FAST_RUBRIC))
            # A usage error, as a bad rubric is (exit 2), and still a results.json that says it.
            self.assertEqual(proc.returncode, 2)
            self.assertIn("no such submission", proc.stderr)
            data = support.load_results(self, out / "results.json")
            self.assertEqual(data["score"], 0)
            self.assertIn("nowhere", data["output"])

    def test_bad_rubric(self):
        with tempfile.TemporaryDirectory() as tmp:
            rubric = Path(tmp) / "r.toml"
            rubric.write_text("[labs.01]\npoints = 'ten'\n")
            proc = support.run_tool("grade.py", tmp, "--out", str(Path(tmp) / "out"),
                                    "--rubric", str(rubric))
            self.assertEqual(proc.returncode, 2)
            self.assertIn("labs.01.points", proc.stderr)
            support.load_results(self, Path(tmp) / "out" / "results.json")


if __name__ == "__main__":
    unittest.main()
