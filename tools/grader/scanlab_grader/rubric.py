"""grading/rubric.toml: points per lab and per test case, limits, and speed grading.

See docs/grading.md ("The rubric") for the format. The split of a lab's points over its test
cases is computed here; everything is validated on load so that a typo in the rubric stops the
grader before it builds anything.
"""

from __future__ import annotations

import fnmatch
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

VISIBILITIES = ("visible", "hidden", "after_due_date", "after_published")


class RubricError(ValueError):
    pass


@dataclass
class TestRule:
    pattern: str  # fnmatch pattern on the test case name (case-sensitive)
    points: float | None = None  # fixed points for each matching test case
    weight: float | None = None  # share of what is left, relative to the default 1


@dataclass
class SpeedSpec:
    """Grading policy only: what is timed is the lab's descriptor (tools/lab_descriptors/)."""
    points: float = 0.0
    variant: str = ""  # the descriptor's variant to time; "": its first
    kind: str = ""  # "inclusive" or "exclusive"; "": the kind the descriptor shows
    n: int = 0  # elements per call; 0: the descriptor's (a one-block lab's most, else 2^20)
    tolerance: float = 1.2  # full points up to this many times the reference time


@dataclass
class LabRubric:
    number: str
    points: float
    hidden_points: float | None = None
    enabled: bool = True
    tests: list[TestRule] = field(default_factory=list)
    timeout_s: float = 120.0
    test_timeout_s: float = 60.0
    isolation_budget_s: float = 240.0
    build_timeout_s: float = 900.0
    memory_limit_mb: int = 8192
    build_memory_limit_mb: int = 8192  # address space of each compiler and linker; 0: none
    student_files: list[str] = field(default_factory=lambda: ["*.cu", "*.cuh"])
    hidden_visibility: str = "after_published"
    visibility: str = "visible"
    env: dict[str, str] = field(default_factory=dict)
    speed: SpeedSpec | None = None


@dataclass
class Rubric:
    path: Path | None
    defaults: LabRubric
    labs: dict[str, LabRubric]
    time_budget_s: float = 3600.0  # all builds and runs of one submission together
    disk_limit_mb: int = 1024  # the files one submission may keep at a time; 0: no limit

    def lab(self, number: str) -> LabRubric:
        if number in self.labs:
            return self.labs[number]
        d = self.defaults
        return LabRubric(**{**d.__dict__, "number": number, "tests": list(d.tests),
                            "student_files": list(d.student_files), "env": dict(d.env)})


_LIMIT_KEYS = {
    "timeout_s": float,
    "test_timeout_s": float,
    "isolation_budget_s": float,
    "build_timeout_s": float,
    "memory_limit_mb": int,
    "build_memory_limit_mb": int,
}


def _number(value: Any, where: str, minimum: float = 0.0) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise RubricError(f"{where}: expected a number, got {value!r}")
    if value < minimum:
        raise RubricError(f"{where}: must be >= {minimum:g}, got {value!r}")
    return float(value)


def _check_keys(table: dict, allowed: set[str], where: str) -> None:
    unknown = sorted(set(table) - allowed)
    if unknown:
        raise RubricError(f"{where}: unknown key(s) {', '.join(unknown)} "
                          f"(known: {', '.join(sorted(allowed))})")


def _apply_common(target: LabRubric, table: dict, where: str) -> None:
    for key, kind in _LIMIT_KEYS.items():
        if key in table:
            value = _number(table[key], f"{where}.{key}")
            setattr(target, key, int(value) if kind is int else value)
    if "student_files" in table:
        files = table["student_files"]
        if not isinstance(files, list) or not all(isinstance(f, str) and f for f in files):
            raise RubricError(f"{where}.student_files: expected a list of glob patterns")
        target.student_files = list(files)
    for key in ("visibility", "hidden_visibility"):
        if key in table:
            if table[key] not in VISIBILITIES:
                raise RubricError(f"{where}.{key}: must be one of {', '.join(VISIBILITIES)}")
            setattr(target, key, table[key])
    if "env" in table:
        env = table["env"]
        if not isinstance(env, dict) or not all(isinstance(v, str) for v in env.values()):
            raise RubricError(f"{where}.env: expected a table of strings")
        target.env = {**target.env, **env}


