#!/usr/bin/env bash
# The global workload of simt_bench, built by this tree's simtcc and by the tree that issue 38
# measured its speed goal against ("the build before the global-memory checks", 183a2c9: 0.80-0.90
# million elements/s on that day), run alternately on this machine. The machine's speed changes by
# a fifth or more from one hour to the next; the ratio of the two builds does not.
#
# usage: tools/simt_bench/reference_gauge.sh [rounds (default 6)] [launches per run (default 5)]
# Needs this tree built first (build/bin/simtcc: ./scanlab test or cmake --build build), the
# project's full git history (the reference tree is taken from it), and a few minutes to build the
# reference tree's emulator. SIMT_GAUGE_DIR keeps that build for the next run.
set -euo pipefail

rounds=${1:-6}
launches=${2:-5}
reference=183a2c9
here=$(cd "$(dirname "$0")" && pwd)
repo=$(git -C "$here" rev-parse --show-toplevel)
simtcc="$repo/build/bin/simtcc"

if [[ ! -x "$simtcc" ]]; then
    echo "reference_gauge: $simtcc not found: build this tree first (./scanlab test)" >&2
    exit 1
fi
if ! git -C "$repo" cat-file -e "$reference^{commit}" 2>/dev/null; then
    echo "reference_gauge: commit $reference is not in this clone (a shallow clone?): fetch the" \
         "full history first (git fetch --unshallow)" >&2
    exit 1
fi

work=${SIMT_GAUGE_DIR:-$(mktemp -d)}
mkdir -p "$work"
ref="$work/reference-$reference"
if [[ ! -x "$ref/build/bin/simt-rewrite" ]]; then
    echo "== building the reference tree's emulator ($reference) in $ref"
    rm -rf "$ref"
    mkdir -p "$ref"
    git -C "$repo" archive "$reference" | tar -x -C "$ref"
    cmake -S "$ref" -B "$ref/build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo > "$ref/configure.log"
    cmake --build "$ref/build" --target simt-rewrite simt_runtime scanlab_trace
fi

echo "== building the workload with both"
sources=("$here/gauge_driver.cpp" "$here/global_hillis_steele.cu")
"$simtcc" -O2 -I"$here" "${sources[@]}" -o "$work/gauge_this"
"$ref/build/bin/simtcc" -O2 -I"$here" "${sources[@]}" -o "$work/gauge_reference"

median() { sort -n | awk '{v[NR] = $1} END {printf "%.3f (%.3f-%.3f)", v[int((NR + 1) / 2)], v[1], v[NR]}'; }
this=() reference_runs=() ratios=()
for ((r = 1; r <= rounds; ++r)); do
    a=$("$work/gauge_this" "$launches" | awk '{print $7}')
    b=$("$work/gauge_reference" "$launches" | awk '{print $7}')
    this+=("$a") reference_runs+=("$b")
    ratios+=("$(awk -v a="$a" -v b="$b" 'BEGIN {printf "%.3f", a / b}')")
    echo "round $r of $rounds: this tree $a, reference $b million elements per CPU second"
done
echo "this tree:           $(printf '%s\n' "${this[@]}" | median) million elements per CPU second"
echo "reference ($reference): $(printf '%s\n' "${reference_runs[@]}" | median)"
echo "ratio, round by round: $(printf '%s\n' "${ratios[@]}" | median)"
echo "issue 38's goal, 1.5 when the reference ran 0.80-0.90, is a ratio of 1.67-1.88"
