#!/usr/bin/env bash
# Lab 07 with and without programmatic dependent launch, against both CUBs, in one go on a GPU
# machine (what labs/07_decoupled_lookback/README.md, "Launch latency and PDL", reports): builds
# the cuda backend, runs lab 07's GPU tests, tools/pdl_timeline (the README's picture), then
# scanlab_bench --only "$ONLY" once per entry of RUNS (settings in the environment: SCANLAB_PDL=0
# launches lab 07 without PDL).
#   scripts/bench-pdl.sh [OUT_DIR]      ONLY=lab07 RUNS=... ROUNDS=21 TARGETS=...
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
# root, out, build; prefix=(...): CMake's way to carried packages; the newest CUB
source scripts/gpu-machine.sh bench-pdl-out "${1:-}"
log="$out/bench-pdl.log"
nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.sm,clocks.mem --format=csv | tee -a "$log"

cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DSCANLAB_CUDA=ON -DSCANLAB_SIMT=OFF \
    -DCMAKE_CUDA_ARCHITECTURES=90 "${prefix[@]}" >"$out/build.log" 2>&1 || { tail -30 "$out/build.log"; exit 1; }
targets=(scanlab_bench ${TARGETS:-lab07_tests_solution_cuda})
if ! cmake --build "$build" -j "$(nproc)" --target "${targets[@]}" >>"$out/build.log" 2>&1; then
    grep -E "error|Error|warning" "$out/build.log" | head -40
    exit 1
fi
grep -E "warning" "$out/build.log" | head -10
rm -f "$out/build.log"
echo "built ${targets[*]}" | tee -a "$log"

for t in "${targets[@]}"; do
    [[ "$t" == *_tests_* ]] || continue
    "$build/bin/$t" 2>&1 | tail -3 | tee -a "$log"
done

if nvcc -O2 -arch=sm_90 tools/pdl_timeline/pdl_timeline.cu -o "$build/pdl_timeline" 2>&1 | tee -a "$log"; then
    "$build/pdl_timeline" "$out/pdl_timeline.csv" 2>&1 | tee -a "$log"
fi

# RUNS: name:VAR=value,VAR=value:min_log2:max_log2 ...; only runs named keep* bring back their
# results.csv and tables.md (the device tool brings back at most 8 files), the others their
# summary in bench-pdl.log.
for run in ${RUNS:-keep-pdl1:SCANLAB_PDL=1:16:28 pdl0:SCANLAB_PDL=0:16:28}; do
    IFS=: read -r name settings lo hi <<<"$run"
    echo "=== $name: ${settings:-defaults}, 2^$lo..2^$hi" | tee -a "$log"
    (
        IFS=, && for assignment in $settings; do export "${assignment?}"; done
        "$build/bin/scanlab_bench" --only "${ONLY:-lab07}" --rounds "${ROUNDS:-21}" \
            --min-log2 "$lo" --max-log2 "$hi" --out "$out/$name" 2>&1 |
            sed -n '/^==== scanlab_bench/,$p' | tee -a "$log"
    )
    rm -f "$out/$name/results.json" "$out/$name"/*.png
    [[ "$name" == keep* ]] || rm -rf "${out:?}/$name"
done
