"""The attacks of issue 32 ("grades a course can trust, round two"), graded end to end in each
sandbox a root grader may use with --run-as: bubblewrap's namespaces, the user sandbox (no
namespaces: what Gradescope's container may leave), and no sandbox at all, which is refused.

Each attack is a recipe of tests/grader/submissions/catalog.toml (lab 00's solution plus a
planted lab 01). Each test checks the score it must get and that nothing leaked: the lines of
the hidden tests and of the build folder's CMakeCache.txt, and a secret file of the tree's dist/,
absent from results.json, the table and every log; every trusted program unchanged.

These tests need root (--run-as nobody). The user sandbox refuses to grade while `nobody` can
read the hidden tests or solutions/, so its class makes them root-only for its duration and puts
the permissions back afterwards."""

import contextlib
import hashlib
import os
import random
import shutil
import sys
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import support
from support import REPO, lab_score, lab_tests
from test_attacks import HIDDEN_TEST, distinctive_lines
from test_planted import PlantedBase

RUN_AS = ["--run-as", "nobody"]


def trusted_programs(build: Path) -> dict[Path, str]:
    """The grader's own programs in the build folder, by SHA-256."""
    return {path: hashlib.sha256(path.read_bytes()).hexdigest()
            for path in sorted((build / "bin").glob("lab*_*_simt"))
            if "_harness_" in path.name or "_listing_" in path.name}


@contextlib.contextmanager
def root_only(paths: list[Path]):
    """Makes each folder of `paths` root's alone (0700) for a while, as grading in the user
    sandbox requires (setup.sh does it for Gradescope)."""
    before = {path: path.stat().st_mode & 0o7777 for path in paths if path.exists()}
    try:
        for path in before:
            path.chmod(0o700)
        yield
    finally:
        for path, mode in before.items():
            path.chmod(mode)


def everything_shown(out: Path) -> str:
    return (out / "results.json").read_text() + (out / "table.txt").read_text() + \
        "".join(log.read_text(errors="replace") for log in (out / "logs").glob("*"))


