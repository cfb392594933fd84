# Sourced by the scripts that build on a GPU machine (scripts/gpu-check.sh, scripts/bench-pdl.sh),
# from the repository's root:
#   source scripts/gpu-machine.sh DEFAULT_OUT_NAME [OUT_DIR]
# sets `root` (this checkout), `out` (OUT_DIR, else $OUT, else $root/DEFAULT_OUT_NAME; made) and
# `build` ($SCANLAB_GPU_BUILD_DIR, else $root/build-gpu), and brings what such a machine may lack
# from what scripts/prepare-device-carry.sh put in .device-carry/:
#   - Debian's doctest-dev and libcli11-dev where the image has no package access: their .deb
#     files are unpacked into .device-carry/root, and `prefix` (an array of CMake arguments) points
#     CMake there; empty where the packages are installed.
#   - the benchmark's newest CUB (scripts/newest-cccl.sh), from the wheel in
#     .device-carry/wheels/ where the machine has no PyPI.
root="$PWD"
out="${2:-${OUT:-$root/$1}}"
mkdir -p "$out"
build="${SCANLAB_GPU_BUILD_DIR:-$root/build-gpu}"

prefix=()
if [[ -d .device-carry/debs ]] && { [[ ! -f /usr/include/doctest/doctest.h ]] || [[ ! -f /usr/include/CLI/CLI.hpp ]]; }; then
    mkdir -p .device-carry/root
    for deb in .device-carry/debs/*.deb; do dpkg-deb -x "$deb" .device-carry/root; done
    prefix=(-DCMAKE_PREFIX_PATH="$PWD/.device-carry/root/usr")
fi
if [[ ! -f .deps/newest-cccl/VERSION ]]; then
    for wheel in .device-carry/wheels/nvidia_cuda_cccl-*.whl; do
        [[ -f "$wheel" ]] && scripts/newest-cccl.sh --unpack "$wheel" >/dev/null
    done
fi
