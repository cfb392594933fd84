#!/usr/bin/env bash
# Fuzz the trace reader for a bounded time: tests/fuzz/run_trace_fuzz.sh SECONDS [JOBS]
# Builds tests/fuzz/trace_reader_fuzz.cpp with clang++ (libFuzzer, ASan, UBSan) in a temporary
# build directory, seeds the corpus with valid traces (the fixtures, the documentation's example
# and small variants of them) and runs until SECONDS have passed. Exits non-zero, leaving the
# crashing input in the build directory, when the fuzzer finds a problem.
# Needs clang++ with libFuzzer (Debian and Ubuntu: clang, libclang-rt-dev) and cmake.
set -euo pipefail

seconds=${1:?usage: run_trace_fuzz.sh SECONDS [JOBS]}
jobs=${2:-1}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/trace-fuzz.XXXXXX")
clangxx=$(command -v clang++ || command -v clang++-14 || true)
[[ -n "$clangxx" ]] || { echo "run_trace_fuzz.sh: clang++ not found" >&2; exit 2; }

# A standalone project around common/trace, so the fuzz build needs nothing else of the repo.
mkdir -p "$work/project"
cat > "$work/project/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.25)
project(trace_fuzz CXX)
set(CMAKE_CXX_STANDARD 20)
set(CMAKE_CXX_STANDARD_REQUIRED ON)
add_subdirectory("$root/common/trace" trace)
CMAKE
cmake -S "$work/project" -B "$work/build" -DCMAKE_CXX_COMPILER="$clangxx" \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSCANLAB_FUZZ=ON -DSCANLAB_BUILD_TESTS=OFF > "$work/cmake.log"
cmake --build "$work/build" --target trace_reader_fuzz -j "$(nproc)" > "$work/build.log" ||
    { cat "$work/build.log" >&2; exit 2; }

# Seeds: valid traces, and the same with each big section cut to its first elements (small
# valid inputs mutate faster).
corpus="$work/corpus"
mkdir -p "$corpus"
cp "$root"/tests/trace/fixtures/*.trace.json "$corpus/"
sed -n '/<!-- example: trace_make_fixtures --example -->/,/^```$/p' "$root/docs/trace-format.md" |
    sed '1,2d;$d' > "$corpus/example.trace.json"
python3 - "$corpus" "$root" <<'PY' || true
import json, pathlib, sys
corpus = pathlib.Path(sys.argv[1])
for path in sorted(corpus.glob("*.trace.json")):
    doc = json.loads(path.read_text())
    keep = 3
    small = dict(doc)
    small["instructions"] = [i for i in doc["instructions"][:keep]]
    for ins in small["instructions"]:
        for lane in ins["lanes"]:
            w = lane.get("writer")
            if w and w["instruction"] >= keep:
                lane.pop("writer")
    (corpus / (path.stem + ".small.json")).write_text(json.dumps(small))
# The example with version 4's mbarrier events (tests/trace/trace_documents.py).
sys.path.insert(0, str(pathlib.Path(sys.argv[2]) / "tests" / "trace"))
from trace_documents import MBARRIER_EVENTS
example = json.loads((corpus / "example.trace.json").read_text())
example["mbarriers"] = MBARRIER_EVENTS
(corpus / "example_mbarriers.trace.json").write_text(json.dumps(example))
PY

echo "fuzzing the trace reader for ${seconds}s in $work"
cd "$work"
parallel=()
[[ "$jobs" -gt 1 ]] && parallel=(-jobs="$jobs" -workers="$jobs")
set +e
"$work/build/trace/trace_reader_fuzz" "$corpus" -dict="$root/tests/fuzz/trace.dict" \
    -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
    -print_final_stats=1 "${parallel[@]}" > "$work/fuzz.log" 2>&1
status=$?
set -e
tail -n 25 "$work/fuzz.log"
if [[ $status -ne 0 ]] || compgen -G "$work/crash-*" > /dev/null || compgen -G "$work/leak-*" > /dev/null ||
    compgen -G "$work/timeout-*" > /dev/null || compgen -G "$work/oom-*" > /dev/null; then
    echo "run_trace_fuzz.sh: the fuzzer found a problem (exit $status); see $work/fuzz.log" >&2
    exit 1
fi
echo "run_trace_fuzz.sh: no problem found in ${seconds}s"
