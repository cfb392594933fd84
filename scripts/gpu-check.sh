#!/usr/bin/env bash
# The whole GPU check in one go, for a machine with an NVIDIA GPU and the CUDA toolkit:
# builds the cuda backend (sm_90 by default), runs every GPU test (labs' solutions and the
# emulator's semantics tests, which hold the emulator to the hardware), the main job, the
# benchmarks, the 2011 chapter's warp scan (compared with the emulator's lockstep), and
# compute-sanitizer over the lab tests. Logs go to OUT_DIR.
#
#   scripts/gpu-check.sh [OUT_DIR]        (default: $OUT, else ./gpu-check-out)
#   CUDA_ARCH=90 SCANLAB_SANITIZE=0 scripts/gpu-check.sh
#
# Where the machine lacks Debian's doctest-dev or libcli11-dev (a GPU image without package access), put the
# .deb under .device-carry/debs/ (scripts/prepare-device-carry.sh does) and it is unpacked here.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
# root, out, build; prefix=(...): CMake's way to carried packages; the newest CUB
source scripts/gpu-machine.sh gpu-check-out "${1:-}"
arch="${CUDA_ARCH:-90}"
status=0
step() { printf '\n=== %s\n' "$*" | tee -a "$out/summary.log"; }

step "machine"
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv | tee -a "$out/summary.log"
nvcc --version | tail -2 | tee -a "$out/summary.log"

step "configure and build the cuda backend for sm_$arch"
# The emulator backend is the CPU's business; build it here only when asked (it needs
# Boost.Context's library, which GPU images often lack).
simt="${SCANLAB_GPU_SIMT:-OFF}"
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DSCANLAB_CUDA=ON \
    -DSCANLAB_SIMT="$simt" -DCMAKE_CUDA_ARCHITECTURES="$arch" "${prefix[@]}" \
    >"$out/build.log" 2>&1 || { tail -30 "$out/build.log"; exit 1; }
if ! cmake --build "$build" -j "$(nproc)" >>"$out/build.log" 2>&1; then
    grep -E "error|Error" "$out/build.log" | head -40
    exit 1
fi
echo "built" | tee -a "$out/summary.log"
# The device tool brings back at most 8 files: a successful build's log is not one of them.
rm -f "$out/build.log"

step "GPU tests (ctest -L gpu)"
# The student stubs fail by design; their tests are not part of the check.
ctest --test-dir "$build" -L gpu -LE student --output-on-failure --timeout 900 \
    >"$out/ctest-gpu.log" 2>&1 ||
    status=1
grep -E "tests passed|tests failed|\(Failed\)|\(Timeout\)|Not Run|Total Test time" \
    "$out/ctest-gpu.log" | tee -a "$out/summary.log"

step "main job on the GPU"
"$build/bin/scanlab_run_cuda" 2>&1 | tee -a "$out/summary.log" ||
    status=1

if [[ -x "$build/bin/scanlab_bench" ]]; then
    step "benchmarks"
    # (the device tool brings back at most 8 files: logs go into summary.log)
    "$build/bin/scanlab_bench" --out "$out" 2>&1 | tail -60 | tee -a "$out/summary.log" ||
        status=1
    python3 scripts/plot-bench.py "$out" 2>&1 | tee -a "$out/summary.log" || true
    rm -f "$out/single_block.png"
fi

step "the 2011 chapter's warp scan on this GPU (what the emulator's modes are compared with)"
# tests/emulator/lockstep_test.cu says what each emulator mode computes for this kernel; this is
# what the GPU computes (independent thread scheduling: wrong results are possible, not certain).
if nvcc -O2 -arch="sm_$arch" -I tests/emulator tools/lockstep_check/segscan_chapter.cu \
    -o "$build/segscan_chapter" >"$out/segscan-build.log" 2>&1; then
    rm -f "$out/segscan-build.log"
    "$build/segscan_chapter" 200 2>&1 | tee -a "$out/summary.log"
else
    echo "segscan_chapter did not build (segscan-build.log)" | tee -a "$out/summary.log"
    status=1
fi

if [[ "${SCANLAB_SANITIZE:-1}" == "1" ]] && command -v compute-sanitizer >/dev/null; then
    step "compute-sanitizer (memcheck, racecheck, synccheck) on the lab solutions' tests"
    for exe in "$build"/bin/lab*_tests_solution_cuda; do
        for tool in memcheck racecheck synccheck; do
            name="$(basename "$exe") $tool"
            echo "=== $name" >>"$out/sanitizer.log"
            if compute-sanitizer --tool "$tool" --error-exitcode 9 "$exe" \
                -tc="*int32*" >>"$out/sanitizer.log" 2>&1; then
                echo "$name: clean" | tee -a "$out/summary.log"
            else
                echo "$name: FAILED (see sanitizer.log)" | tee -a "$out/summary.log"
                status=1
            fi
        done
    done
fi

step "result: $([[ $status == 0 ]] && echo PASS || echo FAIL)"
exit $status
