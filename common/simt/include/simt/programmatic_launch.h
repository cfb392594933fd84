// Programmatic dependent launch (PDL) on the simt backend: cudaLaunchKernelEx with a launch
// configuration and attributes, and the two device calls that go with it.
//
// On a GPU, a kernel launched with cudaLaunchAttributeProgrammaticStreamSerialization may start
// while the kernel before it in the stream is still running; cudaGridDependencySynchronize()
// waits, in the dependent kernel, until that kernel has finished and its memory is visible, and
// cudaTriggerProgrammaticLaunchCompletion() in the first kernel lets the dependent one start
// early. The emulator runs launches one after the other, so the dependent kernel always sees
// the finished results; its checks instead report an access made before
// cudaGridDependencySynchronize() to memory that the launch before wrote (or a write to memory
// it read): on a GPU that access races the running kernel (docs/emulator.md).
#pragma once

#include <utility>

#include "simt/launch.h"
#include "simt/types.h"

enum cudaLaunchAttributeID {
    cudaLaunchAttributeIgnore = 0,
    cudaLaunchAttributeAccessPolicyWindow = 1,
    cudaLaunchAttributeCooperative = 2,
    cudaLaunchAttributeSynchronizationPolicy = 3,
    cudaLaunchAttributeClusterDimension = 4,
    cudaLaunchAttributeClusterSchedulingPolicyPreference = 5,
    cudaLaunchAttributeProgrammaticStreamSerialization = 6,
    cudaLaunchAttributeProgrammaticEvent = 7,
    cudaLaunchAttributePriority = 8,
};

union cudaLaunchAttributeValue {
    char pad[64];
    int cooperative;
    int programmaticStreamSerializationAllowed;
    int priority;
    struct {
        unsigned int x, y, z;
    } clusterDim;
};

struct cudaLaunchAttribute {
    cudaLaunchAttributeID id;
    char pad[8 - sizeof(cudaLaunchAttributeID)];
    cudaLaunchAttributeValue val;
};

// gridDim and blockDim are macros on the simt backend (the built-in variables): the rewriter
// turns the member names `.gridDim` / `->blockDim` in .cu files into these (keywords.cpp).
struct cudaLaunchConfig_t {
    dim3 simt_gridDim;
    dim3 simt_blockDim;
    size_t dynamicSmemBytes = 0;
    cudaStream_t stream = nullptr;
    cudaLaunchAttribute* attrs = nullptr;
    unsigned int numAttrs = 0;
};

namespace simt::detail {
// Checks the configuration and its attributes; sets `programmatic` for programmatic stream
// serialization. An attribute the emulator does not model is refused with its name.
cudaError_t read_launch_config(const cudaLaunchConfig_t* config, bool& programmatic);
// The error of the last launch on this host thread (cudaSuccess if it ran clean).
cudaError_t last_launch_error();
} // namespace simt::detail

template <class... Params, class... Args>
cudaError_t cudaLaunchKernelEx(const cudaLaunchConfig_t* config, void (*kernel)(Params...),
                               Args&&... args) {
    bool programmatic = false;
    if (const cudaError_t e = simt::detail::read_launch_config(config, programmatic);
        e != cudaSuccess)
        return e;
    simt::launch(kernel, config->simt_gridDim, config->simt_blockDim, config->dynamicSmemBytes,
                 config->stream)
        .programmatic_dependency(programmatic)(std::forward<Args>(args)...);
    return simt::detail::last_launch_error();
}

// Device side. Outside a programmatic dependent launch both return at once, as on a GPU.
void cudaGridDependencySynchronize();
void cudaTriggerProgrammaticLaunchCompletion();
