"""Speed grading's plumbing, on the emulator (--speed-backend simt: the times mean nothing, the
harness, the builds, the scoring and the results.json entry are what is tested), and the skip
on a machine without a GPU. Builds (shared build folder)."""

import sys as _sys
import tempfile
import unittest
from pathlib import Path as _Path

_sys.path.insert(0, str(_Path(__file__).resolve().parent))
import support  # noqa: E402
from scanlab_grader import speed  # noqa: E402


class Speed(unittest.TestCase):
    @unittest.skipUnless((support.REPO / "solutions" / "01_naive").is_dir(), "needs solutions/")
    def test_speed_entry_on_the_emulator(self):
        with tempfile.TemporaryDirectory() as tmp:
            sub = _Path(tmp) / "labs"
            support.assemble.assemble("correct", sub)
            out = _Path(tmp) / "out"
            proc = support.run_tool(
                "grade.py", str(sub), "--labs", "01", "--hidden", "no", "--seed", "9",
                "--rubric", str(support.FAST_RUBRIC), "--speed", "--speed-backend", "simt",
                "--build-dir", str(support.shared_build_dir()), "--out", str(out))
            self.assertEqual(proc.returncode, 0, proc.stdout[-3000:])
            data = support.load_results(self, out / "results.json")
        entries = [t for t in data["tests"] if "speed" in t["tags"]]
        self.assertEqual(len(entries), 1)
        entry = entries[0]
        self.assertEqual(entry["name"], "lab01 naive: speed")
        self.assertEqual(entry["max_score"], 2)
        self.assertIn("reference", entry["output"])
        self.assertGreater(entry["score"], 0)
        self.assertAlmostEqual(data["extra_data"]["max_score"], 12)

    def test_generated_harness_source(self):
        lab = next(l for l in __import__("scanlab_grader.tree", fromlist=["x"]).discover_labs(
            support.REPO) if l.number == "01")
        text = speed.generated_source(lab, "naive_scan.h", "lab01::f(d_in, d_out, n, kind)")
        self.assertIn('#include "naive_scan.h"', text)
        self.assertIn("lab01::f(d_in, d_out, n, kind);", text)
        self.assertIn("scanlab::speed::run_main", text)

    def test_no_gpu_means_skipped_with_a_message(self):
        if speed.gpu_present()[0]:
            self.skipTest("this machine has a GPU")
        with tempfile.TemporaryDirectory() as tmp:
            out = _Path(tmp) / "out"
            proc = support.run_tool("grade.py", str(support.REPO / "labs"), "--labs", "00",
                                    "--speed", "--out", str(out), "--quiet", "--hidden", "no",
                                    "--rubric", str(support.FAST_RUBRIC),
                                    "--build-dir", str(support.shared_build_dir()))
            self.assertEqual(proc.returncode, 0, proc.stderr)
            data = support.load_results(self, out / "results.json")
        self.assertIn("speed grading skipped: no GPU", data["output"])
        self.assertFalse([t for t in data["tests"] if "speed" in t["tags"]])


if __name__ == "__main__":
    unittest.main()
