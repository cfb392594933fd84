#!/usr/bin/env bash
# Builds NVIDIA's cuda-samples programs that need no graphics and no CUDA libraries with simtcc
# and runs them on the simt emulator: the compatibility table of docs/emulator.md.
#
#   scripts/compat-samples.sh SAMPLES_CHECKOUT [BUILD_DIR] [OUTPUT]
#
# SAMPLES_CHECKOUT: a checkout of https://github.com/NVIDIA/cuda-samples (nothing is downloaded
# here). BUILD_DIR: a configured and built Scan Lab tree (default build/; needs bin/simtcc).
# OUTPUT: the table (default docs/compat-samples.txt). One line per sample: name, result, why.
# Results: pass (exit 0 and the sample's own check passed), build fails, run fails, timeout.
# Environment: COMPAT_LIMIT, seconds per sample run (default 600); COMPAT_ONLY, names of the
# samples to run (space-separated; default all): the table then holds only those; COMPAT_LOGS, a
# folder to keep each sample's build.log and run.log in (default: not kept); COMPAT_KEEP_BINARIES, a
# folder to copy each built program into; COMPAT_BINARIES, a folder of programs built so before
# (on another machine, say: build with SIMTCC_CXX pointing at a g++ wrapper that links -static):
# they are run instead of building the samples again.
# docs/compat-samples-causes.txt holds the causes found by reading a sample ("sample|kind|text");
# a row that does not pass gets its cause appended, and the last line counts the runs that stop
# at a true report of the sample's own code (the emulator doing its job, not failing).
set -uo pipefail

samples="${1:?usage: scripts/compat-samples.sh SAMPLES_CHECKOUT [BUILD_DIR] [OUTPUT]}"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
output="${3:-$root/docs/compat-samples.txt}"
if [[ -z "${COMPAT_BINARIES:-}" ]]; then
    build="$(cd "${2:-$root/build}" && pwd)" || exit 2
    simtcc="$build/bin/simtcc"
    [[ -x "$simtcc" ]] || { echo "compat-samples: no $simtcc (build the tree first)" >&2; exit 2; }
fi
[[ -d "$samples/Samples" && -d "$samples/Common" ]] ||
    { echo "compat-samples: $samples is not a cuda-samples checkout" >&2; exit 2; }
samples="$(cd "$samples" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
run_limit="${COMPAT_LIMIT:-600}" # seconds per sample on the emulator
causes="$root/docs/compat-samples-causes.txt"
only=" ${COMPAT_ONLY:-} "

# folder | arguments (none: every sample runs at its own default size)
list=(
    "0_Introduction/asyncAPI|"
    "0_Introduction/clock|"
    "0_Introduction/fp16ScalarProduct|"
    "0_Introduction/matrixMul|"
    "0_Introduction/mergeSort|"
    "0_Introduction/simpleAWBarrier|"
    "0_Introduction/simpleAssert|"
    "0_Introduction/simpleAtomicIntrinsics|"
    "0_Introduction/simpleAttributes|"
    "0_Introduction/simpleCallback|"
    "0_Introduction/simpleCooperativeGroups|"
    "0_Introduction/simpleOccupancy|"
    "0_Introduction/simplePrintf|"
    "0_Introduction/simpleStreams|"
    "0_Introduction/simpleTemplates|"
    "0_Introduction/simpleVoteIntrinsics|"
    "0_Introduction/simpleZeroCopy|"
    "0_Introduction/systemWideAtomics|"
    "0_Introduction/template|"
    "0_Introduction/vectorAdd|"
    "2_Concepts_and_Techniques/convolutionSeparable|"
    "2_Concepts_and_Techniques/dct8x8|"
    "2_Concepts_and_Techniques/eigenvalues|"
    "2_Concepts_and_Techniques/histogram|"
    "2_Concepts_and_Techniques/inlinePTX|"
    "2_Concepts_and_Techniques/interval|"
    "2_Concepts_and_Techniques/radixSortThrust|"
    "2_Concepts_and_Techniques/reduction|"
    "2_Concepts_and_Techniques/reductionMultiBlockCG|"
    "2_Concepts_and_Techniques/scalarProd|"
    "2_Concepts_and_Techniques/scan|"
    "2_Concepts_and_Techniques/shfl_scan|"
    "2_Concepts_and_Techniques/sortingNetworks|"
    "2_Concepts_and_Techniques/threadFenceReduction|"
    "3_CUDA_Features/binaryPartitionCG|"
    "3_CUDA_Features/globalToShmemAsyncCopy|"
    "3_CUDA_Features/newdelete|"
    "3_CUDA_Features/simpleCudaGraphs|"
    "3_CUDA_Features/warpAggregatedAtomicsCG|"
    "6_Performance/alignedTypes|"
    "6_Performance/transpose|"
)

# The first line that says why, from a log: a compiler error, an emulator report, a failed check.
# The emulator's notes ("simt: note: ...") say what it did not check, never why a run failed.
first_reason() {
    grep -v "simt: note:" "$1" |
        grep -m1 -E "error:|#error|simt: |FAIL|[Ff]ailed|Assertion|terminate called|not supported|No such" |
        sed -E "s#$work/[^ :]*/##g; s#$samples/##g; s#$root/##g; s/^[[:space:]]+//" | sed "s/[‘’]/'/g" | cut -c1-150
}

