"""Finding a submission's lab files in the layouts students hand in, and staging them."""

import os
import unittest
import zipfile
from pathlib import Path

import sys as _sys
from pathlib import Path as _Path

_sys.path.insert(0, str(_Path(__file__).resolve().parent))
import support
from scanlab_grader import cli, rubric, tree

PATTERNS = {lab.number: ["*.cu", "*.cuh"] for lab in tree.discover_labs(support.REPO)}


class Submissions(support.InTempDir):
    def setUp(self):
        super().setUp()
        self.labs = [lab for lab in tree.discover_labs(support.REPO) if lab.number in ("00", "01")]

    def put(self, rel: str, text: str = "// x\n") -> Path:
        path = self.dir / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        return path

    def collect(self, root: Path) -> tree.Overlay:
        return tree.collect_submission(root, self.labs, PATTERNS)

    def test_discover_labs(self):
        numbers = [lab.number for lab in tree.discover_labs(support.REPO)]
        self.assertEqual(numbers[:2], ["00", "01"])
        self.assertEqual(numbers, sorted(numbers))

    def test_labs_folder(self):
        self.put("labs/01_naive/naive_scan.cu", "A")
        self.put("labs/01_naive/naive_scan.h", "header: not taken")
        self.put("labs/01_naive/helpers.cuh", "H")
        self.put("labs/01_naive/README.md", "not taken")
        overlay = self.collect(self.dir / "labs")
        self.assertEqual(set(overlay.for_lab("01_naive")), {"naive_scan.cu", "helpers.cuh"})
        self.assertEqual(overlay.for_lab("00_sequential"), {})

    def test_nested_zip_folder_and_loose_files(self):
        self.put("alice-hw/scan-lab/labs/00_sequential/sequential_scan.cu", "S")
        self.put("naive_scan.cu", "loose")
        overlay = self.collect(self.dir)
        self.assertIn("sequential_scan.cu", overlay.for_lab("00_sequential"))
        self.assertEqual(overlay.for_lab("01_naive")["naive_scan.cu"].read_text(), "loose")

    def test_a_lab_folder_itself(self):
        self.put("01_naive/naive_scan.cu", "A")
        overlay = self.collect(self.dir / "01_naive")
        self.assertIn("naive_scan.cu", overlay.for_lab("01_naive"))

    def test_folder_copy_wins_over_a_loose_copy(self):
        self.put("labs/01_naive/naive_scan.cu", "in folder")
        self.put("old/naive_scan.cu", "loose")
        overlay = self.collect(self.dir)
        self.assertEqual(overlay.for_lab("01_naive")["naive_scan.cu"].read_text(), "in folder")
        self.assertTrue(any("ignored" in note for note in overlay.notes))

    def test_symlinks_and_build_folders_are_ignored(self):
        self.put("labs/01_naive/naive_scan.cu", "A")
        self.put("labs/build/01_naive/naive_scan.cu", "from a build folder")
        os.symlink("/etc/passwd", self.dir / "labs" / "01_naive" / "evil.cu")
        overlay = self.collect(self.dir / "labs")
        self.assertEqual(set(overlay.for_lab("01_naive")), {"naive_scan.cu"})
        self.assertEqual(overlay.for_lab("01_naive")["naive_scan.cu"].read_text(), "A")

    def test_zip_archive(self):
        archive = self.dir / "sub.zip"
        with zipfile.ZipFile(archive, "w") as z:
            z.writestr("labs/01_naive/naive_scan.cu", "Z")
        root = tree.unpack_if_archive(archive, self.dir / "work")
        self.assertEqual(self.collect(root).for_lab("01_naive")["naive_scan.cu"].read_text(), "Z")

    def test_zip_with_unsafe_paths_is_refused(self):
        archive = self.dir / "evil.zip"
        with zipfile.ZipFile(archive, "w") as z:
            z.writestr("../../outside.cu", "x")
        with self.assertRaises(ValueError):
            tree.unpack_if_archive(archive, self.dir / "work")

    def test_archives_are_held_to_one_size_limit_whatever_their_format(self):
        """A .tar.gz that unpacks to more than 200 MiB is refused before anything is written,
        as the same bytes in a .zip are (issue 32); so is one with too many entries."""
        import tarfile
        import zipfile
        big = self.dir / "big.bin"
        with open(big, "wb") as f:  # sparse: 201 MiB of zeros, cheap to make and to pack
            f.truncate(201 * 1024 * 1024)
        for name in ("sub.tar.gz", "sub.zip"):
            archive = self.dir / name
            if name.endswith(".zip"):
                with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as z:
                    z.write(big, "labs/01_naive/naive_scan.cu")
            else:
                with tarfile.open(archive, "w:gz") as t:
                    t.add(big, "labs/01_naive/naive_scan.cu")
            work = self.dir / f"work-{name}"
            with self.assertRaisesRegex(ValueError, "more than the 200 MiB"):
                tree.unpack_if_archive(archive, work)
            self.assertEqual(list((work / "submission").rglob("*")), [])
        many = self.dir / "many.tar"
        with tarfile.open(many, "w") as t:
            for i in range(tree.MAX_UNPACKED_ENTRIES + 1):
                info = tarfile.TarInfo(f"f{i}")
                t.addfile(info)
        with self.assertRaisesRegex(ValueError, "entries"):
            tree.unpack_if_archive(many, self.dir / "work-many")

    def test_staging_overlays_and_removes_stale_files(self):
        pristine = support.REPO / "labs"
        staging = self.dir / "staging"
        self.put("sub/01_naive/naive_scan.cu", "mine")
        self.put("sub/01_naive/extra.cuh", "extra")
        tree.stage_labs(pristine, staging, self.collect(self.dir / "sub"))
        self.assertEqual((staging / "01_naive" / "naive_scan.cu").read_text(), "mine")
        self.assertEqual((staging / "01_naive" / "naive_scan.h").read_bytes(),
                         (pristine / "01_naive" / "naive_scan.h").read_bytes())
        self.assertTrue((staging / "01_naive" / "extra.cuh").exists())
        stamp = (staging / "00_sequential" / "sequential_scan.cu").stat().st_mtime_ns
        # A second submission without the extra file: it disappears; unchanged files keep
        # their time stamps (no rebuild).
        tree.stage_labs(pristine, staging, tree.Overlay())
        self.assertFalse((staging / "01_naive" / "extra.cuh").exists())
        self.assertEqual((staging / "01_naive" / "naive_scan.cu").read_bytes(),
                         (pristine / "01_naive" / "naive_scan.cu").read_bytes())
        self.assertEqual((staging / "00_sequential" / "sequential_scan.cu").stat().st_mtime_ns,
                         stamp)

    def test_select_labs(self):
        labs = tree.discover_labs(support.REPO)
        self.assertEqual([l.number for l in tree.select_labs(labs, "1,00")], ["00", "01"])
        self.assertEqual([l.number for l in tree.select_labs(labs, "01_naive")], ["01"])
        with self.assertRaises(ValueError):
            tree.select_labs(labs, "42")


class SubmissionArgument(support.InTempDir):
    """grade.py's SUBMISSION must be a folder, an archive or a lab file: anything else (a
    README, a path that does not exist) is a usage error, before anything is built."""

    def check(self, path: Path) -> None:
        cli.check_submission(path, rubric.load(support.REPO / "grading" / "rubric.toml"),
                             support.REPO)

    def test_folder_archive_and_lab_file(self):
        for name in ("labs/", "labs.zip", "labs.tar.gz", "naive_scan.cu"):
            path = self.dir / name
            if name.endswith("/"):
                path.mkdir()
            else:
                path.write_text("x")
            self.check(path)

    def test_other_file(self):
        readme = self.dir / "README.md"
        readme.write_text("x")
        with self.assertRaisesRegex(ValueError, "README.md is a file, not a folder"):
            self.check(readme)

    def test_missing(self):
        with self.assertRaisesRegex(ValueError, "no such submission: .*nonexistent"):
            self.check(self.dir / "nonexistent")


if __name__ == "__main__":
    unittest.main()
