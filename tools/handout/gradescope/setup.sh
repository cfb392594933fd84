#!/usr/bin/env bash
# Gradescope autograder setup for Scan Lab (made by tools/handout/make_handout.py --gradescope).
# Gradescope runs this once, as root, when it builds the autograder image; this bundle is
# unpacked in /autograder/source. Choose the "Ubuntu 24.04" base image (CMake >= 3.25 and
# Python >= 3.11 come with it); on 22.04 this script installs newer ones.
set -euo pipefail
source_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$source_dir"
export DEBIAN_FRONTEND=noninteractive

echo "=== packages"
apt-get update -qq
if [[ -x scripts/install-deps.sh ]]; then
    scripts/install-deps.sh # the project's own list: compilers, CMake, Boost.Context, doctest...
else
    apt-get install -y -qq --no-install-recommends cmake ninja-build g++ binutils python3 \
        libboost-context-dev doctest-dev nlohmann-json3-dev libcli11-dev bubblewrap
fi
# The sandbox for the students' code (the project's list has it too; an older list may not).
command -v bwrap >/dev/null || apt-get install -y -qq --no-install-recommends bubblewrap

version_ok() { # version_ok <have> <need>: have >= need
    [[ "$(printf '%s\n%s\n' "$2" "$1" | sort -V | head -1)" == "$2" ]]
}
py_version="$(python3 -c 'import sys; print("%d.%d" % sys.version_info[:2])')"
if ! version_ok "$py_version" 3.11; then
    echo "python3 is $py_version; installing python3.11 for the grader"
    apt-get install -y -qq --no-install-recommends python3.11
fi
cmake_version="$(cmake --version | head -1 | awk '{print $3}')"
if ! version_ok "$cmake_version" 3.25; then
    echo "cmake is $cmake_version; installing a newer CMake with pip"
    apt-get install -y -qq --no-install-recommends python3-pip
    python3 -m pip install --quiet 'cmake>=3.25' || python3 -m pip install --quiet \
        --break-system-packages 'cmake>=3.25'
    hash -r
fi

echo "=== an unprivileged user for the students' code"
id scanlab-student >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin scanlab-student
# The hidden tests stay readable by root only: the grader compiles them (as root) before it
# builds a submission, as scanlab-student, in a folder of its own. Without bubblewrap's namespaces
# (the user sandbox) the grader refuses to grade while scanlab-student can read them.
if [[ -d grading/hidden ]]; then
    chmod 700 grading/hidden
    find grading/hidden -type f -exec chmod 600 {} +
fi

echo "=== warm build: grading the untouched stubs once builds the emulator and every test program"
python="$(command -v python3.11 || command -v python3)"
build="${AUTOGRADER_ROOT:-/autograder}/build"
warm_out=/tmp/scanlab-warm-out
rm -rf /tmp/scanlab-warm "$warm_out"
"$python" tools/grader/grade.py labs --build-dir "$build" --work-dir /tmp/scanlab-warm \
    --out "$warm_out" --run-as scanlab-student --quiet || true
# Every lab must have been built and run (graded: the stubs score 0); anything else is a broken
# autograder, and Gradescope must say so now rather than with the first student's submission.
if ! "$python" - "$warm_out/results.json" <<'PY'
import json, sys
data = json.load(open(sys.argv[1]))
labs = data.get("extra_data", {}).get("labs", {})
bad = {number: info["status"] for number, info in labs.items() if info["status"] != "graded"}
print(data.get("output", ""))
if not labs or bad:
    print(f"setup.sh: the warm build failed for lab(s) {bad or 'all'}", file=sys.stderr)
    sys.exit(1)
PY
then
    echo "=== setup FAILED: the warm build did not build and run every lab; its logs:" >&2
    tail -n 60 "$warm_out"/logs/*.log >&2 || true
    exit 1
fi
rm -rf /tmp/scanlab-warm "$warm_out"
echo "=== setup done"
