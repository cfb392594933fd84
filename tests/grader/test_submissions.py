"""The planted submissions' assembler (tests/grader/submissions/assemble.py): every recipe of the
catalog applies to today's stub and solution, edits land where their line is, and a recipe that
no longer fits is an error that names it. Fast (no build)."""

import random
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path
from unittest import mock

sys.path.insert(0, str(Path(__file__).resolve().parent))
import support
from support import assemble

PLACEHOLDERS = {"@REPO@", "@OUT@", "@FIFO@"}


class Catalog(unittest.TestCase):
    def test_every_recipe_assembles_with_its_pieces(self):
        catalog = assemble.catalog()
        self.assertGreaterEqual(len(catalog), 16)
        for name, recipe in catalog.items():
            with self.subTest(name=name):
                text = assemble.source(name)
                self.assertTrue(text.startswith(f'// Planted submission "{name}"'))
                for fragment in recipe.get("prepend", []):
                    self.assertIn((assemble.FRAGMENTS / fragment).read_text(), text)
                for edit in recipe.get("edits", []):
                    for kind in assemble.EDIT_KINDS:
                        if kind in edit:
                            self.assertIn(edit[kind].strip("\n"), text)
                # The base's end (the instantiations the tests call) is still there.
                root = recipe["base"]
                while root not in assemble.BASE_ROOTS:
                    root = catalog[root]["base"]
                last_line = assemble.base_path(root, assemble.lab_of(name)).read_text().rstrip().splitlines()[-1]
                self.assertTrue(text.rstrip().endswith(last_line))

    def test_every_fragment_is_used(self):
        used = {f for recipe in assemble.catalog().values() for f in recipe.get("prepend", [])}
        self.assertEqual(used, {path.name for path in assemble.FRAGMENTS.iterdir()})

    def test_placeholders_are_replaced_where_given(self):
        with tempfile.TemporaryDirectory() as tmp:
            value = f"/tmp/out-{random.randrange(10**9)}"
            labs = assemble.assemble("daemon", Path(tmp) / "labs", {"@OUT@": value})
            text = (labs / "01_naive" / "naive_scan.cu").read_text()
        self.assertIn(f'std::ofstream("{value}/results.json")', text)
        self.assertNotIn("@OUT@", text)
        self.assertIn("@OUT@", assemble.source("daemon"))
        for name in assemble.names():
            left = {p for p in PLACEHOLDERS if p in assemble.source(name)}
            self.assertLessEqual(left, PLACEHOLDERS)

    def test_a_planted_submission_can_build_on_another(self):
        base = assemble.source("host_scan").splitlines()
        laundered = assemble.source("host_scan_laundered").splitlines()
        # Apart from its header comment, everything of host_scan but its upload stays.
        first_line_of_solution = assemble.base_path("solution").read_text().splitlines()[0]
        body = base[base.index(first_line_of_solution):]
        kept = [line for line in body if "cudaMemcpyHostToDevice" not in line]
        self.assertTrue(set(kept) <= set(laundered))
        self.assertFalse([line for line in laundered if "cudaMemcpyHostToDevice" in line])


