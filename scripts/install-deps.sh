#!/usr/bin/env bash
# Installs the Debian 12 / Ubuntu 24.04 packages Scan Lab needs, and only those that are missing
# (the names are the same on both; on Ubuntu they are in the universe component).
#   scripts/install-deps.sh            build + tests (emulator, labs, tools)
#   scripts/install-deps.sh --all      also the visualizer, headless display, plots, fuzzing and
#                                      ccache (CI's cache of compiles),
#                                      and the benchmark's newest CUB (scripts/newest-cccl.sh,
#                                      pip; headers only, into .deps/newest-cccl)
#   scripts/install-deps.sh --view     the --all packages without the newest CUB (what
#                                      `./scanlab view` needs)
#   scripts/install-deps.sh --platforms  also clang 16 (with libc++) and the arm64 cross build
#                                        with qemu (scripts/ci-clang.sh, scripts/ci-arm64.sh)
#   a second argument --download-only fetches the missing packages into apt's cache and installs
#   nothing (CI downloads the platform packages while its tests run)
# Runs apt-get as root, or through sudo. Prints what it would install when it cannot.
set -euo pipefail

# bubblewrap: the grader's sandbox for submissions (tools/grader/scanlab_grader/sandbox.py)
core=(cmake ninja-build g++ binutils python3 libboost-context-dev doctest-dev
      nlohmann-json3-dev libcli11-dev python3-jsonschema bubblewrap)
# ccache: CI (.ci/run) compiles the same sources in several build folders of one run.
extra=(libimgui-dev libglfw3-dev libgl-dev libstb-dev xvfb xauth libgl1-mesa-dri
       mesa-utils python3-matplotlib clang libclang-rt-dev ccache)

# The arm64 Boost.Context comes from Debian's arm64 archive (multiarch, added below).
platforms=(clang-16 libc++-16-dev libc++abi-16-dev g++-aarch64-linux-gnu qemu-user
           libboost-context-dev:arm64)

download_only=()
if [[ "${2:-}" == "--download-only" ]]; then
    download_only=(--download-only)
elif [[ -n "${2:-}" ]]; then
    echo "usage: scripts/install-deps.sh [--all|--view|--platforms] [--download-only]" >&2
    exit 2
fi

wanted=("${core[@]}")
case "${1:-}" in
--all | --view) wanted+=("${extra[@]}") ;;
--platforms) wanted+=("${extra[@]}" "${platforms[@]}") ;;
"") ;;
*) echo "usage: scripts/install-deps.sh [--all|--view|--platforms] [--download-only]" >&2; exit 2 ;;
esac

if ! command -v dpkg-query >/dev/null 2>&1 || ! command -v apt-get >/dev/null 2>&1; then
    echo "scanlab: this system has no apt-get/dpkg (it is not Debian or Ubuntu)." >&2
    echo "scanlab: install the equivalents of these Debian packages: ${wanted[*]}" >&2
    echo "scanlab: or use the container (README: \"Other systems\"): docker build -t scan-lab ." >&2
    exit 1
fi

if [[ "${1:-}" == "--all" && -z "${2:-}" ]]; then
    # The newest CUB for the benchmark: a pinned wheel of headers, not a Debian package.
    "$(dirname "${BASH_SOURCE[0]}")/newest-cccl.sh" ||
        echo "scanlab: could not fetch the newest CCCL (scripts/newest-cccl.sh); the benchmark will compare with the toolkit's CUB alone" >&2
fi

missing=()
for p in "${wanted[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$p")
    fi
done
if ((${#missing[@]} == 0)); then exit 0; fi

if [[ $(id -u) -eq 0 ]]; then
    sudo=()
elif command -v sudo >/dev/null 2>&1; then
    sudo=(sudo)
else
    echo "scanlab: these Debian packages are missing: ${missing[*]}" >&2
    echo "scanlab: install them as root: apt-get install -y ${missing[*]}" >&2
    exit 1
fi
verb=installing
if ((${#download_only[@]})); then verb=downloading; fi
echo "scanlab: $verb ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
if [[ " ${missing[*]} " == *":arm64 "* ]] && ! dpkg --print-foreign-architectures | grep -qx arm64; then
    "${sudo[@]}" dpkg --add-architecture arm64
fi
"${sudo[@]}" apt-get update -qq
if ! "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${download_only[@]}" "${missing[@]}" >/dev/null; then
    echo "scanlab: apt-get could not install: ${missing[*]}" >&2
    if grep -qi ubuntu /etc/os-release 2>/dev/null; then
        echo "scanlab: on Ubuntu these are in 'universe': sudo add-apt-repository universe" >&2
    fi
    exit 1
fi
