// Turns a failed CUDA runtime call into an exception that says which call failed and where.
#pragma once

#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

namespace scanlab::detail {

inline void cuda_check(cudaError_t status, const char* call, const char* file, int line) {
    if (status == cudaSuccess) return;
    throw std::runtime_error(std::string(call) + " failed at " + file + ":" + std::to_string(line) +
                             ": " + cudaGetErrorName(status) + ": " + cudaGetErrorString(status));
}

} // namespace scanlab::detail

/// SCANLAB_CUDA_CHECK(cudaMalloc(&p, bytes));  throws std::runtime_error on failure.
/// After a kernel launch use SCANLAB_CUDA_CHECK(cudaGetLastError()) to catch a bad launch
/// configuration; faults inside the kernel show up at the next synchronizing call.
#define SCANLAB_CUDA_CHECK(expr) ::scanlab::detail::cuda_check((expr), #expr, __FILE__, __LINE__)
