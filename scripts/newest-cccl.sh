#!/usr/bin/env bash
# The newest CUB for scanlab_bench's second baseline (bench/baselines_newest.cu): the headers of
# CCCL (CUB, Thrust, libcu++) from the nvidia-cuda-cccl wheel on PyPI, pinned to one version and
# checked against its SHA-256, unpacked into .deps/newest-cccl, where CMake finds them
# (SCANLAB_NEWEST_CCCL). Nothing is downloaded at build time.
#   scripts/newest-cccl.sh                  download the wheel (pip) and unpack it
#   scripts/newest-cccl.sh --wheel DIR      only download it into DIR (prepare-device-carry.sh)
#   scripts/newest-cccl.sh --unpack WHEEL   unpack a wheel downloaded earlier (gpu-check.sh)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# nvidia-cuda-cccl 13.3.5.0.6 is CCCL 3.5.0 (CUB 3.5.0), for CUDA 13.
version=13.3.5.0.6
wheel=nvidia_cuda_cccl-$version-py3-none-manylinux2014_x86_64.manylinux_2_17_x86_64.whl
sha256=d5230098fa2df5021e1a00c0c4eee41797671a91119d31e892463e5ccf3ee326
dest="$root/.deps/newest-cccl"

download() { # into $1
    mkdir -p "$1"
    if [[ ! -f "$1/$wheel" ]]; then
        python3 -m pip download --quiet --no-deps --only-binary=:all: \
            --platform manylinux2014_x86_64 --platform manylinux_2_17_x86_64 \
            -d "$1" "nvidia-cuda-cccl==$version"
    fi
    echo "$sha256  $1/$wheel" | sha256sum --check --quiet
}

unpack() { # the wheel $1
    echo "$sha256  $1" | sha256sum --check --quiet
    rm -rf "$dest"
    mkdir -p "$dest"
    python3 -m zipfile -e "$1" "$dest"
    echo "$version" >"$dest/VERSION"
    echo "newest CCCL $version: $dest/nvidia/cu13/include/cccl"
}

case "${1:-}" in
--wheel) download "${2:?usage: --wheel DIR}" ;;
--unpack) unpack "${2:?usage: --unpack WHEEL}" ;;
"")
    if [[ -f "$dest/VERSION" && "$(cat "$dest/VERSION")" == "$version" ]]; then exit 0; fi
    tmp="$(mktemp -d)"
    trap 'rm -rf "$tmp"' EXIT
    download "$tmp"
    unpack "$tmp/$wheel"
    ;;
*) echo "usage: scripts/newest-cccl.sh [--wheel DIR | --unpack WHEEL]" >&2; exit 2 ;;
esac
