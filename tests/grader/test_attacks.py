"""The attack catalog (issue 18): submissions written to cheat, each graded end to end with the
score it must get. Like test_planted.py, each one is lab 00's reference solution plus a planted
lab 01 assembled from tests/grader/submissions/. The stub's score for lab 01 is 0 of 10.

The sandbox is what stops the leaks: these tests require it (bubblewrap namespaces) and fail,
saying so, on a machine where the grader would run without it."""

import errno
import hashlib
import os
import random
import sys
import tempfile
import time
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import support
from support import REPO, lab_score, lab_tests
from test_planted import PlantedBase

HIDDEN_TEST = REPO / "grading" / "hidden" / "lab01_naive_hidden_test.cpp"
SOLUTION_02 = REPO / "solutions" / "02_work_efficient" / "work_efficient_scan.cu"


def distinctive_lines(path: Path) -> list[str]:
    """Lines of a file long enough that finding one in an output means the file leaked."""
    return [line.strip() for line in path.read_text().splitlines() if len(line.strip()) > 30]


def slow_to_compile(namespace: str) -> str:
    """C++ that takes a compiler minutes: a hundred constant expressions, each under GCC's step
    limit for one evaluation (-fconstexpr-ops-limit, 2^25), so that none fails the build early
    (one long loop would, after about 3 s)."""
    sums = " ".join(f"static_assert(slow_sum({k}) != -{random.randint(1, 9)});"
                    for k in range(100))
    return (f"namespace {namespace} {{ constexpr long slow_sum(long k) {{ long s = 0; "
            "for (long i = 0; i < 1000; ++i) for (long j = 0; j < 1000; ++j) s += (i ^ j) + k; "
            f"return s; }} {sums} }}\n")


