"""Compiler messages a student is shown (cmake.shown_lines / error_excerpt): only those about
files the student may see, never a hidden test's or another file's lines."""

import random
import sys
import tempfile
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import support  # noqa: F401
from scanlab_grader import cmake

LAB = "/tree/labs/01_naive/naive_scan.cu"
HIDDEN = "/tree/grading/hidden/lab01_naive_hidden_test.cpp"


def allowed(path: str) -> bool:
    return path.startswith(("/tree/labs/", "/usr/include/"))


def diagnostic(path: str, line: int, text: str, code: str) -> list[str]:
    return [f"{path}:{line}:5: error: {text}", f"{line:5} | {code}", "      |     ^~~"]


class CompileErrors(unittest.TestCase):
    def test_only_allowed_files_are_shown(self):
        secret = f"SECRET_{random.randint(0, 10**9)}"
        own = [diagnostic(LAB, random.randint(1, 200), "expected ';'", f"int x{i}")
               for i in range(random.randint(1, 4))]
        hidden = [diagnostic(HIDDEN, random.randint(1, 200), f"'{secret}' was not declared",
                             f"CHECK({secret} == 1);") for _ in range(random.randint(1, 4))]
        passwd = [diagnostic("/etc/passwd", 1, "'root' does not name a type",
                             f"root:x:0:0:{secret}:/root:/bin/bash")]
        blocks = own + hidden + passwd
        random.shuffle(blocks)
        lines = [f"In file included from {LAB}:3:"] + [line for b in blocks for line in b]
        lines += ["FAILED: labs/x.o", f"/usr/bin/c++ -I/tree/grading/hidden -c {LAB} -o x.o",
                  "compilation terminated."]
        shown, dropped = cmake.shown_lines(lines, allowed)
        text = "\n".join(shown)
        self.assertNotIn(secret, text)
        self.assertNotIn("/tree/grading", text)
        self.assertEqual(dropped, len(hidden) + len(passwd))
        for block in own:
            for line in block:
                self.assertIn(line, shown)
        self.assertIn("compilation terminated.", shown)

    def test_excerpt_says_how_many_were_left_out(self):
        with tempfile.TemporaryDirectory() as tmp:
            log = Path(tmp) / "build.log"
            log.write_text("\n".join(diagnostic(HIDDEN, 4, "boom", "x") +
                                     diagnostic(LAB, 9, "bad", "y")) + "\n")
            text = cmake.error_excerpt(log, {"/tree/": ""}, allowed=allowed)
        self.assertIn("labs/01_naive/naive_scan.cu:9:5: error: bad", text)
        self.assertNotIn("boom", text)
        self.assertIn("1 message(s) about files that are not part of the lab's sources", text)

    def test_relative_paths_resolve_against_the_build_folder(self):
        lines = diagnostic("../grading/hidden/h.cpp", 2, "x", "y")
        shown, dropped = cmake.shown_lines(lines, allowed, Path("/tree/build"))
        self.assertEqual((shown, dropped), ([], 1))
        lines = diagnostic("../labs/01_naive/naive_scan.cu", 2, "x", "y")
        shown, dropped = cmake.shown_lines(lines, allowed, Path("/tree/build"))
        self.assertEqual((len(shown), dropped), (3, 0))


if __name__ == "__main__":
    unittest.main()
