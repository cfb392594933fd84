#!/usr/bin/env bash
# Prints the number of every lab in the list of labs (labs/CMakeLists.txt), one a line: for the
# scripts that build or run each lab, so that adding a lab touches that list, not them.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
sed -n 's/^scanlab_lab_if_present(\([0-9][0-9]\) .*/\1/p' labs/CMakeLists.txt
