"""Builds a planted submission for the grader's tests from its recipe in catalog.toml.

A planted submission is stored as only what makes it planted: a base (its lab's stub, its
solution, or another planted submission of the same lab) plus fragments of code put before the
base and edits of the base's lines. This file puts the pieces together, in a folder laid out
like a student's labs/ folder (OUT_DIR/01_naive/naive_scan.cu; lab 01 unless the recipe's `lab`
names another).

  python3 tests/grader/submissions/assemble.py NAME OUT_DIR [--set @PLACEHOLDER@=VALUE ...]
  python3 tests/grader/submissions/assemble.py --list

Placeholders (@REPO@, @OUT@, @FIFO@) in a fragment are replaced only where --set names them."""

from __future__ import annotations

import argparse
import sys
import textwrap
import tomllib
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[2]
CATALOG = HERE / "catalog.toml"
FRAGMENTS = HERE / "fragments"
# The labs a recipe may plant into (its `lab`, "01" when absent): folder and source file.
LAB_SOURCES = {
    "01": ("01_naive", "naive_scan.cu"),
    "04": ("04_multi_block", "multi_block_scan.cu"),
    "05": ("05_warp_synchronous", "warp_scan.cu"),
    "06": ("06_segmented", "segmented_scan.cu"),
    "07": ("07_decoupled_lookback", "lookback_scan.cu"),
}
DEFAULT_LAB = "01"
BASE_ROOTS = {"stub": REPO / "labs", "solution": REPO / "solutions"}
EDIT_KINDS = ("before", "after", "instead")


class RecipeError(Exception):
    """A recipe that cannot be applied: named with the submission and what is wrong."""


def catalog() -> dict[str, dict]:
    with CATALOG.open("rb") as f:
        return tomllib.load(f)


def names() -> list[str]:
    return sorted(catalog())


def _shown(path: Path) -> str:
    return str(path.relative_to(REPO)) if path.is_relative_to(REPO) else str(path)


def _ending_in_newline(text: str) -> str:
    return text if text.endswith("\n") else text + "\n"


def _apply_edit(name: str, lines: list[str], edit: dict) -> list[str]:
    anchor = edit.get("line")
    kinds = [kind for kind in EDIT_KINDS if kind in edit]
    if not isinstance(anchor, str) or len(kinds) != 1 or set(edit) != {"line", kinds[0]}:
        raise RecipeError(f"{name}: an edit needs `line` and exactly one of "
                          f"{', '.join(EDIT_KINDS)}; got {sorted(edit)}")
    hits = [i for i, line in enumerate(lines) if anchor in line]
    if len(hits) != 1:
        raise RecipeError(f"{name}: the edit's line {anchor!r} must occur in exactly one line of "
                          f"the base, found {len(hits)} (has the base changed?)")
    at = hits[0]
    new = _ending_in_newline(edit[kinds[0]]).splitlines(keepends=True)
    if kinds[0] == "before":
        return lines[:at] + new + lines[at:]
    if kinds[0] == "after":
        return lines[:at + 1] + new + lines[at + 1:]
    return lines[:at] + new + lines[at + 1:]


def base_path(base: str, lab: str = DEFAULT_LAB) -> Path:
    """The file a recipe's base "stub" or "solution" of `lab` stands for."""
    folder, source_name = LAB_SOURCES[lab]
    return BASE_ROOTS[base] / folder / source_name


def lab_of(name: str) -> str:
    """The lab number a planted submission replaces ("01", "04", ... "07")."""
    recipes = catalog()
    if name not in recipes:
        raise RecipeError(f"no planted submission {name!r}; there are: {', '.join(sorted(recipes))}")
    lab = recipes[name].get("lab", DEFAULT_LAB)
    if lab not in LAB_SOURCES:
        raise RecipeError(f"{name}: `lab` must be one of {', '.join(LAB_SOURCES)}; got {lab!r}")
    return lab


def source(name: str, _seen: tuple[str, ...] = ()) -> str:
    """The planted lab source (naive_scan.cu for lab 01), placeholders left in."""
    recipes = catalog()
    lab = lab_of(name)
    if name in _seen:
        raise RecipeError(f"{name}: its base leads back to itself ({' -> '.join(_seen + (name,))})")
    recipe = recipes[name]
    unknown = set(recipe) - {"about", "lab", "base", "prepend", "edits"}
    if unknown:
        raise RecipeError(f"{name}: unknown keys {sorted(unknown)}")
    if not isinstance(recipe.get("about"), str):
        raise RecipeError(f"{name}: `about` (what it is and the score it must get) is missing")
    base = recipe.get("base")
    if base in BASE_ROOTS:
        path = base_path(base, lab)
        if not path.is_file():
            raise RecipeError(f"{name}: needs {_shown(path)} (an instructor's tree)")
        text = path.read_text()
    elif isinstance(base, str):
        if lab_of(base) != lab:
            raise RecipeError(f"{name}: its base {base!r} plants lab {lab_of(base)}, not {lab}")
        text = source(base, _seen + (name,))
    else:
        raise RecipeError(f"{name}: `base` must be stub, solution or another planted submission")
    lines = text.splitlines(keepends=True)
    for edit in recipe.get("edits", []):
        lines = _apply_edit(name, lines, edit)
    head = []
    if not _seen:  # only the submission asked for says what it is
        about = f'Planted submission "{name}" (tests/grader/submissions): {recipe["about"]}'
        head = [f"// {line}\n" for line in textwrap.wrap(about, 96)]
    for fragment in recipe.get("prepend", []):
        path = FRAGMENTS / fragment
        if not path.is_file():
            raise RecipeError(f"{name}: fragment {_shown(path)} does not exist")
        head.append(_ending_in_newline(path.read_text()))
    return "".join(head) + "".join(lines)


def assemble(name: str, labs_dir: Path, substitute: dict[str, str] | None = None) -> Path:
    """Writes the planted source into its lab's folder of labs_dir (01_naive/naive_scan.cu for
    lab 01) with the placeholders replaced; returns labs_dir."""
    text = source(name)
    for placeholder, value in (substitute or {}).items():
        text = text.replace(placeholder, value)
    folder_name, source_name = LAB_SOURCES[lab_of(name)]
    folder = Path(labs_dir) / folder_name
    folder.mkdir(parents=True, exist_ok=True)
    (folder / source_name).write_text(text)
    return Path(labs_dir)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("name", nargs="?", help="the planted submission (see --list)")
    parser.add_argument("out_dir", nargs="?", type=Path, help="the labs folder to write")
    parser.add_argument("--set", action="append", default=[], metavar="@NAME@=VALUE",
                        help="replace a placeholder (repeatable)")
    parser.add_argument("--list", action="store_true", help="list the planted submissions")
    args = parser.parse_args(argv)
    if args.list:
        for name in names():
            print(f"{name}: {catalog()[name]['about']}")
        return 0
    if args.name is None or args.out_dir is None:
        parser.error("NAME and OUT_DIR are required (or --list)")
    substitute = {}
    for item in args.set:
        placeholder, sep, value = item.partition("=")
        if not sep or not (placeholder.startswith("@") and placeholder.endswith("@")):
            parser.error(f"--set {item!r}: expected @NAME@=VALUE")
        substitute[placeholder] = value
    try:
        assemble(args.name, args.out_dir, substitute)
    except RecipeError as error:
        print(f"assemble.py: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