@unittest.skipUnless(os.geteuid() == 0, "grading --run-as nobody needs root")
class NamespaceSandbox(PlantedBase):
    """--run-as nobody, bubblewrap's namespaces required."""
    mode_args = ["--sandbox", "require"]
    mode = "namespaces"

    def grade_attack(self, planted: str, **kwargs):
        # One configuration for every grade of these tests (with the hidden tests, when the
        # tree has them), so that no grade reconfigures and rebuilds the trusted programs.
        kwargs.setdefault("hidden", "yes" if HIDDEN_TEST.exists() else "no")
        data, proc, out, elapsed = self.grade(planted, *RUN_AS, *self.mode_args, **kwargs)
        self.assertEqual(data["extra_data"]["sandbox"], self.mode)
        return data, proc, out, elapsed

    def test_worker_cannot_replace_trusted_programs(self):
        """The lab's code tries to overwrite the harnesses and listing programs (which the
        grader runs as root) and to leave a file in the build folder: it cannot, the correct
        lab keeps its points, and every trusted program is byte for byte what it was."""
        # A grade of the correct lab first, with the same settings: the trusted programs are
        # then what this configuration builds, and the attack's grade builds none of them again.
        self.grade_attack("correct", name=f"settle-{self.mode}")
        before = trusted_programs(self.build)
        data, _, out, _ = self.grade_attack("replace_trusted", name=f"replace-{self.mode}",
                                            substitute={"@BUILD@": str(self.build)})
        self.assertAlmostEqual(lab_score(data, "01")[0], 10.0, places=6)
        log = everything_shown(out)
        self.assertIn("REPLACE: cannot write", log)  # the attack ran
        self.assertNotIn("REPLACE: wrote", log)
        self.assertFalse((self.build / "poisoned-by-a-submission").exists())
        after = trusted_programs(self.build)
        self.assertTrue(before)
        for path, digest in before.items():
            self.assertEqual(after.get(path), digest, f"{path} changed")
        # The build folder is the grader's alone.
        info = self.build.stat()
        self.assertEqual(info.st_uid, 0)
        self.assertEqual(info.st_mode & 0o077, 0)
        if self.mode == "namespaces":
            self.assertIn("REPLACE: build folder not visible", log)

    @unittest.skipUnless(HIDDEN_TEST.exists(), "an instructor's tree")
    def test_compiler_embeds_nothing_secret(self):
        """.incbin of the build folder's CMakeCache.txt, a hidden test and a file of dist/: the
        submission's compile sees none of them (its own folder holds only its sources and its
        outputs), so the correct lab builds, keeps its points and prints none of them."""
        dist = REPO / "dist"
        made_dist = not dist.exists()
        dist.mkdir(exist_ok=True)
        marker = f"SCANLAB-DIST-SECRET-{random.randrange(10**12)}"
        secret = dist / f"secret-{random.randrange(10**9)}.txt"
        secret.write_text(marker + "\n")
        try:
            with root_only([dist]):
                data, _, out, _ = self.grade_attack(
                    "incbin_leak", hidden="yes", name=f"incbin-{self.mode}", substitute={
                        "@BUILD@": str(self.build), "@REPO@": str(REPO),
                        "@SECRET@": str(secret)})
        finally:
            secret.unlink()
            if made_dist:
                shutil.rmtree(dist, ignore_errors=True)
        text = everything_shown(out)
        if self.mode == "namespaces":
            # Not there at all: the lab builds without them and keeps its points.
            self.assertEqual(data["extra_data"]["labs"]["01"]["status"], "graded")
            self.assertAlmostEqual(lab_score(data, "01")[0], 10.0, places=6)
            for line in ("INCBIN: no CMakeCache.txt", "INCBIN: no dist",
                         "INCBIN: no hidden test"):
                self.assertIn(line, text)
        else:
            # There, but root's alone: GCC's __has_include sees the name, and the compile fails
            # when it cannot read it.
            self.assertEqual(data["extra_data"]["labs"]["01"]["status"], "build failed")
            self.assertIn("Permission denied", text)
            self.assertEqual(lab_score(data, "01")[0], 0.0)
        self.assertNotIn(marker, text)
        self.assertNotIn("CMAKE_PROJECT_INCLUDE", text)
        self.assertNotIn("SCANLAB_GRADER_HIDDEN_DIR", text)
        for line in distinctive_lines(HIDDEN_TEST):
            self.assertNotIn(line, text)

    @unittest.skipUnless(HIDDEN_TEST.exists(), "an instructor's tree")
    def test_hidden_inputs_do_not_reach_visible_cases(self):
        """The lab's code fails every call once it has seen a size only a hidden test uses, and
        records it in memory and in /tmp, /var/tmp and /dev/shm: the visible cases run first, in
        a worker of their own, and nothing of the submission's user outlives a step, so every
        visible case passes, also in the next submission graded after it."""
        for round_no in range(2):
            data, _, out, _ = self.grade_attack("hidden_spy", hidden="yes",
                                                name=f"hidden_spy_{self.mode}_{round_no}")
            visible = [t for t in lab_tests(data, "01") if "hidden" not in t.get("tags", [])]
            hidden = [t for t in lab_tests(data, "01") if "hidden" in t.get("tags", [])]
            self.assertTrue(visible and hidden)
            for test in visible:
                self.assertEqual(test["status"], "passed", test["output"])
                self.assertNotIn("SPY-SAW-HIDDEN", test["output"])
            self.assertNotIn("SPY-SAW-HIDDEN", data["output"])
            # The spy is real: the hidden cases after n = 777 fail with what it saw.
            self.assertTrue(any("SPY-SAW-HIDDEN" in t["output"] for t in hidden))
        for place in ("/tmp/scanlab-spy", "/var/tmp/scanlab-spy", "/dev/shm/scanlab-spy"):
            self.assertFalse(os.path.exists(place), f"{place} outlived the grading")

    def test_daemon_dies(self):
        """The daemon attack (test_attacks.py) in this sandbox: it dies with its step."""
        out_dir = self.root / f"daemon-{self.mode}" / "out"
        data, _, out, _ = self.grade_attack("daemon", substitute={"@OUT@": str(out_dir)},
                                            name=f"daemon-{self.mode}")
        self.assertAlmostEqual(lab_score(data, "01")[0], 10.0, places=6)
        import time
        time.sleep(6)
        self.assertFalse((out / "daemon-was-here").exists(), "the daemon outlived the grade")

    def test_kernels_must_compute_from_the_input(self):
        """The host-side scans of the catalog score 0 in this sandbox too: one whose kernel
        only copies a host-made answer (the data flow), one through the device pointers."""
        for planted in ("host_scan_copy_kernel", "host_scan_through_pointers"):
            with self.subTest(planted=planted):
                data, _, out, _ = self.grade_attack(planted, name=f"{planted}-{self.mode}")
                self.assertEqual(lab_score(data, "01")[0], 0.0)
                text = everything_shown(out)
                self.assertTrue("the output was not computed from the input" in text or
                                "changed by host code through the device pointer" in text)

    def test_disk_hog_is_contained(self):
        """A correct lab that fills its folder, /tmp and /dev/shm with 512 MiB of files each:
        in the namespaces each is a tmpfs of 256 MiB (its writes fail, the lab keeps its
        points); in the user sandbox the submission's disk budget (disk_limit_mb, 96 MiB here)
        stops the step, and every case says so. Nothing of it is left afterwards."""
        limit = 96
        rubric = self.root / f"rubric_disk_{self.mode}.toml"
        rubric.write_text(support.FAST_RUBRIC.read_text().replace(
            "[defaults]", f"[defaults]\ndisk_limit_mb = {limit}"))
        data, _, out, _ = self.grade_attack("disk_hog", rubric=rubric,
                                            name=f"disk_hog-{self.mode}")
        text = everything_shown(out)
        if self.mode == "namespaces":
            self.assertAlmostEqual(lab_score(data, "01")[0], 10.0, places=6)
            for place in ("/tmp", "/dev/shm"):
                written = [int(line.split()[1]) for line in text.splitlines()
                           if line.startswith("HOG:") and line.endswith(" " + place)]
                self.assertTrue(written, f"the hog said nothing about {place}")
                self.assertLessEqual(max(written), 256)
        else:
            self.assertEqual(lab_score(data, "01")[0], 0.0)
            for test in lab_tests(data, "01"):
                self.assertIn(f"wrote more than the {limit} MiB of files a submission may keep",
                              test["output"])
        for folder in ("/tmp", "/var/tmp", "/dev/shm"):
            self.assertFalse([name for name in os.listdir(folder) if "scanlab-hog" in name],
                             f"the hog's files outlived the grading in {folder}")


