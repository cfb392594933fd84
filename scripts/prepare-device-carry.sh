#!/usr/bin/env bash
# Fetches the Debian packages that a GPU machine without package access needs for
# scripts/gpu-check.sh (doctest's header and CMake files) into .device-carry/debs/.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
mkdir -p .device-carry/debs
cd .device-carry/debs
apt-get download doctest-dev >/dev/null
ls -1
