// How much shared memory a launch of a kernel may use, as CUDA counts it (runtime_api.cpp keeps
// the kernels' cudaFuncAttributeMaxDynamicSharedMemorySize; launch.cpp and the engine check).
#pragma once

#include <cstddef>

namespace simt::detail {

// A block's static __shared__ variables alone: at most 48 KiB, whatever the attributes say.
constexpr std::size_t kStaticSharedPerBlock = 48 * 1024;

struct SharedLimits {
    std::size_t dynamic; // the most dynamic shared memory a launch may ask for
    std::size_t block;   // the most a block may use, static and dynamic together
};

SharedLimits shared_limits_for(const void* kernel);

} // namespace simt::detail
