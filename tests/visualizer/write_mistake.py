#!/usr/bin/env python3
"""Writes a lab's reference solution with one mistake of the catalog (tests/mistakes/catalog.toml)
written into it, as run_mistakes.py does, for the visualizer's tests to record a broken kernel:
  write_mistake.py LAB "MISTAKE NAME" OUT [--operators OP,OP]
--operators keeps the file's instantiations to those graded operators (scanlab::Sum<int32_t>...),
the ones a tracer calls, so that the copy compiles in a fraction of the time."""

import argparse
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "mistakes"))
import run_mistakes  # noqa: E402  (the catalog's patching, in one place)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("lab")
    parser.add_argument("name")
    parser.add_argument("out", type=Path)
    parser.add_argument("--operators", default="")
    args = parser.parse_args()
    catalog = tomllib.loads((ROOT / "tests" / "mistakes" / "catalog.toml").read_text())
    found = [m for m in catalog["mistake"] if m["lab"] == args.lab and m["name"] == args.name]
    if len(found) != 1:
        print(f"write_mistake.py: {len(found)} mistakes of lab {args.lab} are named "
              f"'{args.name}' in the catalog, not one", file=sys.stderr)
        return 2
    text = run_mistakes.patched_solution(found[0])
    if args.operators:
        line = run_mistakes.FOR_EACH_OPERATOR.search(text)
        if not line:
            print("write_mistake.py: the solution has no SCANLAB_FOR_EACH_GRADED_OPERATOR line",
                  file=sys.stderr)
            return 2
        macro = line.group(1)
        text = (text[:line.start()] +
                "\n".join(f"{macro}({op})" for op in args.operators.split(",")) +
                text[line.end():])
    args.out.parent.mkdir(parents=True, exist_ok=True)
    if not args.out.exists() or args.out.read_text() != text:
        args.out.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
