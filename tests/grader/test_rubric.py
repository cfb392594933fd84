"""The rubric: loading, validation, and how a lab's points are split over its test cases."""

import unittest

import sys as _sys
from pathlib import Path as _Path

_sys.path.insert(0, str(_Path(__file__).resolve().parent))
import support  # noqa: F401  (puts tools/grader on sys.path)
from scanlab_grader import rubric, tree


def parse(text: str) -> rubric.Rubric:
    import tomllib
    return rubric.parse(tomllib.loads(text))


class ProjectRubric(unittest.TestCase):
    def test_grading_rubric_loads_and_covers_the_labs(self):
        r = rubric.load(support.REPO / "grading" / "rubric.toml")
        for lab in tree.discover_labs(support.REPO):
            self.assertGreater(r.lab(lab.number).points, 0, lab.folder)
        self.assertEqual(r.lab("01").hidden_points, 2)
        self.assertIsNotNone(r.lab("01").speed)
        # What is timed is a lab's descriptor: every lab with speed points has one.
        for number, lab in r.labs.items():
            if lab.speed is not None and lab.speed.points > 0:
                self.assertTrue((support.REPO / "tools" / "lab_descriptors" /
                                 f"lab{number}.cpp").is_file(), number)

    def test_fast_rubric_loads(self):
        r = rubric.load(support.FAST_RUBRIC)
        self.assertLess(r.lab("01").timeout_s, 60)


class Split(unittest.TestCase):
    names = [f"case {i}" for i in range(8)]

    def test_equal_split_by_default(self):
        r = parse("[labs.03]\npoints = 8\n")
        split = rubric.split_points(r.lab("03"), self.names, [])
        self.assertEqual(set(split.points.values()), {1.0})
        self.assertAlmostEqual(sum(split.points.values()), 8)

    def test_unlisted_lab_gets_default_points(self):
        r = parse("[defaults]\nlab_points = 4\n")
        self.assertEqual(r.lab("09").points, 4)
        self.assertAlmostEqual(sum(rubric.split_points(r.lab("09"), self.names, []).points.values()), 4)

    def test_fixed_points_and_weights(self):
        r = parse('[labs.01]\npoints = 10\ntests = [{pattern = "case 0", points = 3},'
                  '{pattern = "case [12]", weight = 2}, {pattern = "case *", weight = 1}]\n')
        split = rubric.split_points(r.lab("01"), self.names, [])
        self.assertAlmostEqual(split.points["case 0"], 3)
        # 7 points left for weights 2+2+1*5 = 9
        self.assertAlmostEqual(split.points["case 1"], 7 * 2 / 9, places=3)  # 1/10000ths
        self.assertAlmostEqual(split.points["case 7"], 7 / 9, places=3)
        self.assertAlmostEqual(sum(split.points.values()), 10)

    def test_first_matching_rule_wins(self):
        r = parse('[labs.01]\npoints = 2\ntests = [{pattern = "case 0", weight = 3},'
                  '{pattern = "case *", points = 0}]\n')
        split = rubric.split_points(r.lab("01"), self.names, [])
        self.assertAlmostEqual(split.points["case 0"], 2)
        self.assertAlmostEqual(split.points["case 5"], 0)

    def test_hidden_points_split_separately(self):
        r = parse("[labs.01]\npoints = 10\nhidden_points = 2\n")
        split = rubric.split_points(r.lab("01"), self.names, ["hidden: a", "hidden: b"])
        self.assertAlmostEqual(split.points["hidden: a"], 1)
        self.assertAlmostEqual(split.points["case 0"], 1)
        self.assertAlmostEqual(sum(split.points.values()), 10)

    def test_without_hidden_tests_the_visible_ones_share_everything(self):
        r = parse("[labs.01]\npoints = 10\nhidden_points = 2\n")
        split = rubric.split_points(r.lab("01"), self.names, [])
        self.assertAlmostEqual(sum(split.points.values()), 10)

    def test_fixed_points_over_the_pool_is_an_error(self):
        r = parse('[labs.01]\npoints = 2\ntests = [{pattern = "case *", points = 1}]\n')
        with self.assertRaises(rubric.RubricError):
            rubric.split_points(r.lab("01"), self.names, [])

    def test_unused_pattern_reported(self):
        r = parse('[labs.01]\ntests = [{pattern = "nothing*", weight = 2}]\n')
        self.assertEqual(rubric.unused_patterns(r.lab("01"), self.names), ["nothing*"])


