#!/usr/bin/env python3
"""Every lab has all its parts. The list of labs is labs/CMakeLists.txt (one
`scanlab_lab_if_present(NN name source)` line each); for every lab there this checks the lesson
(labs/NN_name/README.md), the stub and the solution (labs/ and solutions/NN_name/<source>), the
graded tests (tests/labs/labNN_name_test.cpp, whose name makes the test programs), mistakes in
the catalog (tests/mistakes/catalog.toml), points in the rubric (grading/rubric.toml), hidden
tests (grading/hidden/labNN_*_hidden_test.cpp) and a descriptor for the runner, the tracer and
the grader (tools/lab_descriptors/labNN.cpp); and that no lab folder is missing from the list.
CONTRIBUTING.md, "Adding a lab", says the same in order. Prints what is missing; exit status 1 if
anything is."""

from __future__ import annotations

import re
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LIST = ROOT / "labs" / "CMakeLists.txt"
LAB_LINE = re.compile(r"^scanlab_lab_if_present\((\d\d) (\w+) ([\w.]+)\)$", re.M)


def listed_labs() -> list[tuple[str, str, str]]:
    """(number, name, source file) of every lab in the list."""
    return LAB_LINE.findall(LIST.read_text())


def missing_parts(number: str, name: str, source: str) -> list[str]:
    folder = f"{number}_{name}"
    missing = []

    def need(path: Path, what: str) -> None:
        if not path.is_file() or not path.read_text(errors="replace").strip():
            missing.append(f"{what}: {path.relative_to(ROOT)}")

    need(ROOT / "labs" / folder / "README.md", "the lesson")
    need(ROOT / "labs" / folder / source, "the stub")
    need(ROOT / "solutions" / folder / source, "the solution")
    need(ROOT / "tools" / "lab_descriptors" / f"lab{number}.cpp", "the descriptor")

    # tests/labs/CMakeLists.txt makes the lab's test programs from this file's name.
    need(ROOT / "tests" / "labs" / f"lab{number}_{name}_test.cpp", "the graded tests")

    if not list((ROOT / "grading" / "hidden").glob(f"lab{number}_*hidden_test.cpp")):
        missing.append(f"the hidden tests: grading/hidden/lab{number}_{name}_hidden_test.cpp")

    rubric = tomllib.loads((ROOT / "grading" / "rubric.toml").read_text())
    if number not in rubric.get("labs", {}):
        missing.append(f"the rubric's points: [labs.{number}] in grading/rubric.toml")

    catalog = tomllib.loads((ROOT / "tests" / "mistakes" / "catalog.toml").read_text())
    if not any(m.get("lab") == folder for m in catalog.get("mistake", [])):
        missing.append(f"mistakes in the catalog: a [[mistake]] with lab = \"{folder}\" in "
                       "tests/mistakes/catalog.toml")
    return missing


def main() -> int:
    labs = listed_labs()
    problems = []
    if not labs:
        problems.append(f"{LIST.relative_to(ROOT)} lists no lab (scanlab_lab_if_present lines)")
    listed = {f"{number}_{name}" for number, name, _ in labs}
    for folder in sorted(p.name for p in (ROOT / "labs").iterdir() if p.is_dir()):
        if re.match(r"^\d\d_", folder) and folder not in listed:
            problems.append(f"labs/{folder} is not in the list of labs "
                            f"({LIST.relative_to(ROOT)})")
    for number, name, source in labs:
        for part in missing_parts(number, name, source):
            problems.append(f"lab {number} ({name}) lacks {part}")
    for problem in problems:
        print(f"FAIL: {problem}")
    print(f"{len(labs)} lab(s) in the list, {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
