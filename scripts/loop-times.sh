#!/usr/bin/env bash
# A student's edit-build-test loop, timed: for each lab, edit its .cu file (a comment line added
# at its end: touching it would not do, the rewriter leaves an unchanged output as it was and
# nothing would be compiled; the line names the moment, so that no compiler cache, ccache
# included, holds the edited file from an earlier run) and run `./scanlab lab NN` (build the
# lab's test program, then run it), then time the build and the test program on their own. The file is put back afterwards. Prints CPU seconds (user + system, summed over every process the
# command waited for: the compiler, the linker, ninja, the tests) and wall seconds.
#   scripts/loop-times.sh [--solution] [--test-runs=N] [NN ...]
#   scripts/loop-times.sh --first [DIR]
# Default: every lab, the student's file (labs/NN_*/*.cu, the stub in a fresh checkout).
# --solution: the reference solution's file instead (solutions/NN_*/*.cu, `./scanlab lab NN
# --solution`), whose tests pass and so run every case.
# Uses the build folder ./scanlab uses (SCANLAB_BUILD_DIR, default ./build) and SCANLAB_JOBS;
# configures and builds what is missing first, untimed. CPU time is the figure to compare on a
# loaded machine: wall time depends on what else runs.
# --first: the first-time costs instead (issue 33): a fresh clone of HEAD (into DIR, default a
# new folder under /tmp, which must not exist), then in it, in order and each timed as a
# whole, `./scanlab run`, `./scanlab trace 04 --student` and `./scanlab view
# traces/lab01.trace.json --png` under xvfb-run (skipped without it). Each configures and builds
# what it needs from nothing, so the figures are mostly build time. Committed changes only.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
build="${SCANLAB_BUILD_DIR:-$PWD/build}"
jobs="${SCANLAB_JOBS:-$(nproc)}"

# first_time_costs [DIR]: the --first mode above.
first_time_costs() {
    local clone="${1:-}" timing
    if [[ -z "$clone" ]]; then
        clone="$(mktemp -d /tmp/scanlab-first.XXXXXX)"
        rmdir "$clone"
    fi
    if [[ -e "$clone" ]]; then
        echo "loop-times.sh: $clone exists; --first clones into a new folder" >&2
        exit 2
    fi
    git clone -q "$PWD" "$clone"
    timing="$(mktemp)"
    echo "# $(git -C "$clone" rev-parse --short HEAD), fresh clone in $clone, no ccache," \
        "SCANLAB_JOBS=$jobs, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
    printf '%-36s %7s %7s\n' "what" "CPU s" "wall s"
    # first LABEL COMMAND...: runs the command in the clone (its output into LABEL's log there)
    # and prints its CPU (user + system of it and everything it waited for) and wall seconds.
    first() {
        local label="$1" status=0 user system wall
        shift
        (cd "$clone" && SCANLAB_JOBS="$jobs" SCANLAB_NO_VIEW=1 SCANLAB_BUILD_DIR="$clone/build" \
            /usr/bin/time -f '%U %S %e' -o "$timing" "$@" >"$clone/first-${label%%:*}.log" 2>&1) ||
            status=$?
        read -r user system wall < <(tail -n 1 "$timing")
        awk -v label="$label" -v u="$user" -v s="$system" -v w="$wall" -v st="$status" \
            'BEGIN { printf "%-36s %7.1f %7.1f%s\n", label, u + s, w, st ? "  (exit " st ")" : "" }'
    }
    first "run: ./scanlab run" ./scanlab run
    # The student's stub: its kernel reports what it got wrong (exit status 1), as it should.
    first "trace: ./scanlab trace 04 --student" ./scanlab trace 04 --student
    if command -v xvfb-run >/dev/null; then
        first "view: ./scanlab view (--png)" xvfb-run -a ./scanlab view traces/lab01.trace.json \
            --png first-view.png
    else
        echo "view: not timed (no xvfb-run: Debian's xvfb)"
    fi
    rm -f "$timing"
    echo "# each command's output: $clone/first-{run,trace,view}.log; remove $clone when done"
}
if [[ "${1:-}" == "--first" ]]; then
    command -v /usr/bin/time >/dev/null || { echo "loop-times.sh: needs /usr/bin/time (Debian: time)" >&2; exit 2; }
    first_time_costs "${2:-}"
    exit 0