class Recipes(support.InTempDir):
    """Recipes written here, applied to the real stub."""

    def setUp(self):
        super().setUp()
        (self.dir / "fragments").mkdir()
        self.stub = assemble.base_path("stub").read_text().splitlines(keepends=True)
        patches = [mock.patch.object(assemble, "CATALOG", self.dir / "catalog.toml"),
                   mock.patch.object(assemble, "FRAGMENTS", self.dir / "fragments")]
        for patch in patches:
            patch.start()
            self.addCleanup(patch.stop)

    def write_catalog(self, text: str):
        (self.dir / "catalog.toml").write_text(text)

    def test_edits_land_at_their_line(self):
        def found_once(text: str) -> bool:
            return sum(text in other for other in self.stub) == 1

        unique = [i for i, line in enumerate(self.stub)
                  if len(line.strip()) > 12 and found_once(line.strip())]
        self.assertTrue(unique)
        for kind in assemble.EDIT_KINDS:
            with self.subTest(kind=kind):
                at = random.choice(unique)
                anchor = self.stub[at].strip()
                marker = f"int planted_{random.randrange(10**6)} = 0;"
                fragment = f"// fragment {random.randrange(10**6)}\n"
                (self.dir / "fragments" / "piece.cu").write_text(fragment)
                self.write_catalog(
                    f"[x]\nabout = 'a test'\nbase = 'stub'\nprepend = ['piece.cu']\n"
                    f"edits = [{{ line = '''{anchor}''', {kind} = '{marker}' }}]\n")
                lines = assemble.source("x").splitlines(keepends=True)
                expected = list(self.stub)
                if kind == "before":
                    expected.insert(at, marker + "\n")
                elif kind == "after":
                    expected.insert(at + 1, marker + "\n")
                else:
                    expected[at] = marker + "\n"
                self.assertEqual(lines[1:], [fragment] + expected)
                self.assertEqual(
                    lines[0], '// Planted submission "x" (tests/grader/submissions): a test\n')

    def test_a_line_found_twice_or_never_is_an_error(self):
        includes = sum("#include" in line for line in self.stub)
        self.assertGreater(includes, 1)
        for anchor, found in (("#include", f"found {includes}"),
                              (f"no such line {random.random()}", "found 0")):
            self.write_catalog(f"[x]\nabout = 'a'\nbase = 'stub'\n"
                               f"edits = [{{ line = '{anchor}', after = 'int y;' }}]\n")
            with self.assertRaisesRegex(assemble.RecipeError, f"^x: .*{found}"):
                assemble.source("x")

    def test_bad_recipes_are_named(self):
        cases = {
            "[x]\nabout = 'a'\nbase = 'y'\n[y]\nabout = 'b'\nbase = 'x'\n": "leads back to itself",
            "[x]\nabout = 'a'\nbase = 'stub'\nprepend = ['missing.cu']\n":
                "missing.cu does not exist",
            "[x]\nabout = 'a'\nbase = 3\n": "`base` must be",
            "[x]\nabout = 'a'\nbase = 'stub'\nextra = 1\n": "unknown keys",
            "[x]\nbase = 'stub'\n": "`about`",
            "[x]\nabout = 'a'\nbase = 'stub'\nedits = [{ line = 'namespace', after = 'a', "
            "before = 'b' }]\n": "exactly one of",
        }
        for catalog, message in cases.items():
            with self.subTest(message=message):
                self.write_catalog(catalog)
                with self.assertRaisesRegex(assemble.RecipeError, message):
                    assemble.source("x")
        with self.assertRaisesRegex(assemble.RecipeError,
                                    "no planted submission 'z'; there are: x"):
            assemble.source("z")


class CommandLine(unittest.TestCase):
    def run_assemble(self, *args):
        return subprocess.run([sys.executable, str(support.SUBMISSIONS / "assemble.py"), *args],
                              capture_output=True, text=True)

    def test_writes_the_lab_folder(self):
        with tempfile.TemporaryDirectory() as tmp:
            fifo = f"/tmp/pipe-{random.randrange(10**9)}"
            proc = self.run_assemble("fifo_include", tmp, "--set", f"@FIFO@={fifo}")
            self.assertEqual(proc.returncode, 0, proc.stderr)
            text = (Path(tmp) / "01_naive" / "naive_scan.cu").read_text()
        self.assertIn(f'#include "{fifo}"', text)
        self.assertEqual(text, assemble.source("fifo_include").replace("@FIFO@", fifo))

    def test_errors(self):
        proc = self.run_assemble("no_such_attack", "/nonexistent/x")
        self.assertEqual(proc.returncode, 2)
        self.assertIn("no planted submission 'no_such_attack'", proc.stderr)
        proc = self.run_assemble("daemon", "/tmp/x", "--set", "OUT=1")
        self.assertEqual(proc.returncode, 2)
        self.assertIn("expected @NAME@=VALUE", proc.stderr)
        proc = self.run_assemble("--list")
        self.assertEqual(proc.returncode, 0)
        self.assertEqual(len(proc.stdout.splitlines()), len(assemble.names()))


if __name__ == "__main__":
    unittest.main()
