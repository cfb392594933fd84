// Programmatic dependent launch (PDL, Hopper and later): the launch helper and the two device
// calls that labs 05, 06 and 07 share (lab 07's README, "Launch latency and PDL", explains them).
//
// The host launches a kernel with cudaLaunchKernelEx and the programmatic-serialization attribute
// (launch_after_previous), so the GPU may start its blocks while the previous kernel in the
// stream is still finishing. The two device calls make that safe and useful:
//   wait_for_previous_grid(): returns once the previous kernel has COMPLETED and its writes are
//     visible (cudaGridDependencySynchronize). Nothing the previous kernel writes or reads may be
//     touched before it: our input may be its output.
//   let_next_grid_start(): the next kernel may be launched once every block of this grid has
//     called it (cudaTriggerProgrammaticLaunchCompletion); its blocks then take the SM slots that
//     ours free and wait in their own wait_for_previous_grid(). It orders no memory at all.
// Without the attribute both return at once. The CPU emulator runs the kernels one after the
// other, and reports an access made before wait_for_previous_grid() to memory that the kernel
// before wrote (or a write to memory it read): on a GPU that access races the running kernel.
#pragma once

#include <scanlab/cuda_check.h>

#include <cuda_runtime.h>

#include <cstdlib>
#include <cstring>

namespace scanlab {

__device__ inline void wait_for_previous_grid() {
    cudaGridDependencySynchronize();
}
__device__ inline void let_next_grid_start() {
    cudaTriggerProgrammaticLaunchCompletion();
}

/// False when the environment has SCANLAB_PDL=0 (read once): launch_after_previous then launches
/// without the attribute, to measure what PDL gains.
inline bool pdl_enabled() {
    static const bool enabled = [] {
        const char* setting = std::getenv("SCANLAB_PDL");
        return setting == nullptr || std::strcmp(setting, "0") != 0;
    }();
    return enabled;
}

/// Launches kernel<<<blocks, threads>>>(args...) on the default stream with programmatic
/// dependent launch: the GPU may start it while the kernel before it drains (the kernel waits
/// for that one in wait_for_previous_grid()). Throws std::runtime_error if the launch fails.
template <class... Params, class... Args>
void launch_after_previous(void (*kernel)(Params...), unsigned blocks, unsigned threads,
                           Args... args) {
    cudaLaunchAttribute attribute{};
    attribute.id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attribute.val.programmaticStreamSerializationAllowed = 1;
    // The members in their order: gridDim, blockDim, dynamicSmemBytes, stream (0: the default
    // stream, as kernel<<<blocks, threads>>>), attrs, numAttrs. Not by name: the emulator spells
    // the first two differently (docs/simtcc.md), and this header is not rewritten for it.
    const unsigned attributes = pdl_enabled() ? 1u : 0u;
    const cudaLaunchConfig_t config{dim3(blocks), dim3(threads), 0, 0, &attribute, attributes};
    SCANLAB_CUDA_CHECK(cudaLaunchKernelEx(&config, kernel, static_cast<Params>(args)...));
}

} // namespace scanlab