class Validation(unittest.TestCase):
    def bad(self, text: str, needle: str):
        with self.assertRaises(rubric.RubricError) as caught:
            parse(text)
        self.assertIn(needle, str(caught.exception))

    def test_errors_name_the_key(self):
        self.bad("[labs.01]\npoints = -1\n", "labs.01.points")
        self.bad("[labs.01]\npointz = 3\n", "pointz")
        self.bad("[labs.1]\npoints = 3\n", "two digits")
        self.bad('[labs.01]\nvisibility = "sometimes"\n', "visibility")
        self.bad("[labs.01]\npoints = 2\nhidden_points = 3\n", "hidden_points")
        self.bad('[labs.01]\ntests = [{pattern = "x"}]\n', "points or weight")
        self.bad('[labs.01]\nspeed = {points = 1, header = "naive_scan.h"}\n',
                 "labs.01.speed.header: what is timed comes from the lab's descriptor")
        self.bad('[labs.01]\nspeed = {points = 1, call = "f(d_in)"}\n', "labs.01.speed.call")
        self.bad('[labs.01]\nspeed = {points = 1, variant = ""}\n', "labs.01.speed.variant")
        self.bad('[labs.01]\nspeed = {points = 1, n = 0}\n', "labs.01.speed.n")
        self.bad('[labs.01]\nspeed = {points = 1, kind = "both"}\n', "labs.01.speed.kind")
        self.bad("version = 2\n", "version")
        self.bad("[defaults]\ntimeout_s = \"soon\"\n", "defaults.timeout_s")
        self.bad("[defaults]\ndisk_limit_mb = -1\n", "defaults.disk_limit_mb")
        self.bad("[labs.01]\ndisk_limit_mb = 5\n", "disk_limit_mb")  # a submission's, not a lab's

    def test_speed_leaves_what_the_rubric_omits_to_the_descriptor(self):
        spec = parse("[labs.04]\nspeed = {points = 3}\n").lab("04").speed
        self.assertEqual((spec.points, spec.variant, spec.n, spec.kind), (3, "", 0, ""))
        spec = parse('[defaults]\nspeed_tolerance = 1.5\n[labs.07]\nspeed = {points = 4, '
                     'variant = "separate", n = 4096, kind = "exclusive"}\n').lab("07").speed
        self.assertEqual((spec.variant, spec.n, spec.kind, spec.tolerance),
                         ("separate", 4096, "exclusive", 1.5))

    def test_disk_limit_of_the_submission(self):
        self.assertEqual(parse("").disk_limit_mb, 1024)
        self.assertEqual(parse("[defaults]\ndisk_limit_mb = 0\n").disk_limit_mb, 0)

    def test_limits_and_env_inherit_from_defaults(self):
        r = parse('[defaults]\ntimeout_s = 7\nenv = {A = "1"}\n[labs.02]\nenv = {B = "2"}\n')
        self.assertEqual(r.lab("02").timeout_s, 7)
        self.assertEqual(r.lab("02").env, {"A": "1", "B": "2"})
        self.assertEqual(r.lab("05").env, {"A": "1"})

    def test_not_toml(self):
        import tempfile
        from pathlib import Path
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "rubric.toml"
            path.write_text("[labs.01\n")
            with self.assertRaises(rubric.RubricError):
                rubric.load(path)


if __name__ == "__main__":
    unittest.main()