def _parse_tests(items: Any, where: str) -> list[TestRule]:
    if not isinstance(items, list):
        raise RubricError(f"{where}: expected an array of tables")
    rules = []
    for i, item in enumerate(items):
        at = f"{where}[{i}]"
        if not isinstance(item, dict):
            raise RubricError(f"{at}: expected a table")
        _check_keys(item, {"pattern", "points", "weight"}, at)
        pattern = item.get("pattern")
        if not isinstance(pattern, str) or not pattern:
            raise RubricError(f"{at}.pattern: required, a test case name or glob pattern")
        if "points" in item and "weight" in item:
            raise RubricError(f"{at}: give points or weight, not both")
        points = _number(item["points"], f"{at}.points") if "points" in item else None
        weight = _number(item["weight"], f"{at}.weight") if "weight" in item else None
        if points is None and weight is None:
            raise RubricError(f"{at}: give points or weight")
        rules.append(TestRule(pattern, points, weight))
    return rules


def _parse_speed(table: Any, where: str, tolerance: float) -> SpeedSpec:
    if not isinstance(table, dict):
        raise RubricError(f"{where}: expected a table")
    for key in ("header", "call"):
        if key in table:
            raise RubricError(f"{where}.{key}: what is timed comes from the lab's descriptor "
                              f"(tools/lab_descriptors/), not the rubric; name a `variant` to "
                              f"time another than its first")
    _check_keys(table, {"points", "variant", "kind", "n", "tolerance"}, where)
    spec = SpeedSpec(tolerance=tolerance)
    if "points" in table:
        spec.points = _number(table["points"], f"{where}.points")
    if "variant" in table:
        if not isinstance(table["variant"], str) or not table["variant"]:
            raise RubricError(f"{where}.variant: expected the name of one of the descriptor's "
                              f"variants")
        spec.variant = table["variant"]
    if "kind" in table:
        if table["kind"] not in ("inclusive", "exclusive"):
            raise RubricError(f"{where}.kind: inclusive or exclusive")
        spec.kind = table["kind"]
    if "n" in table:
        spec.n = int(_number(table["n"], f"{where}.n", 1))
    if "tolerance" in table:
        spec.tolerance = _number(table["tolerance"], f"{where}.tolerance", 1.0)
    return spec


_DEFAULT_KEYS = set(_LIMIT_KEYS) | {"lab_points", "student_files", "visibility",
                                    "hidden_visibility", "env", "speed_tolerance",
                                    "time_budget_s", "disk_limit_mb"}
_LAB_KEYS = set(_LIMIT_KEYS) | {"points", "hidden_points", "enabled", "tests", "student_files",
                                "visibility", "hidden_visibility", "env", "speed"}


def parse(data: dict, path: Path | None = None) -> Rubric:
    where = str(path) if path else "rubric"
    _check_keys(data, {"version", "defaults", "labs"}, where)
    if data.get("version", 1) != 1:
        raise RubricError(f"{where}: version {data.get('version')!r} is not supported (1)")
    defaults_table = data.get("defaults", {})
    if not isinstance(defaults_table, dict):
        raise RubricError(f"{where}: [defaults] must be a table")
    _check_keys(defaults_table, _DEFAULT_KEYS, f"{where}: [defaults]")
    defaults = LabRubric(number="", points=10.0)
    if "lab_points" in defaults_table:
        defaults.points = _number(defaults_table["lab_points"], "defaults.lab_points")
    _apply_common(defaults, defaults_table, "defaults")
    time_budget_s = 3600.0
    if "time_budget_s" in defaults_table:
        time_budget_s = _number(defaults_table["time_budget_s"], "defaults.time_budget_s", 1.0)
    disk_limit_mb = 1024
    if "disk_limit_mb" in defaults_table:
        disk_limit_mb = int(_number(defaults_table["disk_limit_mb"], "defaults.disk_limit_mb"))
    tolerance = 1.2
    if "speed_tolerance" in defaults_table:
        tolerance = _number(defaults_table["speed_tolerance"], "defaults.speed_tolerance", 1.0)

    labs: dict[str, LabRubric] = {}
    labs_table = data.get("labs", {})
    if not isinstance(labs_table, dict):
        raise RubricError(f"{where}: [labs] must be a table")
    for number, table in labs_table.items():
        at = f"labs.{number}"
        if not (isinstance(number, str) and len(number) == 2 and number.isdigit()):
            raise RubricError(f"{at}: lab keys are two digits, e.g. [labs.01]")
        if not isinstance(table, dict):
            raise RubricError(f"{at}: expected a table")
        _check_keys(table, _LAB_KEYS, at)
        lab = LabRubric(**{**defaults.__dict__, "number": number, "tests": [],
                           "student_files": list(defaults.student_files),
                           "env": dict(defaults.env)})
        if "points" in table:
            lab.points = _number(table["points"], f"{at}.points")
        if "hidden_points" in table:
            lab.hidden_points = _number(table["hidden_points"], f"{at}.hidden_points")
            if lab.hidden_points > lab.points:
                raise RubricError(f"{at}.hidden_points: more than the lab's points")
        if "enabled" in table:
            if not isinstance(table["enabled"], bool):
                raise RubricError(f"{at}.enabled: true or false")
            lab.enabled = table["enabled"]
        if "tests" in table:
            lab.tests = _parse_tests(table["tests"], f"{at}.tests")
        _apply_common(lab, table, at)
        if "speed" in table:
            lab.speed = _parse_speed(table["speed"], f"{at}.speed", tolerance)
        labs[number] = lab
    return Rubric(path, defaults, labs, time_budget_s, disk_limit_mb)


