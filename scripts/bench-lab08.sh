#!/usr/bin/env bash
# Lab 08's development run on a GPU machine, from the repository's root: builds with nvcc alone
# (no CMake, every file in parallel) lab 08's check (bench/hopper_scan_check.cu) and
# scanlab_bench's harness with lab 07's and lab 08's entries (bench/hopper_scan_entries.cu)
# against memcpy and both CUBs, then runs the check and the benchmark.
#   scripts/bench-lab08.sh [OUT_DIR] [scanlab_bench arguments...]
# Needs .device-carry/ (scripts/prepare-device-carry.sh: CLI11's headers, the newest CUB's wheel).
set -uo pipefail
source scripts/gpu-machine.sh lab08-out "${1:-}"
shift || true
arch="${SCANLAB_GPU_ARCH:-90}"
b="$build/lab08"
mkdir -p "$b"
newest=.deps/newest-cccl/nvidia/cu13/include/cccl
cli=()
[[ -d .device-carry/root/usr/include ]] && cli=(-I.device-carry/root/usr/include)

flags=(-std=c++20 -O3 -arch="sm_$arch" --expt-relaxed-constexpr -DSCANLAB_BACKEND_CUDA
    -Icommon/scanlab/include -Ibench -Itools/lab_descriptors -Ilabs/07_decoupled_lookback
    -Ilabs/08_hopper_scan "${cli[@]}" -Xcompiler=-Wall,-Wextra)
compile() { # OBJECT SOURCE [more flags]
    local object=$1 source=$2
    shift 2
    nvcc "${flags[@]}" "$@" -c "$source" -o "$b/$object" >"$b/$object.log" 2>&1 ||
        { echo "FAILED: $source"; cat "$b/$object.log"; return 1; }
}
start=$(date +%s)
pids=()
nvcc "${flags[@]}" -Xptxas -v bench/hopper_scan_check.cu -o "$b/check" >"$b/check.log" 2>&1 &
pids+=($!)
compile lab07.o solutions/07_decoupled_lookback/lookback_scan.cu &
pids+=($!)
compile entries.o bench/hopper_scan_entries.cu -Xptxas -v &
pids+=($!)
compile baselines.o bench/baselines.cu &
pids+=($!)
if [[ -f $newest/cub/version.cuh ]]; then
    compile newest.o bench/baselines_newest.cu -I"$newest" &
else
    compile newest.o bench/baselines_newest_none.cpp &
fi
pids+=($!)
compile gpu_hold.o bench/gpu_hold.cu &
pids+=($!)
compile main.o bench/main.cpp -x cu &
pids+=($!)
compile report.o bench/report.cpp -x cu &
pids+=($!)
failed=0
for pid in "${pids[@]}"; do wait "$pid" || failed=1; done
[[ -x "$b/check" ]] || { echo "check did not build"; grep -B2 -A5 error "$b/check.log" | head -40; failed=1; }
((failed)) && exit 1
nvcc -arch="sm_$arch" "$b"/{lab07,entries,baselines,newest,gpu_hold,main,report}.o -o "$b/bench" ||
    exit 1
echo "built in $(($(date +%s) - start)) s"
# The kernels' resources (registers, spills, shared memory) for the notes.
grep -A2 "hopper_scan_kernel.*Sum.*iE" "$b/entries.o.log" | grep -E "Used|spill" | sort | uniq -c |
    head -20 >"$out/lab08-resources.txt"

"$b/check" 2>&1 | tee "$out/lab08-check.txt" | tail -12
"$b/bench" --out "$out" --only lab07,lab08 "$@" 2>&1 | tail -40

# With SCANLAB_LAB08_NCU=1: Nsight Compute's figures for the default shape at 2^28 (achieved
# DRAM bandwidth, occupancy, warp stall reasons), clocks left alone.
if [[ "${SCANLAB_LAB08_NCU:-0}" == 1 ]] && command -v ncu >/dev/null; then
    timeout 120 ncu --clock-control none --kernel-name regex:hopper_scan_kernel --launch-skip 2 \
        --launch-count 1 --section SpeedOfLight --section MemoryWorkloadAnalysis \
        --section Occupancy --section WarpStateStats --section SchedulerStats \
        "$b/check" --profile $((1 << 28)) >"$out/lab08-ncu.txt" 2>&1
    grep -E "DRAM Throughput|Memory Throughput|Duration|Achieved Occupancy|Theoretical Occupancy|Registers Per|Block Limit|Warp Cycles Per Issued|Stall|No Eligible|profile run" \
        "$out/lab08-ncu.txt" | head -40
fi
