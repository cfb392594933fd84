"""Pointers for a code review (scanlab_grader/review.py): the constructs that the attacks on the
grader use are named with their lines; the course's own stubs and solutions have none."""

import random
import sys
import tempfile
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import support
from scanlab_grader import review

PLANTED = {
    "#line 1 \"tests/labs/lab01_naive_test.cpp\"": "#line directive",
    "    _exit(0);": "ends the process",
    "    std::atexit(forge);": "exit handler",
    "__attribute__((constructor)) void early() {}": "code before main",
    "#include <doctest/doctest.h>": "doctest",
    "    std::ifstream cmdline(\"/proc/self/cmdline\");": "/proc",  # and file access
    "    if (fork() == 0) setsid();": "new processes",
    "    cudaMemcpy(h, d_in, n * 4, cudaMemcpyDeviceToHost);": "device-to-host copy",
    "    std::inclusive_scan(h.begin(), h.end(), h.begin());": "host scan algorithm",
}


class Review(unittest.TestCase):
    def test_course_code_has_no_flags(self):
        files = sorted((support.REPO / "labs").glob("*/*.cu"))
        files += sorted((support.REPO / "solutions").glob("*/*.cu"))
        self.assertTrue(files)
        for path in files:
            self.assertEqual(review.flags(path, path.name), [], path)

    def test_planted_constructs_are_named_with_their_lines(self):
        stub = (support.REPO / "labs" / "01_naive" / "naive_scan.cu").read_text().splitlines()
        chosen = random.sample(sorted(PLANTED), random.randint(1, len(PLANTED)))
        lines = list(stub)
        where = {}
        for line in chosen:
            at = random.randint(0, len(lines))
            lines.insert(at, line)
        for line in chosen:
            where[line] = lines.index(line) + 1
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "naive_scan.cu"
            path.write_text("\n".join(lines) + "\n")
            found = review.flags(path, "01_naive/naive_scan.cu")
        text = "\n".join(found)
        for line in chosen:
            flag = next((f for f in found if PLANTED[line] in f), None)
            self.assertIsNotNone(flag, f"{line!r} not flagged:\n{text}")
            self.assertIn(str(where[line]), flag.split(": ", 1)[0])
        kinds = {PLANTED[line] for line in chosen}
        if "/proc" in kinds:
            kinds.add("file or descriptor access")
        self.assertEqual(len(found), len(kinds), text)

    def test_comments_are_not_flagged(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "x.cu"
            path.write_text("// never call exit(0) or fork() here\nint x;\n")
            self.assertEqual(review.flags(path, "x.cu"), [])


if __name__ == "__main__":
    unittest.main()