def load(path: Path) -> Rubric:
    try:
        with open(path, "rb") as f:
            data = tomllib.load(f)
    except OSError as error:
        raise RubricError(f"cannot read the rubric {path}: {error}") from None
    except tomllib.TOMLDecodeError as error:
        raise RubricError(f"{path}: not valid TOML: {error}") from None
    return parse(data, path)


@dataclass
class Split:
    """max points for each test case, by name, and a note when something is off."""
    points: dict[str, float]
    warnings: list[str]


def _split_pool(names: list[str], pool: float, rules: list[TestRule], what: str) -> Split:
    fixed: dict[str, float] = {}
    weights: dict[str, float] = {}
    for name in names:
        rule = next((r for r in rules if fnmatch.fnmatchcase(name, r.pattern)), None)
        if rule is not None and rule.points is not None:
            fixed[name] = rule.points
        else:
            weights[name] = rule.weight if rule is not None and rule.weight is not None else 1.0
    warnings = []
    fixed_total = sum(fixed.values())
    if fixed_total > pool + 1e-9:
        raise RubricError(f"{what}: the test cases with fixed points add up to {fixed_total:g}, "
                          f"more than the {pool:g} points there are")
    left = pool - fixed_total
    weight_total = sum(weights.values())
    points = dict(fixed)
    for name, weight in weights.items():
        points[name] = left * weight / weight_total if weight_total > 0 else 0.0
    points = apportion(points, sum(points.values()))
    if weight_total == 0 and left > 1e-9 and names:
        warnings.append(f"{what}: {left:g} of {pool:g} points are given to no test case")
    return Split(points, warnings)


UNIT = 10_000  # points are kept in 1/10000ths, so that a lab's test cases add up exactly


def apportion(shares: dict[str, float], total: float) -> dict[str, float]:
    """Rounds each share to 1/UNIT so that they add up to round(total, 4) exactly (largest
    remainder method): 5 points over 48 test cases are 0.1042 x 32 + 0.1041 x 16, not 48 x
    0.1042 = 5.0016."""
    if not shares:
        return {}
    units_total = round(total * UNIT)
    exact = {name: value * UNIT for name, value in shares.items()}
    floors = {name: int(v // 1) for name, v in exact.items()}
    left = units_total - sum(floors.values())
    order = sorted(exact, key=lambda name: (-(exact[name] - floors[name]), name))
    for name in order[: max(0, left)]:
        floors[name] += 1
    return {name: units / UNIT for name, units in floors.items()}


def split_points(lab: LabRubric, visible: list[str], hidden: list[str]) -> Split:
    """Splits lab.points over the test cases. With hidden_points set and hidden tests present,
    the hidden tests share hidden_points and the visible ones the rest; otherwise all share
    lab.points. Rules apply in order, the first match wins; unmatched cases weigh 1."""
    what = f"lab {lab.number}"
    if lab.hidden_points is not None and hidden:
        a = _split_pool(visible, lab.points - lab.hidden_points, lab.tests, what + " (visible)")
        b = _split_pool(hidden, lab.hidden_points, lab.tests, what + " (hidden)")
        if not visible and lab.points - lab.hidden_points > 0:
            a.warnings.append(f"{what}: no visible test cases for the visible points")
        return Split({**a.points, **b.points}, a.warnings + b.warnings)
    return _split_pool(visible + hidden, lab.points, lab.tests, what)


def unused_patterns(lab: LabRubric, names: list[str]) -> list[str]:
    return [r.pattern for r in lab.tests if not any(fnmatch.fnmatchcase(n, r.pattern) for n in names)]