fi

flavour=student
test_runs=1
labs=()
for a in "$@"; do
    case "$a" in
    --solution) flavour=solution ;;
    --test-runs=[1-9]*)
        test_runs="${a#--test-runs=}"
        [[ $test_runs =~ ^[0-9]+$ ]] || { echo "loop-times.sh: --test-runs wants a count, not '$test_runs'" >&2; exit 2; }
        ;;
    [0-9][0-9]) labs+=("$a") ;;
    *) echo "usage: scripts/loop-times.sh [--solution] [--test-runs=N] [NN ...]" >&2; exit 2 ;;
    esac
done
if ((${#labs[@]} == 0)); then
    for dir in labs/[0-9][0-9]_*/; do
        dir="${dir%/}"
        labs+=("${dir#labs/}")
    done
    labs=("${labs[@]%%_*}")
fi
command -v /usr/bin/time >/dev/null || { echo "loop-times.sh: needs /usr/bin/time (Debian: time)" >&2; exit 2; }

source_root=labs
lab_flag=()
if [[ $flavour == solution ]]; then
    source_root=solutions
    lab_flag=(--solution)
fi

timing="$(mktemp)"
saved="$(mktemp)"
edited=""
restore() {
    [[ -z "$edited" ]] || cp "$saved" "$edited"
    rm -f "$timing" "$saved"
}
trap restore EXIT
# timed LABEL COMMAND...: runs the command (its output thrown away; a failing test is expected of
# a stub) and prints the label with its CPU and wall seconds.
timed() {
    local label="$1"
    shift
    /usr/bin/time -f '%U %S %e' -o "$timing" "$@" >/dev/null 2>&1 || true
    # The last line: a command that failed has "Command exited with non-zero status" first.
    read -r user system wall < <(tail -n 1 "$timing")
    awk -v label="$label" -v u="$user" -v s="$system" -v w="$wall" \
        'BEGIN { printf "%-28s %7.1f %7.1f\n", label, u + s, w }'
}

# Everything the labs' test programs need, built once before any timing.
SCANLAB_JOBS="$jobs" ./scanlab lab "${labs[0]}" "${lab_flag[@]}" -tc=none >/dev/null 2>&1 || true
targets=()
for lab in "${labs[@]}"; do targets+=("lab${lab}_tests_${flavour}_simt"); done
echo "loop-times.sh: building ${targets[*]} first (untimed)" >&2
cmake --build "$build" -j "$jobs" --target "${targets[@]}" >/dev/null

level=$(sed -n 's/^SCANLAB_SIMT_LAB_OPTIMIZATION:STRING=//p' "$build/CMakeCache.txt")
[[ -n "$level" ]] || level="the build type's flags"
# The kernels' debug info: the level after -gdwarf-4 in a lab object's flags (cmake/Simt.cmake).
debug=$(awk '/^build labs\/.*simt_gen\/lab[0-9]/ { lab = 1 } lab && /FLAGS =/ { print; exit }' \
    "$build/build.ninja" | grep -o -- "-gdwarf-4 -g[0-9]" | cut -d' ' -f2 || true)
echo "# $(git rev-parse --short HEAD), $flavour, lab kernels at [$level] ${debug:--g2}," \
    "SCANLAB_JOBS=$jobs, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-28s %7s %7s\n' "what" "CPU s" "wall s"
for lab in "${labs[@]}"; do
    file=$(ls "$source_root/${lab}"_*/*.cu)
    target="lab${lab}_tests_${flavour}_simt"
    cp "$file" "$saved"
    edited="$file"
    echo "// loop-times.sh: an edit at $(date +%s%N)" >>"$file"
    timed "lab $lab edit: ./scanlab lab" env SCANLAB_JOBS="$jobs" ./scanlab lab "$lab" "${lab_flag[@]}"
    echo "// loop-times.sh: another edit at $(date +%s%N)" >>"$file"
    timed "lab $lab   build" cmake --build "$build" -j "$jobs" --target "$target"
    for ((run = 1; run <= test_runs; ++run)); do
        timed "lab $lab   test program" "$build/bin/$target"
    done
    cp "$saved" "$file"
    edited=""
done
