#!/usr/bin/env bash
# Fetches the Debian packages that a GPU machine without package access needs for
# scripts/gpu-check.sh (the headers and CMake files of doctest and CLI11) into .device-carry/debs/.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
mkdir -p .device-carry/debs
cd .device-carry/debs
apt-get download doctest-dev libcli11-dev >/dev/null
ls -1
