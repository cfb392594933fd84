#!/bin/sh
# Regenerates the pictures the lab READMEs show (docs/pictures/*.png) from freshly recorded
# traces, without a screen: each lab's reference kernel is recorded on the simt emulator with the
# lab tracer (`./scanlab trace NN` uses the same program), a lab that has no tracer entry yet by
# an example program of visualizer/examples built with simtcc, and every picture is drawn by
# scanlab-view's headless mode under Xvfb.
#
#   scripts/make-lab-pictures.sh [BUILD_DIR]      (default: build)
#
# Needs a configured build tree (cmake -S . -B build -G Ninja); the script builds the targets it
# uses. Pictures are deterministic for a given emulator seed, so they only change when a kernel,
# the emulator or the viewer does. See docs/visualizer.md ("Pictures for the lab READMEs").
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-"$root/build"}
case $build in /*) ;; *) build="$PWD/$build" ;; esac
out="$root/docs/pictures"

if [ ! -f "$build/CMakeCache.txt" ]; then
    echo "make-lab-pictures: $build is not a configured build tree" \
         "(cmake -S . -B build -G Ninja)" >&2
    exit 2
fi
cmake --build "$build" --target scanlab-view scanlab_trace_solution simt-rewrite simt_runtime \
    scanlab_trace
view="$build/bin/scanlab-view"
tracer="$build/bin/scanlab_trace_solution"
simtcc="$build/bin/simtcc"
for tool in "$view" "$tracer" "$simtcc"; do
    if [ ! -x "$tool" ]; then
        echo "make-lab-pictures: $tool was not built (see docs/visualizer.md)" >&2
        exit 2
    fi
done

# Headless drawing needs an X display: Xvfb with Mesa's software OpenGL where there is none.
if [ -z "${DISPLAY:-}" ]; then
    if ! command -v xvfb-run >/dev/null 2>&1; then
        echo "make-lab-pictures: no DISPLAY and no xvfb-run (apt-get install xvfb xauth)" >&2
        exit 2
    fi
    exec xvfb-run -a -s "-screen 0 1920x1080x24 -noreset" "$0" "$build"
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"

# lab TRACE NN [OPTIONS...]: records lab NN's reference kernel into $work/TRACE (every block).
lab() {
    trace=$1
    shift
    "$tracer" "$@" --blocks all --out "$work/$trace" >/dev/null
}

# example TRACE NAME [ENV...] -- [ARGS...]: builds visualizer/examples/NAME.cu with simtcc and
# runs it with the SIMT_* settings ENV, recording its launches into $work/TRACE (the second
# launch into TRACE with .1 before .json, and so on).
example() {
    trace=$1
    name=$2
    shift 2
    [ -x "$work/$name" ] || "$simtcc" -O1 -o "$work/$name" "$root/visualizer/examples/$name.cu"
    settings=""
    while [ $# -gt 0 ] && [ "$1" != "--" ]; do
        settings="$settings $1"
        shift
    done
    [ $# -gt 0 ] && shift
    # shellcheck disable=SC2086 # the settings are words on purpose
    env SIMT_TRACE="$work/$trace" $settings "$work/$name" "$@" >/dev/null 2>&1
}

# picture PNG TRACE [VIEW OPTIONS...]: draws one frame of a recorded trace into docs/pictures.
picture() {
    png=$1
    trace=$2
    shift 2
    "$view" "$work/$trace" --png "$out/$png" "$@"
    echo "wrote docs/pictures/$png"
}

# Lab 01: Hillis-Steele on 16 elements; each row a step, the arrows double their reach.
lab lab01.trace.json 01 --n 16
picture lab01-hillis-steele.png lab01.trace.json --view array --size 1000x520

# Lab 02: Blelloch's up-sweep (a tree of partial sums) and down-sweep, 32 elements.
lab lab02.trace.json 02 --n 32
picture lab02-blelloch.png lab02.trace.json --view array --size 1300x700

# Lab 03: the worst instruction of the up-sweep's step 3, without and with padding; the heat
# strip shows the conflicts of every step.
lab lab03-unpadded.trace.json 03 --n 256 --variant unpadded
lab lab03-padded.trace.json 03 --n 256 --variant padded
picture lab03-banks-unpadded.png lab03-unpadded.trace.json --view bank --step 3 --size 1200x520
picture lab03-banks-padded.png lab03-padded.trace.json --view bank --step 3 --size 1200x520

# Lab 04: the blocks of the tile scans on their resident slots.
lab lab04.trace.json 04 --n 8192
picture lab04-blocks.png lab04.trace.json --view timeline --size 1200x420

# Lab 07: the reference look-back scan on 8 tiles, blocks started in shuffled order; the tile rows
# show when each tile's descriptor went from X to A to P.
env SIMT_DISPATCH=shuffled "$tracer" 07 --n 32768 --blocks all --out "$work/lab07.trace.json" \
    >/dev/null
picture lab07-tile-flags.png lab07.trace.json --view timeline --size 1200x600

# Lab 07's look-back in detail: tile ids from blockIdx.x (variant block-index) and blocks started
# in shuffled order, so that tiles whose blocks started early publish A and wait for tile 0; tile
# 7's look-back (block 7 recorded, so that it is the selected block) adds the aggregates of tiles
# 1-6 to tile 0's P. The lesson quotes the commands.
env SIMT_DISPATCH=shuffled SIMT_SEED=7 "$tracer" 07 --variant block-index --n 32768 \
    --blocks 7 --out "$work/lab07-block-index.trace.json" >/dev/null
picture lab07-lookback.png lab07-block-index.trace.json --view timeline --tile 7 --size 1200x560

# Lab 07's lesson on tile ids: a look-back scan that waits (static tile ids, shuffled dispatch),
# from the example program, every block recorded; the magenta bars are warps polling, the tile
# rows show the waiting tiles' A until tile 0's P.
example lab07-spin.trace.json lookback_scan SIMT_TRACE_BLOCKS=all SIMT_DISPATCH=shuffled \
    -- 8 static
picture lab07-lookback-waits.png lab07-spin.trace.json --view timeline --size 1200x460

# Lab 09: the second pass (digit bits 8..15, the sort's fourth launch: lab09.trace.3.json) of a
# sort of 3 tiles, blocks started in shuffled order; block 2 took tile 2, so its digits look back
# across tiles 1 and 0 (tile 1's A, tile 0's P). The lesson quotes
# the commands.
env SIMT_DISPATCH=shuffled SIMT_SEED=7 "$tracer" 09 --blocks all --out "$work/lab09.trace.json" \
    >/dev/null
picture lab09-radix-pass.png lab09.trace.3.json --view radix --block 2 --size 1300x760
