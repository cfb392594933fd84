// doctest main for the emulator's own tests. On the simt backend it accepts the emulator's
// --simt-* flags; on the cuda backend it skips cleanly (exit 77) where there is no GPU.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cuda_runtime.h>

#include <cstdio>
#include <exception>

#ifdef SCANLAB_BACKEND_SIMT
#include "simt/options.h"
#endif

int main(int argc, char** argv) {
#ifdef SCANLAB_BACKEND_SIMT
    try {
        argc = simt::consume_cli_flags(argc, argv);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "%s\n", e.what());
        return 2;
    }
#else
    int devices = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
        std::printf("SKIPPED: no CUDA device; the cuda backend's tests need a GPU\n");
        return 77;
    }
#endif
    doctest::Context context(argc, argv);
    return context.run();
}
