#!/usr/bin/env python3
"""Prints COUNT random code addresses (hex, file addresses) inside the functions of EXECUTABLE,
for symbolizer_compare: a function is picked at random, then an offset inside it."""
import random
import subprocess
import sys

if len(sys.argv) not in (3, 4):
    sys.exit("usage: sample_addresses.py EXECUTABLE COUNT [NAME_SUBSTRING]")
exe, count = sys.argv[1], int(sys.argv[2])
wanted = sys.argv[3] if len(sys.argv) == 4 else ""
nm = subprocess.run(["nm", "-S", "-C", "--defined-only", exe], capture_output=True, text=True,
                    check=True).stdout
functions = []
for line in nm.splitlines():
    parts = line.split(maxsplit=3)
    if len(parts) == 4 and parts[2] in "tTW" and int(parts[1], 16) > 0 and wanted in parts[3]:
        functions.append((int(parts[0], 16), int(parts[1], 16)))
if not functions:
    sys.exit(f"no functions with sizes in {exe}" + (f" named *{wanted}*" if wanted else ""))
seed = random.randrange(1 << 30)
print(f"seed {seed}, {len(functions)} functions", file=sys.stderr)
rng = random.Random(seed)
for _ in range(count):
    start, size = rng.choice(functions)
    print(hex(start + rng.randrange(size)))
