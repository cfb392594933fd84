"""Running untrusted programs: time limits that kill the whole process group, crashes, limits."""

import os
import signal
import sys
import tempfile
import time
import unittest
from pathlib import Path

import sys as _sys
from pathlib import Path as _Path

_sys.path.insert(0, str(_Path(__file__).resolve().parent))
import support  # noqa: F401
from scanlab_grader import procs


class Procs(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = Path(self.tmp.name)

    def tearDown(self):
        self.tmp.cleanup()

    def run_py(self, code: str, timeout: float = 10, **limits):
        return procs.run([sys.executable, "-c", code], cwd=self.dir, env=dict(os.environ),
                         limits=procs.Limits(timeout_s=timeout, **limits),
                         output_path=self.dir / "out.txt")

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
