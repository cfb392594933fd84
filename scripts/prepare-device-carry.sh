#!/usr/bin/env bash
# Fetches the Debian packages that a GPU machine without package access needs for
# scripts/gpu-check.sh (the headers and CMake files of doctest and CLI11) into .device-carry/debs/,
# bubblewrap for scripts/gpu-sandbox-check.sh into .device-carry/bwrap/, and the pinned
# nvidia-cuda-cccl wheel (the benchmark's newest CUB: scripts/newest-cccl.sh) into
# .device-carry/wheels/, which gpu-check.sh unpacks there.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
mkdir -p .device-carry/debs
cd .device-carry/debs
apt-get download doctest-dev libcli11-dev >/dev/null
ls -1
mkdir -p ../bwrap
cd ../bwrap
apt-get download bubblewrap libcap2 libselinux1 libpcre2-8-0 >/dev/null
ls -1
cd ../..
scripts/newest-cccl.sh --wheel .device-carry/wheels
ls -1 .device-carry/wheels
