#!/usr/bin/env bash
# Measures shared-memory bank conflicts with Nsight Compute on a GPU and prints them next to the
# emulator's counts for the same kernels (tools/bankbench/bank_microbench.cu).
#   scripts/ncu-bank-conflicts.sh EMULATOR_CSV [BUILD_DIR]
# EMULATOR_CSV: the output of build/bin/bank_microbench_simt, made on the CPU beforehand (the GPU
# machine need not have the emulator). BUILD_DIR must hold bin/bank_microbench_cuda.
set -euo pipefail
emulator_csv="$1"
build="${2:-build-gpu}"
exe="$build/bin/bank_microbench_cuda"
raw="$(mktemp)"
ncu --csv --metrics l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum \
    "$exe" >"$raw" 2>/dev/null
python3 - "$raw" "$emulator_csv" <<'PY'
import csv, sys
raw, emu_path = sys.argv[1], sys.argv[2]
names = []
with open(emu_path) as f:
    emu = {r["kernel"]: r for r in csv.DictReader(f)}
    names = list(emu)
gpu = []  # in launch order: (load, store)
rows = [r for r in csv.reader(open(raw)) if r and r[0].isdigit() or (r and r[0] == "ID")]
header = next(r for r in rows if r[0] == "ID")
idx = {h: i for i, h in enumerate(header)}
per_launch = {}
for r in rows:
    if r[0] == "ID":
        continue
    launch = int(r[idx["ID"]])
    metric = r[idx["Metric Name"]]
    value = int(float(r[idx["Metric Value"]].replace(",", "")))
    per_launch.setdefault(launch, {})[metric] = value
ok = True
print(f"{'kernel':<18} {'ncu ld':>8} {'emu ld':>8} {'ncu st':>8} {'emu st':>8}")
for i, name in enumerate(names):
    m = per_launch.get(i, {})
    ld = m.get("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum")
    st = m.get("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum")
    e = emu[name]
    same = ld == int(e["load_conflicts"]) and st == int(e["store_conflicts"])
    ok = ok and same
    print(f"{name:<18} {ld!s:>8} {e['load_conflicts']:>8} {st!s:>8} {e['store_conflicts']:>8}"
          f"  {'same' if same else 'DIFFERENT'}")
print("all equal" if ok else "some differ")
PY
