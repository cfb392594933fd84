"""Running untrusted programs: time limits that kill the whole process group, crashes, limits."""

import os
import random
import signal
import sys
import time
import unittest

import sys as _sys
from pathlib import Path as _Path

_sys.path.insert(0, str(_Path(__file__).resolve().parent))
import support
from scanlab_grader import procs


class Procs(support.InTempDir):
    def setUp(self):
        super().setUp()

    def run_py(self, code: str, timeout: float = 10, **limits):
        return procs.run([sys.executable, "-c", code], cwd=self.dir, env=dict(os.environ),
                         limits=procs.Limits(timeout_s=timeout, **limits),
                         output_path=self.dir / "out.txt")

    def test_limits_above_the_graders_own_hard_limit(self):
        """Under `ulimit -v` (a hard RLIMIT_AS lower than the limit asked for) the program
        still starts, with the grader's limit, instead of 'Exception occurred in preexec_fn'."""
        hard_mb = random.randint(3000, 6000)
        code = ("import os, resource, sys\n"
                f"resource.setrlimit(resource.RLIMIT_AS, ({hard_mb} << 20, {hard_mb} << 20))\n"
                f"sys.path.insert(0, {str(support.GRADER)!r})\n"
                "from pathlib import Path\n"
                "from scanlab_grader import procs\n"
                "r = procs.run([sys.executable, '-c', 'import resource; "
                "print(resource.getrlimit(resource.RLIMIT_AS)[0] >> 20)'], cwd=Path('.'), "
                "env=dict(os.environ), limits=procs.Limits(10, memory_mb=8192), "
                f"output_path=Path({str(self.dir / 'inner.txt')!r}))\n"
                "print(r.describe(), r.tail())\n")
        result = self.run_py(code, timeout=30)
        self.assertEqual(result.tail(), f"exited with code 0 {hard_mb}")

    def test_processes_left_in_the_session_are_killed(self):
        """A child in a process group of its own (as ninja starts each compiler) but in the
        same session dies with the run."""
        marker = self.dir / f"alive-{random.randint(0, 10**9)}"
        code = ("import os, time\n"
                "if os.fork() == 0:\n"
                "    os.setpgid(0, 0)\n"
                "    time.sleep(3)\n"
                f"    open({str(marker)!r}, 'w').write('x')\n"
                "    os._exit(0)\n"
                "time.sleep(0.3)\n")
        result = self.run_py(code)
        self.assertTrue(result.exited)
        time.sleep(4)
        self.assertFalse(marker.exists(), "a process of the run outlived it")

    def test_report_pipe(self):
        """The report comes through a pipe that only the grader reads, also when the program
        writes more than a pipe holds and then exits at once."""
        size = random.randint(100_000, 900_000)
        result = procs.run(
            [sys.executable, "-c", "import sys; fd = int(sys.argv[1]); "
             f"open(fd, 'wb').write(b'x' * {size})"],
            cwd=self.dir, env=dict(os.environ), limits=procs.Limits(timeout_s=10),
            output_path=self.dir / "out.txt", report_fd_arg=str)
        self.assertTrue(result.exited, result.describe())
        self.assertEqual(result.report, b"x" * size)
        result = procs.run([sys.executable, "-c", "import sys"], cwd=self.dir,
                           env=dict(os.environ), limits=procs.Limits(timeout_s=10),
                           output_path=self.dir / "out.txt", report_fd_arg=str)
        self.assertEqual(result.report, b"")
        result = procs.run([sys.executable, "-c", "import sys; fd = int(sys.argv[1]); "
                            "open(fd, 'wb').write(b'y' * 5000)"], cwd=self.dir,
                           env=dict(os.environ), limits=procs.Limits(timeout_s=10),
                           output_path=self.dir / "out.txt", report_fd_arg=str,
                           report_limit=1000)
        self.assertTrue(result.report_overflow)

    def test_shell_status_reads_as_a_signal(self):
        result = procs.run(["sh", "-c", "sh -c 'kill -SEGV $$'"], cwd=self.dir,
                           env=dict(os.environ), limits=procs.Limits(timeout_s=10),
                           output_path=self.dir / "out.txt", shell_status=True)
        self.assertEqual(result.signal, signal.SIGSEGV)
        self.assertIn("SIGSEGV", result.describe())

    def test_exit_code_and_output(self):
        result = self.run_py("import sys; print('hello'); sys.exit(3)")
        self.assertTrue(result.exited)
        self.assertEqual(result.returncode, 3)
        self.assertEqual(result.tail(), "hello")
        self.assertEqual(result.describe(), "exited with code 3")

    def test_crash_is_reported_with_the_signal(self):
        result = self.run_py("import os, signal; os.kill(os.getpid(), signal.SIGSEGV)")
        self.assertFalse(result.exited)
        self.assertEqual(result.signal, signal.SIGSEGV)
        self.assertIn("SIGSEGV", result.describe())

    def test_timeout_kills_the_whole_process_group(self):
        marker = self.dir / "child-alive"
        child = self.dir / "child.py"
        child.write_text("import sys, time\n"
                         "while True:\n"
                         "    open(sys.argv[1], 'w').write(str(time.time()))\n"
                         "    time.sleep(0.05)\n")
        # The child of the child keeps writing a file; it must die with the group.
        code = ("import subprocess, sys, time\n"
                f"subprocess.Popen([sys.executable, {str(child)!r}, {str(marker)!r}])\n"
                "while True: time.sleep(1)\n")
        start = time.monotonic()
        result = self.run_py(code, timeout=1.5)
        self.assertTrue(result.timed_out)
        self.assertLess(time.monotonic() - start, 5)
        self.assertIn("timed out after 1.5 s", result.describe(1.5))
        self.assertTrue(marker.exists(), "the grandchild never ran")
        time.sleep(0.3)
        before = marker.stat().st_mtime if marker.exists() else 0
        time.sleep(0.5)
        after = marker.stat().st_mtime if marker.exists() else 0
        self.assertEqual(before, after, "the grandchild survived the kill")

    def test_busy_loop_hits_the_wall_clock_limit(self):
        result = self.run_py("while True: pass", timeout=1)
        self.assertTrue(result.timed_out)

    def test_file_size_limit(self):
        result = self.run_py("open('big', 'wb').write(b'x' * (3 * 1024 * 1024))", file_mb=1)
        self.assertFalse(result.exited and result.returncode == 0)

    def test_disk_budget_stops_a_program_that_writes_too_much(self):
        """Files of 1 MiB, written until the budget's measure sees more than it allows: the
        program is stopped and says why; one that stays under it runs to its end."""
        limit_mb = random.randint(3, 8)
        folder = self.dir / "scratch"
        folder.mkdir()
        budget = procs.DiskBudget(limit_mb, (folder,))
        code = ("import os, time\n"
                "for i in range(200):\n"
                f"    open(os.path.join({str(folder)!r}, f'f{{i}}'), 'wb').write(b'x' * (1 << 20))\n"
                "    time.sleep(0.02)\n")
        result = self.run_py(code, timeout=20, disk=budget)
        self.assertFalse(result.exited)
        self.assertIn(f"wrote more than the {limit_mb} MiB of files a submission may keep",
                      result.describe())
        self.assertLess(len(os.listdir(folder)), 200)
        under = self.run_py(f"open({str(folder / 'small')!r}, 'wb').write(b'x' * 1000)",
                            disk=procs.DiskBudget(1024, (folder,)))
        self.assertTrue(under.exited and under.returncode == 0)

    def test_disk_budget_counts_files_and_entries(self):
        folder = self.dir / "many"
        (folder / "sub").mkdir(parents=True)
        size = random.randint(1, 64) * 4096
        (folder / "sub" / "a").write_bytes(b"y" * size)
        for i in range(5):
            (folder / f"e{i}").write_bytes(b"")
        used, entries = procs.disk_use(procs.DiskBudget(1, (folder,)))
        self.assertEqual(entries, 8)  # the folder, sub, a and the five empty files
        self.assertGreaterEqual(used, size)
        _, capped = procs.disk_use(procs.DiskBudget(1, (folder,), max_entries=3))
        self.assertLessEqual(capped, 4)

    def test_missing_program(self):
        result = procs.run([str(self.dir / "nope")], cwd=self.dir, env={},
                           limits=procs.Limits(5), output_path=self.dir / "o")
        self.assertFalse(result.exited)
        self.assertIn("could not be started", result.describe())

    def test_heartbeat(self):
        beats = []
        procs.run([sys.executable, "-c", "import time; time.sleep(0.7)"], cwd=self.dir,
                  env=dict(os.environ), limits=procs.Limits(5), output_path=self.dir / "o",
                  heartbeat=beats.append, heartbeat_every=0.2)
        self.assertGreaterEqual(len(beats), 2)

    @unittest.skipUnless(os.geteuid() == 0, "needs root")
    def test_run_as_an_unprivileged_user(self):
        try:
            user = procs.lookup_user("nobody")
        except ValueError as error:
            self.skipTest(str(error))
        work = self.dir / "work"
        work.mkdir()
        procs.hand_over(work, user)
        self.dir.chmod(0o711)
        protected = self.dir / "results.json"
        protected.write_text("grader's")
        protected.chmod(0o644)
        result = procs.run(["/bin/sh", "-c", f"id -u; echo forged > {protected}; touch ok"],
                           cwd=work, env={"PATH": "/usr/bin:/bin"},
                           limits=procs.Limits(10, user=user), output_path=self.dir / "o")
        self.assertTrue(result.exited)
        self.assertIn(str(user[0]), result.tail())
        self.assertEqual(protected.read_text(), "grader's")
        self.assertTrue((work / "ok").exists())

    def test_lookup_user_refuses_root(self):
        if os.geteuid() != 0:
            with self.assertRaises(ValueError):
                procs.lookup_user("nobody")
        else:
            with self.assertRaises(ValueError):
                procs.lookup_user("root")


if __name__ == "__main__":
    unittest.main()
