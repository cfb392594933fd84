"""The sandbox of a submission's builds and test programs (bubblewrap namespaces): what a program
inside sees and may write, and that nothing it starts outlives it. Needs bubblewrap and a
kernel that lets it make namespaces; where that is missing these tests fail and say so (the
grader then runs without the sandbox, and says so too)."""

import os
import secrets
import sys
import tempfile
import time
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import support
from scanlab_grader import procs, sandbox


class Sandbox(support.InTempDir):
    @classmethod
    def setUpClass(cls):
        cls.box = sandbox.choose("auto", None, None)

    def setUp(self):
        self.assertEqual(self.box.mode, "namespaces", self.box.describe())
        super().setUp()
        for name in ("seen", "work", "secret"):
            (self.dir / name).mkdir()
        self.token = secrets.token_hex(8)
        (self.dir / "seen" / "in.txt").write_text(self.token)
        (self.dir / "secret" / "hidden.txt").write_text("secret " + self.token)
        self.view = sandbox.View(read_only=[self.dir / "seen"], writable=[self.dir / "work"])

    def run_sh(self, script: str, timeout: float = 20):
        cwd = self.dir / "work"
        return procs.run(self.box.command(["sh", "-c", script], self.view, cwd), cwd=cwd,
                         env=dict(os.environ), limits=self.box.limits(timeout),
                         output_path=self.dir / "out.txt", shell_status=self.box.wraps)

    def test_sees_only_its_view(self):
        result = self.run_sh(f"cat {self.dir}/seen/in.txt; cat {self.dir}/secret/hidden.txt; "
                             f"ls /; id -u")
        self.assertTrue(result.exited, result.describe())
        out = result.tail(max_lines=100)
        self.assertIn(self.token, out.splitlines()[0])
        self.assertNotIn("secret " + self.token, out)
        self.assertNotIn("root", out.split())  # no /root folder
        self.assertNotIn("work\n", out)
        self.assertNotEqual(out.splitlines()[-1], "0")  # not root inside

    def test_writes_only_where_it_may(self):
        name = secrets.token_hex(4)
        result = self.run_sh(f"echo x > {self.dir}/seen/{name}; echo x > {self.dir}/work/{name};"
                             f" echo x > /tmp/{name}; echo x > /usr/{name}; exit 0")
        self.assertTrue(result.exited, result.describe())
        self.assertFalse((self.dir / "seen" / name).exists())
        self.assertTrue((self.dir / "work" / name).exists())
        self.assertFalse(Path("/usr", name).exists())
        self.assertFalse(Path("/tmp", name).exists())  # its /tmp is its own

    def test_nothing_outlives_the_step(self):
        """A daemon (setsid, in the background) dies when the step ends."""
        marker = self.dir / "work" / "still-alive"
        result = self.run_sh(f"setsid sh -c 'sleep 2; echo x > {marker}' >/dev/null 2>&1 & "
                             f"exit 0")
        self.assertTrue(result.exited, result.describe())
        time.sleep(3.5)
        self.assertFalse(marker.exists(), "a process of the step outlived it")

    def test_ram_backed_folders_are_sized(self):
        """/tmp, /dev/shm and a scratch folder are tmpfs of sandbox.TMPFS_MB: RAM that the
        memory limit does not count, so their size is bounded (issue 32)."""
        scratch = self.dir / "scratch"
        scratch.mkdir()
        self.view.scratch.append(scratch)
        more = sandbox.TMPFS_MB + 16
        result = self.run_sh(f"for d in /tmp /dev/shm {scratch}; do head -c {more}M /dev/zero "
                             f"> $d/big && echo \"$d: wrote all\" || echo \"$d: full\"; done",
                             timeout=60)
        self.assertTrue(result.exited, result.describe())
        out = result.tail(max_lines=20)
        for folder in ("/tmp", "/dev/shm", str(scratch)):
            self.assertIn(f"{folder}: full", out)
        self.assertEqual(list(scratch.iterdir()), [])  # nothing of it reached the disk

    def test_a_crash_reads_as_the_signal(self):
        result = self.run_sh("kill -SEGV $$")
        self.assertEqual(result.signal, 11, result.describe())

    def test_stand_ins_are_empty_with_the_same_time_stamps(self):
        real = self.dir / "secret"
        stand_in = sandbox.stand_in_folder(real, self.dir / "stand-in")
        self.view.stand_ins.append((stand_in, real))
        result = self.run_sh(f"wc -c < {real}/hidden.txt")
        self.assertEqual(result.tail().strip(), "0")
        self.assertEqual((stand_in / "hidden.txt").stat().st_mtime_ns,
                         (real / "hidden.txt").stat().st_mtime_ns)


