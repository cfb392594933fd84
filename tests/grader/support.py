"""Shared helpers of the grader's tests: paths, the shared build folder, and a checker for
Gradescope's results.json schema."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
GRADER = REPO / "tools" / "grader"
SUBMISSIONS = Path(__file__).resolve().parent / "submissions"
FAST_RUBRIC = Path(__file__).resolve().parent / "rubric_fast.toml"

sys.path.insert(0, str(GRADER))
sys.path.insert(0, str(SUBMISSIONS))
import assemble  # noqa: E402,F401  (the planted submissions: assemble.assemble(name, labs_dir))


LAB00_SOLUTION = REPO / "solutions" / "00_sequential"


class GradesInSharedBuild(unittest.TestCase):
    """A test class that grades in the shared build folder (`cls.build`, shared_build_dir()),
    with a temporary folder for the whole class (`cls.root`); skipped in a tree without
    solutions/ (a handed-out tree)."""

    tmp_prefix = "scanlab-grader-test-"

    @classmethod
    def setUpClass(cls):
        if not LAB00_SOLUTION.is_dir():
            raise unittest.SkipTest("needs solutions/00_sequential (an instructor's tree)")
        cls.tmp = tempfile.TemporaryDirectory(prefix=cls.tmp_prefix)
        cls.root = Path(cls.tmp.name)
        cls.build = shared_build_dir()

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()


class InTempDir(unittest.TestCase):
    """A test case with a fresh folder of its own, `self.dir`, removed after each test."""

    def setUp(self):
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        self.dir = Path(tmp.name)


def shared_build_dir() -> Path:
    """One build folder for every test that builds (the emulator is built once). Kept between
    runs, so a second run of the tests only recompiles what changed. SCANLAB_GRADER_TEST_BUILD
    overrides it."""
    return Path(os.environ.get("SCANLAB_GRADER_TEST_BUILD", REPO / "build-grader-tests")).resolve()


def run_tool(script: str, *args: str, timeout: float = 1800) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(GRADER / script), *args], capture_output=True,
                          text=True, timeout=timeout, cwd=REPO)


VISIBILITIES = {"hidden", "after_due_date", "after_published", "visible"}


def check_results_schema(test, data: dict) -> None:
    """Asserts that `data` is a valid Gradescope results.json as the grader writes it."""
    test.assertIsInstance(data, dict)
    for key in ("score", "execution_time", "output", "tests"):
        test.assertIn(key, data)
    test.assertIsInstance(data["score"], (int, float))
    test.assertTrue(math.isfinite(data["score"]))
    test.assertIsInstance(data["execution_time"], int)
    test.assertIsInstance(data["output"], str)
    test.assertIsInstance(data["tests"], list)
    allowed_top = {"score", "execution_time", "output", "output_format", "test_output_format",
                   "test_name_format", "visibility", "stdout_visibility", "extra_data", "tests",
                   "leaderboard"}
    test.assertLessEqual(set(data), allowed_top, "unknown top-level keys for Gradescope")
    total = 0.0
    names = set()
    for entry in data["tests"]:
        test.assertLessEqual(set(entry), {"score", "max_score", "status", "name", "name_format",
                                          "number", "output", "output_format", "tags",
                                          "visibility", "extra_data"})
        for key in ("name", "score", "max_score", "status", "output", "visibility"):
            test.assertIn(key, entry)
        test.assertIn(entry["status"], ("passed", "failed"))
        test.assertIn(entry["visibility"], VISIBILITIES)
        test.assertGreaterEqual(entry["score"], 0)
        test.assertLessEqual(entry["score"], entry["max_score"] + 1e-9)
        if entry["status"] == "passed":
            test.assertAlmostEqual(entry["score"], entry["max_score"], places=3)
        test.assertNotIn(entry["name"], names, "test names must be unique")
        names.add(entry["name"])
        if "hidden" in entry.get("tags", []):
            test.assertIn("[hidden]", entry["name"])
            test.assertNotEqual(entry["visibility"], "visible")
        total += entry["score"]
    test.assertAlmostEqual(total, data["score"], places=2)
    if "extra_data" in data and "max_score" in data["extra_data"]:
        max_total = sum(e["max_score"] for e in data["tests"])
        test.assertAlmostEqual(max_total, data["extra_data"]["max_score"], places=2)
    json.dumps(data)  # serializable


def load_results(test, path: Path) -> dict:
    test.assertTrue(path.exists(), f"{path} was not written")
    data = json.loads(path.read_text())
    check_results_schema(test, data)
    return data


def lab_tests(data: dict, number: str) -> list[dict]:
    return [t for t in data["tests"] if t["name"].startswith(f"lab{number} ")]


def lab_score(data: dict, number: str) -> tuple[float, float]:
    tests = lab_tests(data, number)
    return sum(t["score"] for t in tests), sum(t["max_score"] for t in tests)


def failed_names(data: dict, number: str) -> set[str]:
    return {t["name"].split(": ", 1)[1] for t in lab_tests(data, number) if t["status"] == "failed"}
