"""The worker mechanism (tools/worker): its byte format and the emulator's side of shipping
device memory and errors (scanlab_worker_test, built in the shared build folder), and the
harness and worker programs of labs 00, 01 and 03-07 run by hand, without the grader: the
solution's worker passes every graded case (as many as the listing program lists), the stub's
fails them, a worker that ends before main() fails every case (hidden ones too) saying so, and
a harness with no worker says why.
The planted and attack submissions (test_planted.py, test_attacks.py) grade through them end to
end."""

import os
import re
import shutil
import subprocess
import sys
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import support
from support import FAST_RUBRIC, lab_score
from scanlab_grader import doctest_xml

# The labs graded through a worker whose harnesses these tests run.
LABS = ("00", "01", "03", "04", "05", "06", "07")


# The visible cases only: the grader compiles the hidden tests in whenever the tree has them
# (lab 01's hidden cases go through its worker end to end in test_attacks_sandboxes.py).
VISIBLE = ["--test-suite-exclude=hidden"]


class Worker(support.GradesInSharedBuild):
    tmp_prefix = "scanlab-worker-test-"

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        # Grading an empty submission configures the shared build with the grader's hooks (the
        # worker targets), builds the harnesses and listing programs, and builds each lab's
        # stub worker in its private folder (kept: --work-dir), the workers run below as the
        # stub's: not built a second time in the shared folder.
        empty = cls.root / "labs"
        empty.mkdir()
        cls.work = cls.root / "work"
        proc = support.run_tool("grade.py", str(empty), "--labs", ",".join(LABS), "--hidden", "no",
                                "--rubric", str(FAST_RUBRIC), "--build-dir", str(cls.build),
                                "--work-dir", str(cls.work), "--out", str(cls.root / "out"),
                                "--quiet")
        if proc.returncode != 0:
            raise AssertionError(proc.stdout[-3000:] + proc.stderr[-3000:])
        cls.graded_stubs = support.load_results(unittest.TestCase(), cls.root / "out" /
                                                "results.json")
        targets = ["scanlab_worker_test"]
        for number in LABS:
            targets += [f"lab{number}_{kind}_simt"
                        for kind in ("harness", "worker_solution", "listing")]
        proc = subprocess.run(["cmake", "--build", str(cls.build), "--target", *targets],
                              capture_output=True, text=True, timeout=1800)
        if proc.returncode != 0:
            raise AssertionError(proc.stdout[-3000:] + proc.stderr[-3000:])

    def program(self, name: str) -> Path:
        if re.fullmatch(r"lab\d\d_worker_simt", name):  # the stub's, from its private build
            return self.work / "runs" / f"{name}-build" / "bin" / name
        return self.build / "bin" / name

    def harness(self, number: str, worker: str | Path | None, *args: str, visible=True):
        """Runs lab `number`'s harness with `worker` (a program of the build, or a path)."""
        env = {k: v for k, v in os.environ.items() if not k.startswith("SCANLAB_WORKER")}
        if worker is not None:
            env["SCANLAB_WORKER_ARGV"] = str(worker if isinstance(worker, Path)
                                             else self.program(worker))
            env["SCANLAB_WORKER_CALL_TIMEOUT_S"] = "30"
        return subprocess.run([str(self.program(f"lab{number}_harness_simt")),
                               *(VISIBLE if visible else []), *args],
                              capture_output=True, text=True, timeout=300, env=env)

    @staticmethod
    def counts(output: str) -> tuple[int, int]:
        match = re.search(r"test cases:\s*(\d+) \|\s*(\d+) passed \|\s*(\d+) failed", output)
        assert match, output[-2000:]
        return int(match[2]), int(match[3])

    def test_parts(self):
        proc = subprocess.run([str(self.program("scanlab_worker_test"))], capture_output=True,
                              text=True, timeout=300)
        self.assertEqual(proc.returncode, 0, proc.stdout[-3000:] + proc.stderr[-3000:])

    def listed_cases(self, number: str, visible=True) -> int:
        """How many graded cases the lab's listing program (the one-program path's list) has."""
        proc = subprocess.run([str(self.program(f"lab{number}_listing_simt")),
                               *(VISIBLE if visible else []), "--count"],
                              capture_output=True, text=True, timeout=120)
        match = re.search(r"test cases passing the current filters: (\d+)", proc.stdout)
        assert match, proc.stdout[-2000:] + proc.stderr[-2000:]
        return int(match[1])

    def test_solution_passes_and_stub_fails_through_the_worker(self):
        for number in LABS:
            listed = self.listed_cases(number)
            self.assertGreater(listed, 40)
            solution = self.harness(number, f"lab{number}_worker_solution_simt").stdout
            self.assertEqual(self.counts(solution), (listed, 0))
            if number == "03":  # the traces recorded in the worker came back with conflicts
                self.assertRegex(solution, r"unpadded scan [1-9]\d* bank conflicts, padded 0")
            stub = self.harness(number, f"lab{number}_worker_simt").stdout
            self.assertEqual(self.counts(stub), (0, listed))
            if number == "01":  # its argument checks fail on the missing scan, not the proxies
                self.assertIn("poison: never written", stub)

    def test_the_grader_scores_every_stub_0(self):
        """The grade of the untouched stubs that set the class up: no point in any lab."""
        for number in LABS:
            with self.subTest(lab=number):
                score, max_score = lab_score(self.graded_stubs, number)
                self.assertEqual(score, 0.0)
                self.assertGreater(max_score, 0.0)
                self.assertEqual(self.graded_stubs["extra_data"]["labs"][number]["status"],
                                 "graded")

    def test_a_worker_that_ends_before_main_fails_every_case(self):
        """What a static constructor that ends the lab's process leaves the harness (the attack
        forge_early: a forged report, then _exit(0)), in every lab graded through a worker:
        the worker exits with code 0 before main() (/bin/true stands in for it), and every
        case, the hidden ones too, fails saying so. The guard is the harness's one worker
        client (harness_client.cpp), but whether a case can pass when every call throws is
        each lab's tests' own (a CHECK_THROWS that any exception satisfies would): so every
        lab is run here, and test_attacks.py grades forge_early itself end to end."""
        for number in LABS:
            with self.subTest(lab=number):
                report = self.root / f"lab{number}-ended-worker.xml"
                proc = self.harness(number, Path(shutil.which("true")), "--reporters=xml",
                                    f"--out={report}", visible=False)
                result = doctest_xml.read_report(report)
                self.assertTrue(result.complete, result.problem)
                self.assertEqual(proc.returncode, 1, proc.stderr[-2000:])  # as the grader wants
                self.assertEqual(len(result.cases), self.listed_cases(number, visible=False))
                self.assertGreater(len(result.cases), 40)
                for case in result.cases:
                    self.assertFalse(case.passed, case.name)
                    self.assertIn("exited with code 0 before main()", case.message, case.name)

    def test_without_a_worker_every_call_says_why(self):
        proc = self.harness("01", None, "--test-case=argument checks")
        self.assertEqual(proc.returncode, 1)
        self.assertIn("SCANLAB_WORKER_ARGV", proc.stdout)

    def test_a_worker_that_cannot_start_fails_the_calls(self):
        env_argv = "/nonexistent/worker"
        env = {k: v for k, v in os.environ.items() if not k.startswith("SCANLAB_WORKER")}
        env["SCANLAB_WORKER_ARGV"] = env_argv
        proc = subprocess.run([str(self.program("lab01_harness_simt")),
                               "--test-case=inclusive sum int32,argument checks"],
                              capture_output=True, text=True, timeout=120, env=env)
        self.assertEqual(self.counts(proc.stdout), (0, 2))
        self.assertIn("exited with code 127 before main()", proc.stdout)


if __name__ == "__main__":
    unittest.main()