class NoSandbox(unittest.TestCase):
    def test_none_says_what_is_missing(self):
        box = sandbox.choose("none", None, None)
        self.assertEqual(box.mode, "none")
        self.assertIn("SANDBOX MISSING", box.describe())
        self.assertIn("hidden tests", box.describe())
        self.assertEqual(box.command(["true"], sandbox.View(), Path("/")), ["true"])


class Choice(unittest.TestCase):
    """Which sandbox a grading run gets, and when untrusted grading is refused (issue 32)."""

    def setUp(self):
        self.which = sandbox.shutil.which

    def tearDown(self):
        sandbox.shutil.which = self.which

    def without_bubblewrap(self):
        sandbox.shutil.which = lambda name: None if name == "bwrap" else self.which(name)

    def test_no_sandbox_with_run_as_is_refused(self):
        with self.assertRaisesRegex(ValueError, "trusted code only"):
            sandbox.choose("none", (65534, 65534), "nobody")

    def test_user_sandbox_needs_run_as(self):
        with self.assertRaisesRegex(ValueError, "needs --run-as"):
            sandbox.choose("user", None, None)

    @unittest.skipUnless(os.geteuid() == 0, "the root grader's case")
    def test_root_without_namespaces_or_run_as_is_refused(self):
        self.without_bubblewrap()
        with self.assertRaisesRegex(ValueError, "would run as root"):
            sandbox.choose("auto", None, None)
        with self.assertRaisesRegex(ValueError, "--sandbox require"):
            sandbox.choose("require", None, None)
        self.assertEqual(sandbox.choose("none", None, None).mode, "none")  # asked for by name

    @unittest.skipUnless(os.geteuid() == 0, "needs root to run as nobody")
    def test_user_sandbox_refused_while_secrets_are_readable(self):
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp)
            root.chmod(0o755)
            hidden = root / "hidden"
            hidden.mkdir()
            (hidden / "lab01_x.cpp").write_text("secret")
            hidden.chmod(0o711)  # listing refused, but the file itself is readable by name
            self.without_bubblewrap()
            with self.assertRaisesRegex(ValueError, "lab01_x.cpp"):
                sandbox.choose("auto", (65534, 65534), "nobody", [hidden])
            (hidden / "lab01_x.cpp").chmod(0o600)
            box = sandbox.choose("auto", (65534, 65534), "nobody", [hidden])
            self.assertEqual(box.mode, "user")
            self.assertEqual(sandbox.choose("user", (65534, 65534), "nobody", [hidden]).mode,
                             "user")

    @unittest.skipUnless(os.geteuid() == 0, "needs root to make files of another user")
    def test_user_files_are_swept_from_shared_folders(self):
        with tempfile.TemporaryDirectory() as tmp:
            shared = Path(tmp)
            mine = shared / "grader-file"
            mine.write_text("x")
            theirs = shared / "left-by-nobody"
            (theirs / "deep").mkdir(parents=True)
            (theirs / "deep" / "f").write_text("x")
            for path in (theirs, theirs / "deep", theirs / "deep" / "f"):
                os.chown(path, 65534, 65534)
            link = shared / "link-by-nobody"
            link.symlink_to(mine)
            os.lchown(link, 65534, 65534)
            removed = procs.sweep_user_files(65534, [str(shared)])
            self.assertEqual(sorted(removed), sorted([str(theirs), str(link)]))
            self.assertTrue(mine.exists())  # not followed through the link, not another's

    @unittest.skipUnless(os.geteuid() == 0, "needs root to make files of another user")
    def test_a_build_folder_another_user_wrote_in_is_not_trusted(self):
        """A root grader's build folder with a file of the submission's user (an older grader
        handed it over): deleted and built again when the grader made it, refused otherwise;
        kept, and made root's alone, when it is root's."""
        from scanlab_grader import grading, model
        with tempfile.TemporaryDirectory() as tmp:
            build = Path(tmp) / "build"
            (build / "bin").mkdir(parents=True)
            harness = build / "bin" / "lab01_harness_simt"
            harness.write_text("trusted")
            grade = model.Grade(submission="x", seed=1, backend="simt", hidden=False)
            say = model.Progress(quiet=True)
            grading._reclaim_build(build, grade, say)
            self.assertTrue(harness.exists())
            self.assertEqual(build.stat().st_mode & 0o777, 0o700)
            os.chown(harness, 65534, 65534)  # as the old grader's hand-over left it
            with self.assertRaisesRegex(RuntimeError, "does not own"):
                grading._reclaim_build(build, grade, say)  # not the grader's: never deleted
            self.assertTrue(harness.exists())
            (build / "CMakeCache.txt").write_text(
                f"CMAKE_PROJECT_INCLUDE:FILEPATH={grading.HOOKS}\n")
            grading._reclaim_build(build, grade, say)
            self.assertFalse(harness.exists())
            self.assertEqual(list(build.iterdir()), [])
            self.assertIn("deleted and built again", grade.notes[-1])


if __name__ == "__main__":
    unittest.main()
