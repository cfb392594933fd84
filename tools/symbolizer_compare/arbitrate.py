#!/usr/bin/env python3
"""Reads symbolizer_compare's "differs" lines (QUIET=1) on stdin and asks llvm-symbolizer about
each address: which of addr2line and libbacktrace agrees with it (file basename and line of every
inlined frame)."""
import subprocess
import sys

exe = sys.argv[1]
symbolizer = sys.argv[2] if len(sys.argv) > 2 else "llvm-symbolizer"
rows = [line.rstrip("\n").split("|") for line in sys.stdin if line.startswith("differs ")]
addresses = [r[0].split()[1] for r in rows]
out = subprocess.run([symbolizer, f"--obj={exe}", "--inlining", *addresses], capture_output=True,
                     text=True, check=True).stdout
answers = [block.splitlines()[1::2] for block in out.strip().split("\n\n")]
tally = {"addr2line": 0, "libbacktrace": 0, "both": 0, "neither": 0}
for (head, a2l, lb), frames in zip(rows, answers):
    llvm = " ".join(f"{f.split(':')[0].rsplit('/', 1)[-1]}:{f.split(':')[1]}" for f in frames)
    agree_a, agree_l = a2l.split() == llvm.split(), lb.split() == llvm.split()
    key = "both" if agree_a and agree_l else "addr2line" if agree_a else (
        "libbacktrace" if agree_l else "neither")
    tally[key] += 1
    print(f"{head.split()[1]}: agrees with {key:12} | a2l {a2l}| lb {lb}| llvm {llvm}")
print("llvm-symbolizer agrees with:", tally)
