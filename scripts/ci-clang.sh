#!/usr/bin/env bash
# CI job: the emulator built with clang, its own tests and the solution tests of two labs (01
# and 07: scripts/ci-platform-labs.sh says why; SCANLAB_PLATFORM_LABS=all takes every lab).
#   scripts/ci-clang.sh [VERSION] [libstdc++|libc++]
# VERSION is the installed clang-VERSION/clang++-VERSION (default 16, the oldest supported);
# the standard library defaults to libstdc++ (libc++ needs Debian's libc++-VERSION-dev and
# libc++abi-VERSION-dev). Builds into build-clang<VERSION>[-libc++] (BUILD_DIR overrides), only
# the targets these tests need, without the cuda backend, and exits non-zero on any failure.
# Debian packages: clang-16 (and libc++-16-dev libc++abi-16-dev for libc++) next to
# scripts/install-deps.sh's core list.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

version=${1:-16}
stdlib=${2:-libstdc++}
[[ $version =~ ^[0-9]+$ ]] || { echo "ci-clang.sh: VERSION must be a number, not '$version'" >&2; exit 2; }
case "$stdlib" in
libstdc++) flags="" suffix="" ;;
libc++) flags="-stdlib=libc++" suffix="-libc++" ;;
*) echo "ci-clang.sh: the standard library must be libstdc++ or libc++, not '$stdlib'" >&2; exit 2 ;;
esac
for tool in "clang-$version" "clang++-$version"; do
    command -v "$tool" >/dev/null || { echo "ci-clang.sh: $tool not found (apt-get install clang-$version)" >&2; exit 2; }
done
build=${BUILD_DIR:-build-clang$version$suffix}
start=$SECONDS

echo "=== clang $version with $stdlib: configure $build"
CC="clang-$version" CXX="clang++-$version" cmake -S . -B "$build" -G Ninja \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSCANLAB_CUDA=OFF -DSCANLAB_BUILD_TESTS=ON \
    -DCMAKE_CXX_FLAGS="$flags" >/dev/null

# What the tests below run, nothing else (no visualizer, no student libraries, no tools).
targets=(simt-rewrite simt_rewrite_test simt_runtime scanlab_trace emulator_semantics_simt
         emulator_faults_simt emulator_planted_bugs_simt example_tile_scan_simt
         fault_isolation_demo_simt hello_simt)
source scripts/ci-platform-labs.sh
for lab in "${platform_labs[@]}"; do targets+=("lab${lab}_tests_solution_simt"); done
echo "=== build (${#targets[@]} targets, -j2)"
cmake --build "$build" -j 2 --target "${targets[@]}"

echo "=== tests"
tests='^(emulator\.(simtcc|rewrite|semantics\.simt|faults\.simt|planted_bugs\.simt)'
tests+='|example\.tile_scan\.simt|example_hello_simt|support\.fault_isolation\.simt'
tests+="|$platform_lab_tests)\$"
ctest --test-dir "$build" -R "$tests" -j 2 --output-on-failure

echo "=== clang $version with $stdlib done in $((SECONDS - start)) s"
