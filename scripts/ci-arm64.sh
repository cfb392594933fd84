#!/usr/bin/env bash
# CI job for arm64 Linux: cross-builds the emulator's tests and the solution tests of labs 01 and
# 07 (scripts/ci-platform-labs.sh says why; SCANLAB_PLATFORM_LABS=all: every lab) with Debian's
# aarch64 g++ and runs them under qemu-user (ctest goes through the toolchain file's
# CMAKE_CROSSCOMPILING_EMULATOR). The build-time rewriter is built for this machine
# (docs/simtcc.md, "CMake"). docs/platforms.md says what this proves and what it does not.
#
# Debian 12 (amd64) packages, as root, besides the usual ones (scripts/install-deps.sh):
#   dpkg --add-architecture arm64
#   apt-get update
#   apt-get install -y --no-install-recommends g++-aarch64-linux-gnu qemu-user \
#       libboost-context-dev:arm64
#
#   scripts/ci-arm64.sh            build in build-arm64/ and test
# Environment: SCANLAB_ARM64_BUILD (the build folder), SCANLAB_ARM64_JOBS (parallel compiles and
# tests; default: the number of cores), SCANLAB_ARM64_CCACHE=1 (compile through ccache),
# SCANLAB_ARM64_REWRITER=<path> (a simt-rewrite already built for this machine, e.g. the native
# build's build/bin/simt-rewrite: the cross build then does not build one of its own).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
build=${SCANLAB_ARM64_BUILD:-build-arm64}
jobs=${SCANLAB_ARM64_JOBS:-$(nproc)}
start=$SECONDS

for tool in aarch64-linux-gnu-g++ qemu-aarch64 cmake ninja; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "ci-arm64: '$tool' is missing; the apt-get lines at the top of $0 install it" >&2
        exit 2
    fi
done
if [[ -z "$(compgen -G '/usr/lib/aarch64-linux-gnu/cmake/boost_context-*')" ]]; then
    echo "ci-arm64: Boost.Context for arm64 is missing; the apt-get lines at the top of $0" \
         "install it (libboost-context-dev:arm64)" >&2
    exit 2
fi

launcher=()
if [[ "${SCANLAB_ARM64_CCACHE:-0}" == 1 ]]; then
    launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
fi

rewriter=()
if [[ -n "${SCANLAB_ARM64_REWRITER:-}" ]]; then
    if [[ ! -x "$SCANLAB_ARM64_REWRITER" ]]; then
        echo "ci-arm64: SCANLAB_ARM64_REWRITER=$SCANLAB_ARM64_REWRITER is not an executable" >&2
        exit 2
    fi
    rewriter=(-DSIMT_REWRITE_EXECUTABLE="$(realpath "$SCANLAB_ARM64_REWRITER")")
fi

echo "=== configure ($build, aarch64 cross)"
# qemu runs the tests several times slower than the host: longer limits per test program.
# Debian 12's qemu-user (7.2) hangs in any program that starts a thread (a four-line std::thread
# program never gets to clone()), so emulator.semantics runs without its one case that launches
# from several host threads; the g++ and clang jobs run that case natively.
host_threads_case='host threads: *'
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DCMAKE_TOOLCHAIN_FILE=cmake/toolchains/aarch64-linux-gnu.cmake \
      -DSCANLAB_CUDA=OFF -DSCANLAB_LAB_TEST_TIMEOUT=1200 -DSCANLAB_EMULATOR_TEST_TIMEOUT=1200 \
      "-DSCANLAB_EMULATOR_SEMANTICS_EXCLUDE=$host_threads_case" \
      "${launcher[@]}" "${rewriter[@]}" >/dev/null

# Only what the tests below need (not the tools, the tracer, the visualizer or the students'
# stubs).
targets=(emulator_semantics_simt emulator_faults_simt emulator_planted_bugs_simt
         example_tile_scan_simt simt_rewrite_test)
source scripts/ci-platform-labs.sh
for lab in "${platform_labs[@]}"; do targets+=("lab${lab}_tests_solution_simt"); done
echo "=== build (${#targets[@]} test programs)"
cmake --build "$build" -j "$jobs" --target "${targets[@]}"
built=$SECONDS

echo "=== tests under qemu-aarch64"
tests='^(emulator\.(semantics|faults|planted_bugs)\.simt|emulator\.(rewrite|simtcc)'
tests+="|example\\.tile_scan\\.simt|$platform_lab_tests)\$"
status=0
ctest --test-dir "$build" -R "$tests" -j "$jobs" --output-on-failure || status=$?
echo "=== ci-arm64: build $((built - start)) s, tests $((SECONDS - built)) s"
exit "$status"
