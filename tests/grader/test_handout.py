"""The handout and the Gradescope bundle: what is in them and what must never be. The full
build check (make_handout.py --check / --check-gradescope) takes minutes; it runs only with
SCANLAB_GRADER_TEST_HANDOUT_BUILD=1."""

import importlib.util
import os
import random
import subprocess
import sys
import tempfile
import unittest
import zipfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import support  # noqa: E402

SCRIPT = support.REPO / "tools" / "handout" / "make_handout.py"
spec = importlib.util.spec_from_file_location("make_handout", SCRIPT)
make_handout = importlib.util.module_from_spec(spec)
spec.loader.exec_module(make_handout)


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True,
                          cwd=support.REPO, timeout=3600)


class Handout(unittest.TestCase):
    def test_student_file_list(self):
        files = make_handout.student_files(support.REPO, [])
        self.assertIn("labs/01_naive/naive_scan.cu", files)
        self.assertIn("labs/01_naive/naive_scan.h", files)
        self.assertIn("tests/labs/lab01_naive_test.cpp", files)
        self.assertIn("tools/grader/grade.py", files)
        self.assertIn("grading/rubric.toml", files)
        self.assertIn("CMakeLists.txt", files)
        self.assertIn("docs/how-you-are-graded.md", files)
        self.assertNotIn("docs/grading.md", files)  # for instructors: how the grader is fooled
        for f in files:
            self.assertFalse(f.startswith(("solutions/", "grading/hidden/", "tests/grader/",
                                           "tools/handout/", ".git/", "build")), f)

    def test_no_leaks_in_this_tree(self):
        """A real check of the repository, like check_stubs: a stub that is a copy of its
        solution (or any handout file identical to a solution) fails here."""
        files = make_handout.student_files(support.REPO, [])
        self.assertEqual(make_handout.leak_problems(support.REPO, files, allow_hidden=False), [])
        self.assertEqual(make_handout.stub_problems(support.REPO), [])

    def test_leaks_are_found(self):
        solution = support.REPO / "solutions" / "01_naive" / "naive_scan.cu"
        if not solution.exists():
            self.skipTest("needs solutions/")
        problems = make_handout.leak_problems(
            support.REPO, ["solutions/01_naive/naive_scan.cu", "grading/hidden/x.cpp"], False)
        self.assertEqual(len([p for p in problems if "solution" in p or "hidden" in p]), 3)

    def test_tarball_and_gradescope_bundle(self):
        with tempfile.TemporaryDirectory() as tmp:
            tar = Path(tmp) / "h.tar.gz"
            bundle = Path(tmp) / "ag.zip"
            # --allow-leaks: this test is about the packaging; test_no_leaks_in_this_tree
            # reports the tree's own state.
            proc = run("--tar", str(tar), "--gradescope", str(bundle), "--allow-stub-copies")
            self.assertEqual(proc.returncode, 0, proc.stderr)
            import tarfile
            with tarfile.open(tar) as t:
                names = t.getnames()
            self.assertIn("scan-lab/labs/01_naive/naive_scan.cu", names)
            self.assertFalse([n for n in names if "/solutions/" in n or "/hidden/" in n])
            with zipfile.ZipFile(bundle) as z:
                infos = {i.filename: i for i in z.infolist()}
            for name in ("setup.sh", "run_autograder"):
                self.assertIn(name, infos)
                self.assertTrue((infos[name].external_attr >> 16) & 0o100, f"{name} not executable")
            self.assertIn("grading/hidden/lab01_naive_hidden_test.cpp", infos)
            self.assertIn("tools/grader/grade.py", infos)
            self.assertFalse([n for n in infos if n.startswith("solutions/")])

    def test_labs_released_one_at_a_time(self):
        """--labs 01,02: the later (and earlier) labs' stubs, lessons, graded and hidden tests
        are left out, everything else stays; a lab that does not exist is an error."""
        labs = make_handout.lab_folders(support.REPO)
        released = sorted(random.sample(sorted(labs), random.randint(1, len(labs) - 1)))
        with tempfile.TemporaryDirectory() as tmp:
            tar = Path(tmp) / "h.tar.gz"
            bundle = Path(tmp) / "ag.zip"
            proc = run("--tar", str(tar), "--gradescope", str(bundle), "--allow-stub-copies",
                       "--labs", ",".join(str(int(n)) for n in released))
            self.assertEqual(proc.returncode, 0, proc.stderr)
            self.assertIn(f"labs {', '.join(released)} only", proc.stdout)
            import tarfile
            with tarfile.open(tar) as t:
                names = {n.removeprefix("scan-lab/") for n in t.getnames()}
            with zipfile.ZipFile(bundle) as z:
                bundle_names = set(z.namelist())
            hidden = {f.name for f in (support.REPO / "grading" / "hidden").glob("lab*")}
            for number, folder in labs.items():
                stub = next(f.name for f in (support.REPO / "labs" / folder).glob("*.cu"))
                tests = {f.name for f in (support.REPO / "tests" / "labs").glob(f"lab{number}_*")}
                self.assertTrue(tests)
                wanted = number in released
                for contents in (names, bundle_names):
                    self.assertEqual(f"labs/{folder}/{stub}" in contents, wanted, stub)
                    self.assertEqual(f"labs/{folder}/README.md" in contents, wanted, folder)
                    for test in tests:
                        self.assertEqual(f"tests/labs/{test}" in contents, wanted, test)
                for test in (h for h in hidden if h.startswith(f"lab{number}_")):
                    self.assertEqual(f"grading/hidden/{test}" in bundle_names, wanted, test)
            self.assertEqual("examples/tile_scan/tile_scan.cu" in names, "05" in released)
            for kept in ("labs/CMakeLists.txt", "common/scanlab/include/scanlab/operators.h",
                         "tools/grader/grade.py", "docs/how-you-are-graded.md"):
                self.assertIn(kept, names)
        proc = run("--list", "--labs", "01,42")
        self.assertEqual(proc.returncode, 1)
        self.assertIn("there is no lab '42' in labs/", proc.stderr)

    def test_help(self):
        proc = run("--help")
        self.assertEqual(proc.returncode, 0)
        self.assertIn("--gradescope", proc.stdout)

    @unittest.skipUnless(os.environ.get("SCANLAB_GRADER_TEST_HANDOUT_BUILD") == "1",
                         "set SCANLAB_GRADER_TEST_HANDOUT_BUILD=1 to build the handout")
    def test_handout_and_bundle_build_and_run(self):
        with tempfile.TemporaryDirectory() as tmp:
            proc = run("--tar", str(Path(tmp) / "h.tar.gz"), "--check",
                       "--gradescope", str(Path(tmp) / "ag.zip"), "--check-gradescope",
                       "--labs", "00,01")
            self.assertEqual(proc.returncode, 0, proc.stdout[-4000:] + proc.stderr[-2000:])
            self.assertIn("handout OK", proc.stdout)
            self.assertIn("Gradescope bundle OK", proc.stdout)
            if os.geteuid() == 0:  # as on Gradescope: the submission ran unprivileged
                self.assertRegex(proc.stdout, r"ran with sandbox: (namespaces|user)")

    @unittest.skipUnless(os.environ.get("SCANLAB_GRADER_TEST_HANDOUT_BUILD") == "1",
                         "set SCANLAB_GRADER_TEST_HANDOUT_BUILD=1 to build the handout")
    def test_handout_of_some_labs_builds_and_runs(self):
        """Labs 01 and 02 released, the rest left out: the handout configures, builds every
        program of its own (the tracer and the main job included) and grades its two stubs."""
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / "handout"
            proc = run("--out", str(out), "--check", "--labs", "01,02")
            self.assertEqual(proc.returncode, 0, proc.stdout[-4000:] + proc.stderr[-2000:])
            self.assertIn("handout OK: 2 lab(s) build and run", proc.stdout)
            build = Path(tmp) / "build"
            subprocess.run(["cmake", "-S", str(out), "-B", str(build), "-G", "Ninja",
                            "-DCMAKE_BUILD_TYPE=RelWithDebInfo"], check=True,
                           capture_output=True)
            built = subprocess.run(["cmake", "--build", str(build)], capture_output=True,
                                   text=True)
            self.assertEqual(built.returncode, 0, built.stdout[-4000:])
            listed = subprocess.run(["ctest", "--test-dir", str(build), "-N"],
                                    capture_output=True, text=True, check=True).stdout
            self.assertIn("lab01.student.simt", listed)
            self.assertNotIn("lab03", listed)


if __name__ == "__main__":
    unittest.main()