class UserSandbox(NamespaceSandbox):
    """--run-as nobody --sandbox user: no namespaces; the grader's folders and the secrets are
    kept from `nobody` by their owners and permissions."""
    mode_args = ["--sandbox", "user"]
    mode = "user"

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.locked = root_only([REPO / "grading" / "hidden", REPO / "solutions"])
        cls.locked.__enter__()

    @classmethod
    def tearDownClass(cls):
        cls.locked.__exit__(None, None, None)
        super().tearDownClass()

    @unittest.skipUnless(HIDDEN_TEST.exists(), "an instructor's tree")
    def test_files_are_out_of_reach(self):
        """leak_files (test_attacks.py) as `nobody` with no mount namespace: the hidden test and
        the solutions are root's alone, the graded tests and the rubric are not its to write."""
        guarded = [REPO / "tests" / "labs" / "lab01_naive_test.cpp",
                   REPO / "grading" / "rubric.toml"]
        before = {path: path.read_bytes() for path in guarded}
        data, _, out, _ = self.grade_attack("leak_files", hidden="yes", name="leak-user",
                                            substitute={"@REPO@": str(REPO)})
        for path in guarded:
            self.assertEqual(before[path], path.read_bytes(), f"{path} was changed")
        text = everything_shown(out)
        self.assertIn("LEAK-ATTEMPT: cannot open", text)
        for line in distinctive_lines(HIDDEN_TEST):
            self.assertNotIn(line, text)
        self.assertEqual(lab_score(data, "01")[0], 0.0)


@unittest.skipUnless(os.geteuid() == 0, "grading --run-as nobody needs root")
class Refused(support.GradesInSharedBuild):
    """Untrusted grading that no sandbox can isolate is refused (exit status 2, a results.json
    that says why), never graded with less isolation."""

    def refused(self, *args: str) -> tuple[str, dict]:
        sub = self.root / "refused" / "labs"
        support.assemble.assemble("replace_trusted", sub, {"@BUILD@": str(self.build)})
        out = self.root / "refused" / "out"
        proc = support.run_tool("grade.py", str(sub), "--labs", "01", "--hidden", "no",
                                "--build-dir", str(self.build), "--out", str(out), *args)
        self.assertEqual(proc.returncode, 2, proc.stdout[-2000:] + proc.stderr[-2000:])
        data = support.load_results(self, out / "results.json")
        self.assertEqual(data["score"], 0)
        return proc.stderr, data

    def test_no_sandbox_with_run_as(self):
        stderr, data = self.refused(*RUN_AS, "--sandbox", "none")
        self.assertIn("trusted code only", stderr)
        self.assertIn("trusted code only", data["output"])

    def test_user_sandbox_while_hidden_tests_are_readable(self):
        hidden = REPO / "grading" / "hidden"
        if not hidden.is_dir() or hidden.stat().st_mode & 0o005 == 0:
            self.skipTest("needs a tree whose grading/hidden others can read")
        stderr, _ = self.refused(*RUN_AS, "--sandbox", "user")
        self.assertIn("refusing to grade in the user sandbox", stderr)
        self.assertIn(str(hidden), stderr)


if __name__ == "__main__":
    unittest.main()