class Attacks(PlantedBase):
    def assert_sandboxed(self, data):
        self.assertEqual(data["extra_data"]["sandbox"], "namespaces",
                         "these attacks are stopped by the sandbox, which this machine does not "
                         "allow (see the output's SANDBOX MISSING line)")

    def assert_stub_score(self, data):
        score, max_score = lab_score(data, "01")
        self.assertEqual(score, 0.0)
        self.assertAlmostEqual(max_score, 10.0, places=6)
        self.assertAlmostEqual(data["score"], 5.0, places=6)

    def test_forged_report_at_exit(self):
        """An atexit handler writes a complete passing report over the --out= target and calls
        _exit(0): it runs in the worker process (tools/worker), which has no --out= and no
        report pipe; the harness's report is the stub's."""
        data, _, _, _ = self.grade("forge_atexit")
        self.assert_stub_score(data)
        self.assertFalse(data["extra_data"]["labs"]["01"]["isolated"])

    def test_forged_report_before_main(self):
        """A static constructor writes a passing report to the --out= target and ends the
        program before main(): it runs in the worker, which never reaches main(), so every
        call fails and says why."""
        data, _, _, _ = self.grade("forge_early")
        self.assert_stub_score(data)
        for test in lab_tests(data, "01"):
            self.assertIn("before main()", test["output"])

    def test_forged_report_before_main_in_lab_07(self):
        """forge_early in lab 07, graded with lab 00 in one submission: a lab whose graded
        functions are templates over a tile shape that take a Workspace with host state kept
        across calls (tools/worker/halved_workspace.h), the most the worker carries. The
        grader's path is lab 01's (above); what the harness of every lab does when the worker
        ends before main() is test_worker.py's (each lab's harness, every case, hidden ones
        included), so forge_early is graded end to end in these two labs only."""
        data, _, _, _ = self.grade("forge_early_lab07")
        self.assertAlmostEqual(data["score"], 5.0, places=6)  # lab 00's solution only
        score, max_score = lab_score(data, "07")
        self.assertEqual(score, 0.0)
        self.assertAlmostEqual(max_score, 10.0, places=6)
        tests = lab_tests(data, "07")
        self.assertGreater(len(tests), 50)
        for test in tests:
            self.assertEqual(test["status"], "failed")
            self.assertIn("before main()", test["output"])

    def test_worker_cannot_reach_the_graded_tests(self):
        """Lab 01's code runs in a sandboxed worker (tools/worker): it has only its standard
        streams and its two pipes open, and cannot see the harness to write into its report."""
        data, _, out, _ = self.grade("reach_harness")
        self.assert_sandboxed(data)
        score, _ = lab_score(data, "01")
        self.assertAlmostEqual(score, 10.0, places=6)
        self.assertFalse(data["extra_data"]["labs"]["01"]["isolated"])
        log = (out / "logs" / "lab01-run.log").read_text(errors="replace")
        self.assertIn("REACH: open fds: 0 1 2 3 4\n", log)
        self.assertNotIn("harness visible", log)
        self.assertNotIn("wrote into", log)

    def test_dilution_with_line_directives(self):
        """800 empty TEST_CASEs that claim, with #line, to be in the graded test file: the
        graded test cases come from the listing program, built from the pristine stub."""
        data, _, out, _ = self.grade("dilution")
        self.assert_stub_score(data)
        self.assertEqual(data["extra_data"]["labs"]["01"]["status"], "graded")
        self.assertFalse([t for t in lab_tests(data, "01") if "filler" in t["name"]])
        # The fillers are in the worker (tools/worker), which links them and never runs them:
        # the graded cases are the listing program's, and the harness's report holds only those.
        self.assertNotIn("test case(s) that are not graded ones", (out / "table.txt").read_text())

    @unittest.skipUnless(HIDDEN_TEST.exists() and SOLUTION_02.exists(), "an instructor's tree")
    def test_files_are_out_of_reach_of_the_test_program(self):
        """A static constructor prints a hidden test and another lab's solution and appends to
        the graded tests and the rubric: it finds none of them, and changes nothing."""
        guarded = [REPO / "tests" / "labs" / "lab01_naive_test.cpp",
                   REPO / "grading" / "rubric.toml"]
        before = {path: path.read_bytes() for path in guarded}
        try:
            data, _, out, _ = self.grade("leak_files", substitute={"@REPO@": str(REPO)},
                                         hidden="yes")
        finally:
            after = {path: path.read_bytes() for path in guarded}
            for path, content in before.items():
                path.write_bytes(content)
        self.assert_sandboxed(data)
        for path in guarded:
            self.assertEqual(hashlib.sha256(before[path]).hexdigest(),
                             hashlib.sha256(after[path]).hexdigest(), f"{path} was changed")
        text = (out / "results.json").read_text() + (out / "table.txt").read_text() + \
            "".join(log.read_text(errors="replace") for log in (out / "logs").glob("*"))
        # The attack ran (in the worker, whose output goes to the run's log).
        self.assertIn("LEAK-ATTEMPT: cannot open", text)
        for line in distinctive_lines(HIDDEN_TEST) + distinctive_lines(SOLUTION_02):
            self.assertNotIn(line, text)
        score, _ = lab_score(data, "01")
        self.assertEqual(score, 0.0)

    @unittest.skipUnless(HIDDEN_TEST.exists(), "an instructor's tree")
    def test_includes_show_no_secret_file(self):
        """#include of /etc/passwd and, where __has_include finds it, of a hidden test: no
        compiler message about a file outside the lab is shown, and the hidden test is not there
        for the submission's compile (its build runs in a folder of its own)."""
        data, _, out, _ = self.grade("compile_leak", substitute={"@REPO@": str(REPO)},
                                     hidden="yes")
        self.assert_sandboxed(data)
        self.assertEqual(data["extra_data"]["labs"]["01"]["status"], "build failed")
        self.assert_stub_score(data)
        text = (out / "results.json").read_text()
        self.assertIn("not shown", text)
        self.assertNotIn("root:x:0", text)
        self.assertNotIn("/bin/bash", text)
        for line in distinctive_lines(HIDDEN_TEST):
            self.assertNotIn(line, text)

    def test_daemon_dies_with_the_test_program(self):
        """fork + setsid + fork: the daemon would overwrite results.json 4 s later."""
        out_dir = self.root / "daemon" / "out"
        data, _, out, _ = self.grade("daemon", substitute={"@OUT@": str(out_dir)})
        self.assertEqual(out, out_dir)
        score, _ = lab_score(data, "01")
        self.assertAlmostEqual(score, 10.0, places=6)
        time.sleep(6)
        self.assertFalse((out / "daemon-was-here").exists(), "the daemon outlived the grade")
        again = support.load_results(self, out / "results.json")
        self.assertAlmostEqual(again["score"], 15.0, places=6)

    def test_blocked_compiler_is_killed(self):
        """#include of a named pipe that no one writes: without a sandbox (which would not show
        the pipe at all) the compiler blocks; the build's time limit kills it and every other
        process of the build."""
        rubric = self.root / "rubric_short_build.toml"
        rubric.write_text(support.FAST_RUBRIC.read_text().replace(
            "build_timeout_s = 900", "build_timeout_s = 20"))
        fifo = Path(tempfile.mkdtemp(prefix="scanlab-fifo-")) / "blocks.h"
        os.mkfifo(fifo)
        try:
            data, _, _, elapsed = self.grade("fifo_include", "--sandbox", "none",
                                             substitute={"@FIFO@": str(fifo)}, rubric=rubric)
            self.assertEqual(data["extra_data"]["labs"]["01"]["status"], "build failed")
            self.assertIn("longer than 20 s", lab_tests(data, "01")[0]["output"])
            self.assert_stub_score(data)
            # No process has the pipe open for reading any more: opening it to write fails.
            with self.assertRaises(OSError) as caught:
                os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
            self.assertEqual(caught.exception.errno, errno.ENXIO)
            # With the sandbox the pipe is not there at all: a quick, ordinary build failure.
            data, _, _, elapsed = self.grade("fifo_include", substitute={"@FIFO@": str(fifo)},
                                             rubric=rubric, name="fifo_sandboxed")
            self.assert_sandboxed(data)
            self.assertIn("blocks.h", lab_tests(data, "01")[0]["output"])
            self.assertNotIn("longer than", lab_tests(data, "01")[0]["output"])
        finally:
            fifo.unlink()
            fifo.parent.rmdir()

    def test_exit0_in_a_static_constructor_is_explained(self):
        data, _, _, _ = self.grade("exit0_static")
        self.assert_stub_score(data)
        for test in lab_tests(data, "01"):
            self.assertIn("static constructor", test["output"])

    def test_compilers_have_a_memory_limit(self):
        """A correct lab whose compiler gets less address space than it needs: the build fails
        (a template bomb meets the same limit), and only that lab's points are lost."""
        rubric = self.root / "rubric_small_compilers.toml"
        # Enough for cmake and ninja, not for cc1plus: compiling lab 01's file (at -g1, the lab
        # kernels' debug level) takes 145-150 MiB of address space on x86-64 (ulimit -v, 2026-11-28).
        limit = random.randint(110, 135)
        rubric.write_text(support.FAST_RUBRIC.read_text().replace(
            "[labs.01]", f"[labs.01]\nbuild_memory_limit_mb = {limit}"))
        # A comment of its own makes the build compile the file again.
        data, _, _, _ = self.grade("correct", rubric=rubric, name="small_compilers", substitute={
            "namespace lab01 {": f"namespace lab01 {{ // {random.random()}"})
        self.assertEqual(data["extra_data"]["labs"]["01"]["status"], "build failed")
        self.assertIn(f"ran out of its memory limit ({limit} MiB",
                      lab_tests(data, "01")[0]["output"])
        self.assert_stub_score(data)

    def test_time_budget_of_the_whole_submission(self):
        """Once the submission's time budget is used up, nothing more is built or run: every
        lab left is 'not graded' (1 s, the least a rubric accepts, ends while lab 00 builds or
        before: its source is made slow to compile, so that a warm build folder cannot finish
        it in time; lab 01 is never reached)."""
        budget = 1.0
        rubric = self.root / "rubric_budget.toml"
        rubric.write_text(support.FAST_RUBRIC.read_text().replace(
            "[defaults]", f"[defaults]\ntime_budget_s = {budget}"))
        out = self.root / "budget" / "out"
        sub = support.assemble.assemble("hang", self.root / "budget" / "labs")
        lab00 = sub / "00_sequential"
        lab00.mkdir(exist_ok=True)
        (lab00 / "sequential_scan.cu").write_text(slow_to_compile("lab00") + (
            REPO / "solutions" / "00_sequential" / "sequential_scan.cu").read_text())
        proc = support.run_tool(
            "grade.py", str(sub), "--labs", "00,01", "--hidden", "no",
            "--rubric", str(rubric), "--build-dir", str(self.build), "--out", str(out))
        self.assertEqual(proc.returncode, 0, proc.stdout[-2000:] + proc.stderr[-2000:])
        data = support.load_results(self, out / "results.json")
        self.assertEqual(data["score"], 0)
        for number in ("00", "01"):
            self.assertEqual(data["extra_data"]["labs"][number]["status"], "not graded")
            self.assertIn(f"time budget ({budget:g} s) was used up",
                          lab_tests(data, number)[0]["output"])

    def test_time_budget_ends_during_a_build(self):
        """A lab whose build the submission's budget stops is 'not graded' with the budget named,
        not 'build failed': the lab's own build limit was never reached. The planted lab 01
        spends minutes in constant expressions, far past the budget."""
        budget = random.randint(3, 8)  # counted from the end of the support build
        rubric = self.root / "rubric_budget_build.toml"
        rubric.write_text(support.FAST_RUBRIC.read_text().replace(
            "[defaults]", f"[defaults]\ntime_budget_s = {budget}"))
        sub = self.root / "budget_build" / "labs"
        support.assemble.assemble("correct", sub)
        source = sub / "01_naive" / "naive_scan.cu"
        source.write_text(slow_to_compile("lab01") + source.read_text())
        out = self.root / "budget_build" / "out"
        proc = support.run_tool(
            "grade.py", str(sub), "--labs", "01", "--hidden", "no", "--rubric", str(rubric),
            "--build-dir", str(self.build), "--out", str(out))
        self.assertEqual(proc.returncode, 0, proc.stdout[-2000:] + proc.stderr[-2000:])
        data = support.load_results(self, out / "results.json")
        lab = data["extra_data"]["labs"]["01"]
        self.assertEqual(lab["status"], "not graded")
        self.assertIn(f"time budget ({budget:g} s) was used up while the lab was building",
                      lab_tests(data, "01")[0]["output"])
        self.assertEqual(lab_score(data, "01")[0], 0.0)

    def test_host_side_scan(self):
        """A scan on the host, copied in with cudaMemcpy: the output is right, but the emulator
        sees that host code wrote it, and every case says so with the line of the copy."""
        data, _, _, _ = self.grade("host_scan")
        self.assert_stub_score(data)
        source = support.assemble.source("host_scan")
        copy_in = 1 + source.splitlines().index(next(
            line for line in source.splitlines() if "cudaMemcpyHostToDevice" in line))
        for test in lab_tests(data, "01"):
            self.assertIn("the output was written by host code (cudaMemcpy at naive_scan.cu:"
                          f"{copy_in}), not by a kernel", test["output"])

    def test_host_side_scan_laundered_through_a_copy_kernel(self):
        """The input copied to the host and scanned there, the result uploaded to a scratch
        buffer that a kernel copies to the output: the kernel wrote the output last, but the
        graded input went to the host during the call."""
        data, _, _, _ = self.grade("host_scan_laundered")
        self.assert_stub_score(data)
        for test in lab_tests(data, "01"):
            self.assertIn("the input was copied to the host (cudaMemcpy at naive_scan.cu:",
                          test["output"])
            self.assertNotIn("the output was written by host code", test["output"])

    def test_host_side_scan_copied_by_a_kernel(self):
        """host code reads the input through its device pointer (host memory on the emulator),
        scans it and uploads the result; a kernel only copies it to the output. No call read
        the input, and a kernel wrote every output word, but the kernel threads that stored
        them read nothing that came from the input (the emulator follows the data: issue 32)."""
        data, _, _, _ = self.grade("host_scan_copy_kernel")
        self.assert_stub_score(data)
        for test in lab_tests(data, "01"):
            if test["name"].endswith("argument checks"):
                continue  # its scans of n = 0 store nothing; it fails on its other scans
            self.assertIn("the output was not computed from the input", test["output"])
            self.assertNotIn("the output was written by host code", test["output"])
            self.assertNotIn("the input was copied to the host", test["output"])

    def test_host_side_scan_through_host_to_host_copies(self):
        """host_scan with cudaMemcpyHostToHost both ways (device memory is host memory on the
        emulator): the copies count by where their ends lie, so every case says that host code
        read the input and wrote the output (issue 32)."""
        data, _, _, _ = self.grade("host_scan_host_to_host")
        self.assert_stub_score(data)
        for test in lab_tests(data, "01"):
            self.assertIn("the input was copied to the host (cudaMemcpy at naive_scan.cu:",
                          test["output"])
            self.assertIn("the output was written by host code (cudaMemcpy at naive_scan.cu:",
                          test["output"])

    def test_host_side_scan_through_the_device_pointers(self):
        """host_scan with no copy: host code reads and writes the device memory through its
        pointers (host memory on the emulator). No call records it, but the output's words
        changed with no kernel storing there (issue 32)."""
        data, _, _, _ = self.grade("host_scan_through_pointers")
        self.assert_stub_score(data)
        for test in lab_tests(data, "01"):
            if test["name"].endswith("argument checks"):
                continue  # fails on its own first scan, with the same message
            self.assertIn("the output was changed by host code through the device pointer",
                          test["output"])


if __name__ == "__main__":
    unittest.main()
