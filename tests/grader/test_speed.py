"""Speed grading's plumbing, on the emulator (--speed-backend simt: the times mean nothing, the
harness, the builds, the scoring and the results.json entry are what is tested), the harness's
own checks, the plan's choice of labs (a lab is timed through its descriptor), and the skip on
a machine without a GPU. Builds (shared build folder)."""

import json
import random
import subprocess
import sys as _sys
import tempfile
import unittest
from pathlib import Path as _Path
from types import SimpleNamespace

_sys.path.insert(0, str(_Path(__file__).resolve().parent))
import support  # noqa: E402
from scanlab_grader import model, rubric, speed, tree  # noqa: E402


def _lab(number: str) -> tree.Lab:
    return next(lab for lab in tree.discover_labs(support.REPO) if lab.number == number)


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
        # What lab01.cpp's descriptor calls, at the rubric's size and kind.
        self.assertIn("lab01 naive_scan, n = 1024, exclusive int32 sum", entry["output"])
        self.assertGreater(entry["score"], 0)
        self.assertAlmostEqual(data["extra_data"]["max_score"], 12)
        self._harness_checks_its_arguments_and_results()

    def _harness_checks_its_arguments_and_results(self):
        """The reference's harness the grade above built: a random size and kind are timed
        and checked, and what it cannot time is an error with the reason (exit status 4)."""
        exe = support.shared_build_dir() / "bin" / "lab01_speed_solution_simt"
        rng = random.Random()
        n = rng.randint(1, 1024)
        kind = rng.choice(["inclusive", "exclusive"])
        cases = [([f"--n={n}", f"--kind={kind}"], 0, None),
                 (["--variant=nope"], 4, "lab 01 has no int32 variant 'nope'"),
                 (["--n=1025"], 4, "n = 1025 is more than one call of lab 01 takes (1024)")]
        with tempfile.TemporaryDirectory() as tmp:
            for args, status, error in cases:
                out = _Path(tmp) / "speed.json"
                proc = subprocess.run([str(exe), f"--out={out}", "--batches=2", "--per-batch=1",
                                       "--warmup=0", f"--seed={rng.randrange(2**32)}", *args],
                                      capture_output=True, text=True, timeout=300)
                self.assertEqual(proc.returncode, status, (args, proc.stderr))
                data = json.loads(out.read_text())
                if error is None:
                    self.assertTrue(data["correct"])
                    self.assertEqual((data["lab"], data["n"], data["kind"]), ("01", n, kind))
                    self.assertGreater(data["median_ms"], 0)
                else:
                    self.assertFalse(data["correct"])
                    self.assertIn(error, data["error"])

    def test_plan_times_the_labs_with_a_descriptor(self):
        with tempfile.TemporaryDirectory() as tmp:
            repo = _Path(tmp)
            (repo / "solutions").mkdir()
            (repo / "tools" / "lab_descriptors").mkdir(parents=True)
            (repo / "tools" / "lab_descriptors" / "lab01.cpp").write_text("// lab 01\n")
            rules = rubric.parse({"labs": {"01": {"speed": {"points": 2}},
                                           "02": {"speed": {"points": 0}},
                                           "04": {"speed": {"points": 3}}}})
            opts = SimpleNamespace(speed=True, speed_backend="simt", repo=repo, rubric=rules)
            grade = model.Grade(submission="x", seed=1, backend="simt", hidden=False)
            said = []
            chosen = speed.plan(opts, [_lab("01"), _lab("02"), _lab("04")], grade, said.append)
        self.assertEqual([lab.number for lab in chosen.labs], ["01"])
        self.assertIn("lab 04 has speed points but no descriptor", grade.speed)
        self.assertIn("lab04.cpp", grade.speed)

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
