"""The submission's build in a folder of its own (private_build.py, issue 32): the commands
taken from ninja, what is copied from the grader's build folder, and what never is; and the
cache of its programs (build_cache.py): reused only for the same commands, inputs and lab files,
and only while every file its compilers read is unchanged. The plan's tests use the shared build
folder of the other grader tests (skipped until a grade has built lab 01 there)."""

import random
import shutil
import sys
import tempfile
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import support
from scanlab_grader import build_cache, private_build


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
            # The worker's server, compiled once for every lab (and built by the grader's support
            # build, since the link reads it here).
            self.assertTrue(any("/scanlab_worker_objects_simt.dir/" in path and
                                path.endswith("worker_main.cpp.o") for path in copied), copied)
            for path in copied:
                for never in ("CMakeCache", "_test_objects_", "_harness_", "_listing_", "hidden",
                              ".ninja"):
                    self.assertNotIn(never, path)
            # Nothing left of the grader's folder in what runs, and nothing else there.
            self.assertNotIn(str(self.build), plan.script())
            self.assertFalse((folder / "CMakeCache.txt").exists())
            self.assertTrue((folder / "_grader" / "labs" / "01_naive" / "naive_scan.cu").exists())
            # The lab's own staged folder only: no other lab's files for it to read.
            self.assertEqual(sorted(p.name for p in (folder / "_grader" / "labs").iterdir()),
                             ["01_naive"])
            # The lab library's rewrite, compile and archive, then the program's link.
            self.assertTrue(all("lab01_student_simt" in c for c in plan.commands[:-1]))
            self.assertIn("-o bin/lab01_worker_simt", plan.commands[-1])
            self.assertEqual(plan.artifact(self.build / "bin" / "lab01_worker_simt"),
                             folder / "bin" / "lab01_worker_simt")


class Cache(unittest.TestCase):
    """build_cache.BuildCache on a made-up build: a lab file, a header outside the private
    folder that the depfile names, a copied input, and the program the 'build' made."""

    def setUp(self):
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        self.root = Path(tmp.name)
        self.header = self.root / "tree" / "common.h"
        self.header.parent.mkdir()
        self.header.write_text(f"// {random.random()}\n")
        self.cache = build_cache.BuildCache(self.root / "cache")
        self.lab_text = f"int scan() {{ return {random.randrange(10**6)}; }}\n"

    def plan(self, name: str, lab_text: str) -> private_build.Plan:
        """A private folder as plan() leaves it, with the build's outputs in it."""
        folder = self.root / name
        lab = folder / "_grader" / "labs" / "01_naive"
        lab.mkdir(parents=True)
        (lab / "naive_scan.cu").write_text(lab_text)
        (folder / "lib").mkdir()
        (folder / "lib" / "libsimt_core.a").write_bytes(b"core")
        commands = [f"c++ -c {lab}/naive_scan.cu -MF obj.d -o obj.o", "c++ obj.o -o bin/worker"]
        return private_build.Plan("lab01_worker_simt", self.root / "build", folder, commands,
                                  [Path("lib/libsimt_core.a")])

    def built(self, plan: private_build.Plan, program: bytes) -> None:
        lab = plan.folder / "_grader" / "labs" / "01_naive" / "naive_scan.cu"
        (plan.folder / "obj.d").write_text(f"obj.o: {lab} \\\n {self.header}\n")
        (plan.folder / "bin").mkdir()
        (plan.folder / "bin" / "worker").write_bytes(program)

    def test_reused_only_for_the_same_files(self):
        programs = [Path("bin/worker")]
        first = self.plan("first", self.lab_text)
        key = self.cache.key(first)
        self.assertFalse(self.cache.lookup(first, key, programs))  # empty cache
        program = random.randbytes(64)
        self.built(first, program)
        self.cache.store(first, key, programs)
        # The same lab file in another private folder: the program comes back.
        again = self.plan("again", self.lab_text)
        self.assertEqual(self.cache.key(again), key)
        self.assertTrue(self.cache.lookup(again, self.cache.key(again), programs))
        self.assertEqual((again.folder / "bin" / "worker").read_bytes(), program)
        # Another lab file: another key, nothing reused.
        other = self.plan("other", self.lab_text + "// changed\n")
        self.assertNotEqual(self.cache.key(other), key)
        self.assertFalse(self.cache.lookup(other, self.cache.key(other), programs))
        # Another copied input: another key.
        changed_input = self.plan("input", self.lab_text)
        (changed_input.folder / "lib" / "libsimt_core.a").write_bytes(b"core 2")
        self.assertNotEqual(self.cache.key(changed_input), key)
        # Another sandbox (the compile saw other files): another key.
        elsewhere = build_cache.BuildCache(self.cache.root, "sandbox user")
        self.assertNotEqual(elsewhere.key(again), key)
        # A header the compiler read has changed: the same key, but not reused.
        self.header.write_text("// another version\n")
        later = self.plan("later", self.lab_text)
        self.assertFalse(self.cache.lookup(later, self.cache.key(later), programs))
        self.assertFalse((later.folder / "bin" / "worker").exists())

    def test_a_changed_entry_is_not_reused(self):
        programs = [Path("bin/worker")]
        first = self.plan("first", self.lab_text)
        key = self.cache.key(first)
        self.built(first, b"the program")
        self.cache.store(first, key, programs)
        (self.cache.root / key / "programs" / "bin" / "worker").write_bytes(b"replaced")
        again = self.plan("again", self.lab_text)
        self.assertFalse(self.cache.lookup(again, key, programs))
        shutil.rmtree(self.cache.root / key)
        self.assertFalse(self.cache.lookup(again, key, programs))


if __name__ == "__main__":
    unittest.main()
