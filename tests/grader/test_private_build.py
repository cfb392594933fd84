"""The submission's build in a folder of its own (private_build.py, issue 32): the commands
taken from ninja, what is copied from the grader's build folder, and what never is. Uses the
shared build folder of the other grader tests (skipped until a grade has built lab 01 there)."""

import sys
import tempfile
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import support
from scanlab_grader import private_build


class PrivateBuild(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.build = support.shared_build_dir()
        cls.staging = cls.build / "_grader" / "labs"
        if not (cls.build / "build.ninja").exists() or not cls.staging.is_dir():
            raise unittest.SkipTest("no graded build folder yet (run test_planted first)")

    def test_plan_copies_only_what_the_link_needs(self):
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp) / "lab01"
            plan = private_build.plan(self.build, "lab01_worker_simt", folder, self.staging)
            copied = {str(path) for path in plan.copied}
            self.assertIn("bin/simt-rewrite", copied)
            self.assertTrue(any(path.endswith("libsimt_core.a") for path in copied))
            for path in copied:
                for never in ("CMakeCache", "_test_objects_", "_harness_", "_listing_", "hidden",
                              ".ninja"):
                    self.assertNotIn(never, path)
            # Nothing left of the grader's folder in what runs, and nothing else there.
            self.assertNotIn(str(self.build), plan.script())
            self.assertFalse((folder / "CMakeCache.txt").exists())
            self.assertTrue((folder / "_grader" / "labs" / "01_naive" / "naive_scan.cu").exists())
            # The lab library's rewrite, compile and archive, then the program's link.
            self.assertTrue(all("lab01_student_simt" in c for c in plan.commands[:-1]))
            self.assertIn("-o bin/lab01_worker_simt", plan.commands[-1])
            self.assertEqual(plan.artifact(self.build / "bin" / "lab01_worker_simt"),
                             folder / "bin" / "lab01_worker_simt")


if __name__ == "__main__":
    unittest.main()
