#!/usr/bin/env python3
"""Copies the tables of a scanlab_bench run (OUT/tables.md, which scanlab_bench writes) into the
lessons and docs: every block between <!-- bench: NAME --> and <!-- /bench: NAME --> in
tables.md replaces the block with the same markers in labs/*/README.md and docs/benchmarks.md.
The raw results.csv goes next to them, as docs/bench/<csv-name>.

  usage: scripts/bench-tables.py OUT_DIR CSV_NAME      (e.g. OUT_DIR h200.csv)"""
import pathlib
import re
import shutil
import sys

if len(sys.argv) != 3:
    sys.exit(__doc__)
out_dir = pathlib.Path(sys.argv[1])
root = pathlib.Path(__file__).resolve().parent.parent
tables = (out_dir / "tables.md").read_text()
blocks = dict(re.findall(r"<!-- bench: (\S+) -->\n(.*?)<!-- /bench: \1 -->", tables, flags=re.S))
if not blocks:
    sys.exit(f"no tables in {out_dir / 'tables.md'}")

targets = sorted(root.glob("labs/*/README.md")) + [root / "docs" / "benchmarks.md"]
for target in targets:
    text = target.read_text()
    changed = False
    for name, body in blocks.items():
        start, end = f"<!-- bench: {name} -->", f"<!-- /bench: {name} -->"
        if start in text and end in text:
            text = re.sub(re.escape(start) + ".*?" + re.escape(end),
                          lambda m: f"{start}\n{body}{end}", text, flags=re.S)
            changed = True
    if changed:
        target.write_text(text)
        print(f"{target.relative_to(root)}: tables updated")

csv_dir = root / "docs" / "bench"
csv_dir.mkdir(exist_ok=True)
shutil.copyfile(out_dir / "results.csv", csv_dir / sys.argv[2])
print(f"docs/bench/{sys.argv[2]}: raw results")
