#!/usr/bin/env bash
# Bank conflicts of every lab kernel: Nsight Compute on the GPU next to the emulator's count for
# the same launches (the labs' trace recipes: tools/lab_descriptors/labNN.cpp run by
# tools/trace/record.cpp).
#   scripts/ncu-lab-kernels.sh EMULATOR_TXT [BUILD_DIR]
# EMULATOR_TXT comes from `scripts/ncu-lab-kernels.sh --emulator build > file` run on the CPU.
set -euo pipefail
cases=("01 --n 1024" "02 --n 2048" "03 --n 2048" "03 --n 2048 --variant unpadded"
       "04 --n 65536" "04 --n 65536 --variant reduce-then-scan" "05 --n 65536"
       "06 --n 65536" "06 --n 65536 --variant transform" "07 --n 65536"
       "07 --n 65536 --variant separate")
if [[ "${1:-}" == "--emulator" ]]; then
    build="${2:-build}"
    for c in "${cases[@]}"; do
        # Sum the loads and stores of every launch of the recipe.
        read -r ld st < <("$build/bin/scanlab_trace_solution" $c --blocks all --out /tmp/ncu-lab.json |
            awk '/^launch:/ { for (i = 1; i <= NF; ++i) { if ($(i+1) == "load,") l += $i; if ($(i+1) == "store,") s += $i } }
                 END { print l + 0, s + 0 }')
        echo "$c|$ld|$st"
    done
    exit 0
fi
emulator="$1"
build="${2:-build-gpu}"
printf '%-40s %9s %9s %9s %9s\n' "lab recipe" "ncu ld" "emu ld" "ncu st" "emu st"
all=same
while IFS='|' read -r c eld est; do
    read -r ld st < <(ncu --csv --metrics l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum \
        "$build/bin/scanlab_replay_cuda" $c 2>/dev/null | python3 -c '
import csv, sys
ld = st = 0
for r in csv.reader(sys.stdin):
    if len(r) > 3 and r[-3].startswith("l1tex__data_bank_conflicts"):
        v = int(float(r[-1].replace(",", "")))
        if "op_ld" in r[-3]: ld += v
        else: st += v
print(ld, st)')
    mark=same
    [[ "$ld" == "$eld" && "$st" == "$est" ]] || { mark=DIFFERENT; all=differ; }
    printf '%-40s %9s %9s %9s %9s  %s\n' "$c" "$ld" "$eld" "$st" "$est" "$mark"
done <"$emulator"
echo "lab kernels: $all"
