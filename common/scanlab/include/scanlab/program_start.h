// What a program built for either backend does before its own work (the test mains, the main
// job): on the simt backend, take the emulator's flags out of argv; on the cuda backend, find a
// GPU. Header-only: the backend is the including program's (SCANLAB_BACKEND_SIMT or _CUDA).
#pragma once

#include <cuda_runtime.h>

#include <cstdio>
#include <exception>
#include <string>

#ifdef SCANLAB_BACKEND_SIMT
#include "simt/options.h"
#endif

namespace scanlab {

// On the simt backend, removes the emulator's flags (--simt-mode=..., docs/emulator.md) from
// argv and lowers argc; a bad one is printed and false returned (the program exits with 2).
// The cuda backend has no such flags: argv stays as it is.
inline bool take_emulator_flags([[maybe_unused]] int& argc, [[maybe_unused]] char** argv) {
#ifdef SCANLAB_BACKEND_SIMT
    try {
        argc = simt::consume_cli_flags(argc, argv);
    } catch (const std::exception& error) {
        std::fprintf(stderr, "%s\n", error.what());
        return false;
    }
#endif
    return true;
}

// Why there is no GPU to run on: empty on the simt backend (the emulator is the device), and on
// the cuda backend where the runtime counts one or more devices.
inline std::string missing_gpu() {
#ifdef SCANLAB_BACKEND_CUDA
    int devices = 0;
    const cudaError_t status = cudaGetDeviceCount(&devices);
    if (status != cudaSuccess) return cudaGetErrorString(status);
    if (devices == 0) return "0 devices found";
#endif
    return {};
}

} // namespace scanlab