# "; kind: text" from docs/compat-samples-causes.txt for the sample, or nothing.
known_cause() {
    local cause
    cause="$(grep -m1 "^$1|" "$causes" 2>/dev/null | cut -d'|' -f2-)"
    [[ -n "$cause" ]] && printf '; %s: %s' "${cause%%|*}" "${cause#*|}"
    return 0
}

keep_logs() {
    [[ -n "${COMPAT_LOGS:-}" ]] || return 0
    mkdir -p "$COMPAT_LOGS"
    for log in "$work/$1"/*.log; do cp "$log" "$COMPAT_LOGS/$1.${log##*/}"; done
}

: >"$work/table"
total=${#list[@]}
index=0
for entry in "${list[@]}"; do
    index=$((index + 1))
    folder="${entry%%|*}"
    args="${entry#*|}"
    name="${folder##*/}"
    dir="$samples/Samples/$folder"
    [[ "$only" != "  " && "$only" != *" $name "* ]] && continue
    printf '[%2d/%d] %-28s ' "$index" "$total" "$name" >&2
    if [[ ! -d "$dir" ]]; then
        echo "missing" >&2
        printf '%s|missing|not in this checkout\n' "$name" >>"$work/table"
        continue
    fi
    mapfile -t sources < <(find "$dir" -maxdepth 1 \( -name '*.cu' -o -name '*.cpp' \) | sort)
    exe="$work/$name/$name"
    mkdir -p "$work/$name"
    if [[ -n "${COMPAT_BINARIES:-}" ]]; then
        build_command=(cp "$COMPAT_BINARIES/$name" "$exe")
    else
        build_command=("$simtcc" -O2 -I "$samples/Common" -I "$dir" -o "$exe" "${sources[@]}")
    fi
    if ! (cd "$dir" && "${build_command[@]}") >"$work/$name/build.log" 2>&1; then
        why="$(first_reason "$work/$name/build.log")"
        [[ -z "$why" ]] && why="$(tail -1 "$work/$name/build.log" | sed "s/[‘’]/'/g" | cut -c1-150)"
        why="$why$(known_cause "$name")"
        echo "build fails: $why" >&2
        printf '%s|build fails|%s\n' "$name" "$why" >>"$work/table"
        keep_logs "$name"
        continue
    fi
    [[ -n "${COMPAT_KEEP_BINARIES:-}" ]] && mkdir -p "$COMPAT_KEEP_BINARIES" && cp "$exe" "$COMPAT_KEEP_BINARIES/"
    # shellcheck disable=SC2086 # the arguments are words
    (cd "$dir" && timeout "$run_limit" "$exe" $args) >"$work/$name/run.log" 2>&1
    status=$?
    if [[ $status -eq 124 ]]; then
        result="timeout"
        why="still running after ${run_limit} s"
    elif [[ $status -eq 0 ]] && ! grep -qE "[Tt]est failed|FAILED|Result = FAIL" "$work/$name/run.log"; then
        result="pass"
        why="$(grep -m1 -iE "passed|Result = PASS|Test.*PASS|correct" "$work/$name/run.log" |
            sed -E 's/^[[:space:]]+//' | cut -c1-100)"
        [[ -z "$why" ]] && why="exit 0"
    else
        result="run fails"
        why="$(first_reason "$work/$name/run.log")"
        [[ -z "$why" ]] && why="exit $status: $(tail -1 "$work/$name/run.log" | cut -c1-100)"
        # A warning of the emulator's at build time may say why (code left out by #if).
        warned="$(grep -m1 -E "warning: .*simt emulator" "$work/$name/build.log" |
            sed -E "s#$work/[^ :]*/##g; s#$samples/##g; s#$root/##g" |
            sed -E 's/^(([^:]*:){2})[0-9]+: warning: /\1 /; s/ on the simt emulator.*/ on the simt emulator/')"
        [[ -n "$warned" ]] && why="$why; simtcc warned at $warned"
    fi
    [[ -n "$args" ]] && why="$why (run with: $args)"
    [[ "$result" != pass ]] && why="$why$(known_cause "$name")"
    echo "$result: $why" >&2
    printf '%s|%s|%s\n' "$name" "$result" "$why" >>"$work/table"
    keep_logs "$name"
done

{
    echo "# NVIDIA cuda-samples on the simt emulator: scripts/compat-samples.sh"
    echo "# samples commit: ${SAMPLES_COMMIT:-$(git -C "$samples" rev-parse --short HEAD 2>/dev/null || echo unknown)}"
    echo "# sample|result|why"
    cat "$work/table"
    echo "# $(grep -c '|pass|' "$work/table") of $(wc -l <"$work/table") pass; $(grep -c '|run fails|.*; true report: ' "$work/table") more run to a true report of the sample's own code"
} >"$output"
echo "compat-samples: $(grep -c '|pass|' "$work/table") of $total pass; table in $output" >&2
