#!/usr/bin/env bash
# The grader's sandbox with the cuda backend on a GPU machine: grades lab 00 and 01's reference
# solutions (must score full points), the untouched lab 01 stub, and three attacks from the
# catalog (assembled by tests/grader/submissions/assemble.py: forge_atexit and forge_early, a
# report forged before main(), must score 0; daemon keeps its points and leaves no process
# behind), each with --sandbox require (bubblewrap namespaces). Every lab is graded as harness
# and worker (tools/worker) on the cuda backend too.
#   scripts/gpu-sandbox-check.sh OUT_DIR
# Where the machine has no bubblewrap, doctest or CLI11 (a GPU image without package access),
# scripts/prepare-device-carry.sh puts their .deb files under .device-carry/ and they are
# unpacked here.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
out=${1:?usage: scripts/gpu-sandbox-check.sh OUT_DIR}
mkdir -p "$out"
root=$PWD
prefix=()
if compgen -G ".device-carry/*/*.deb" >/dev/null; then
    for deb in .device-carry/*/*.deb; do dpkg-deb -x "$deb" .device-carry/root; done
    export PATH="$root/.device-carry/root/usr/bin:$PATH"
    export LD_LIBRARY_PATH="$root/.device-carry/root/lib/x86_64-linux-gnu:$root/.device-carry/root/usr/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}"
    prefix=(--cmake-arg="-DCMAKE_PREFIX_PATH=$root/.device-carry/root/usr")
fi
nvidia-smi --query-gpu=name --format=csv,noheader

failures=0
grade() { # name, expected score, submission, labs
    local name=$1 want=$2 sub=$3 labs=$4
    python3 tools/grader/grade.py "$sub" --labs "$labs" --backend cuda --sandbox require \
        --hidden no --build-dir build-gpu-sandbox --out "$out/$name" "${prefix[@]}" \
        --cmake-arg=-DCMAKE_CUDA_ARCHITECTURES=90 --cmake-arg=-DSCANLAB_SIMT=OFF \
        >"$out/$name.log" 2>&1
    local got
    got=$(python3 -c "import json,sys; d=json.load(open(sys.argv[1])); \
print(d['score'], d['extra_data']['sandbox'])" "$out/$name/results.json" 2>/dev/null)
    if [[ "$got" == "$want namespaces" ]]; then
        echo "$name: $got (as it must)"
    else
        echo "$name: FAILED: got '$got', want '$want namespaces' (see $out/$name.log)"
        failures=$((failures + 1))
    fi
}

rm -rf "$out/solutions" && mkdir -p "$out/solutions"
cp -r solutions/00_sequential solutions/01_naive "$out/solutions/"
grade solutions 15.0 "$out/solutions" 00,01
grade stub 0.0 labs 01
for attack in forge_atexit forge_early daemon; do # stored as recipes: assembled into a labs folder
    rm -rf "$out/submissions/$attack"
    python3 tests/grader/submissions/assemble.py "$attack" "$out/submissions/$attack" ||
        failures=$((failures + 1))
done
grade forge_atexit 0.0 "$out/submissions/forge_atexit" 01
grade forge_early 0.0 "$out/submissions/forge_early" 01
grade daemon 10.0 "$out/submissions/daemon" 01
sleep 5 # the daemon would still be alive (and rewrite results.json) by now
if pgrep -f "tests_student_cuda|worker_cuda" >/dev/null; then
    echo "a process of a submission outlived its grade:"; pgrep -af "tests_student_cuda|worker_cuda"
    failures=$((failures + 1))
fi
echo "gpu-sandbox-check: $failures problem(s)"
[[ $failures -eq 0 ]]
