// A scan run in place on the device (out == in): the labs whose scans accept it check it the
// same way as an out-of-place scan, minus the check that the input is left as it was.
#pragma once

#include "scan_test_support.h"

#include <scanlab/device_buffer.h>

#include <cuda_runtime.h>

#include <string>
#include <vector>

namespace scanlab::test {

/// Runs `scan(data, data, n, kind)` on a fresh input of n elements in one device buffer, waits
/// for it, checks that kernels wrote the result (KernelWorkWatch) and that it is the scan of the
/// input. `what` names the call in every message.
template <class Op, class ScanFn>
ScanCheck run_device_scan_in_place(const std::string& what, int n, ScanKind kind, ScanFn&& scan) {
    using T = typename Op::value_type;
    const std::vector<T> input = make_input<Op>(n, kind);
    DeviceBuffer<T> data(input);
    KernelWorkWatch watch;
    watch.input(data.data(), input.size()).output(data.data(), input.size());
    scan(static_cast<const T*>(data.data()), data.data(), n, kind);
    if (const cudaError_t status = cudaDeviceSynchronize(); status != cudaSuccess)
        return {false, what + ": the kernel failed: " + cudaGetErrorName(status) + ": " +
                           cudaGetErrorString(status)};
    if (std::string host_work = watch.verdict(what); !host_work.empty())
        return {false, std::move(host_work)};
    return check_scan<Op>(what, input, {}, data.download(), kind);
}

} // namespace scanlab::test
