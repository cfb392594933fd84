#!/usr/bin/env python3
"""Writes each lab's "Speed on a GPU" table from a scanlab_bench results.csv into the lab's README,
between the markers <!-- bench: labNN --> and <!-- /bench: labNN --> (added after the section
heading the first time).  usage: scripts/bench-tables.py results.csv [device name]"""
import csv
import pathlib
import re
import sys

rows = list(csv.DictReader(open(sys.argv[1])))
device = sys.argv[2] if len(sys.argv) > 2 else "an NVIDIA H200"
root = pathlib.Path(__file__).resolve().parent.parent


def table(lab):
    mine = [r for r in rows if r["lab"] == lab and r["status"] == "ok"]
    if not mine:
        return None
    group = mine[0]["group"]
    base = [r for r in rows if r["group"] == group and r["role"] in ("memcpy", "cub") and r["status"] == "ok"]
    if group == "segmented" and not any(r["role"] == "memcpy" for r in base):
        # The segmented scans move the same values as the global ones: the same copy applies.
        base = [r for r in rows if r["group"] == "global" and r["role"] == "memcpy"
                and r["status"] == "ok"] + base
    entries = []
    for r in base + mine:
        if r["label"] not in entries:
            entries.append(r["label"])
    sizes = sorted({int(r["n"]) for r in mine})
    cell = {(r["label"], int(r["n"])): r for r in base + mine}
    if group == "single_block":
        head = "| entry | " + " | ".join(f"n = {n}" for n in sizes) + " |"
        lines = [f"Time per call in microseconds on {device} (one call = one launch of one block;",
                 "at these sizes the launch itself dominates):", "", head,
                 "|---" * (len(sizes) + 1) + "|"]
        for e in entries:
            vals = [f"{float(cell[(e, n)]['median_us']):.1f}" if (e, n) in cell else "-" for n in sizes]
            lines.append(f"| {e} | " + " | ".join(vals) + " |")
    else:
        # Fractions at the two sizes the lessons discuss (larger than L2), or the largest.
        marks = [n for n in sizes if n in (1 << 24, 1 << 28)] or [max(sizes)]
        log2 = lambda n: f"2^{n.bit_length() - 1}"
        cub = "CUB InclusiveSumByKey" if group == "segmented" else "CUB"
        head = ("| entry | " + " | ".join(log2(n) for n in sizes) + " | " +
                " | ".join(f"memcpy {log2(n)} | {cub} {log2(n)}" for n in marks) + " |")
        lines = [f"Throughput in GB/s (n reads + n writes of 4-byte ints) on {device}, then the",
                 f"fraction of a device-to-device copy's and of {cub}'s throughput in the same run",
                 "at " + " and ".join(f"n = {log2(n)}" for n in marks) + ":",
                 "", head, "|---" * (len(sizes) + 1 + 2 * len(marks)) + "|"]
        for e in entries:
            vals = [f"{float(cell[(e, n)]['gb_per_s']):.0f}" if (e, n) in cell else "-" for n in sizes]
            fracs = []
            for n in marks:
                r = cell.get((e, n))
                copy = next((b for b in base if b["role"] == "memcpy" and int(b["n"]) == n), None)
                ref = next((b for b in base if b["role"] == "cub" and int(b["n"]) == n), None)
                for denominator in (copy, ref):
                    fracs.append(f"{float(r['gb_per_s']) / float(denominator['gb_per_s']):.2f}"
                                 if r and denominator else "-")
            lines.append(f"| {e} | " + " | ".join(vals + fracs) + " |")
    lines += ["", "Median of 31 batches of back-to-back calls on fresh random data, checked against the",
              "host reference; measured by `scripts/gpu-check.sh` (see docs/benchmarks.md)."]
    return "\n".join(lines)


for readme in sorted(root.glob("labs/*/README.md")):
    lab = readme.parent.name[:2]
    t = table(lab)
    if t is None:
        continue
    text = readme.read_text()
    start, end = f"<!-- bench: lab{lab} -->", f"<!-- /bench: lab{lab} -->"
    block = f"{start}\n{t}\n{end}"
    if start in text and end in text:
        text = re.sub(re.escape(start) + ".*?" + re.escape(end), lambda m: block, text, flags=re.S)
    elif start in text:
        text = text.replace(start, block, 1)
    elif "## Speed on a GPU" in text:
        # Replace the section's placeholder comment (if any) by the table.
        text = re.sub(r"(## Speed on a GPU\n)(.*?)(<!-- TODO\(lead\): GPU benchmark table.*?-->)",
                      lambda m: m.group(1) + m.group(2) + block, text, flags=re.S)
        if start not in text:
            text = text.replace("## Speed on a GPU\n", "## Speed on a GPU\n\n" + block + "\n", 1)
    else:
        text += f"\n## Speed on a GPU\n\n{block}\n"
    readme.write_text(text)
    print(f"{readme.relative_to(root)}: table for lab {lab}")
