// CUDA's error model: a last error that cudaGetLastError returns and clears, and sticky errors
// (a fault in a kernel) that every later call returns until the device is reset.
#pragma once

#include <string>

#include "simt/report.h"
#include "simt/types.h"

namespace simt::detail {

struct ErrorState {
    cudaError_t last = cudaSuccess;
    cudaError_t sticky = cudaSuccess;
    FaultReport fault;
};
ErrorState& error_state();

// Records a failed API call (not sticky) and, when the options say so, explains it on stderr.
cudaError_t api_error(cudaError_t error, const std::string& call, const std::string& why);
// Records a kernel fault: sticky for every kind but invalid_launch.
void record_fault(const FaultReport& report);

} // namespace simt::detail
