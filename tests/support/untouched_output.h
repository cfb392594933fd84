// The output of an argument-check case: filled with poison, so that a rejected call, or an empty
// scan (n == 0), that writes anything at all is seen.
#pragma once

#include "scan_test_support.h"

#include <scanlab/device_buffer.h>

#include <doctest/doctest.h>

#include <cuda_runtime.h>

#include <vector>

namespace scanlab::test {

/// `n` ints of poison on the device.
inline DeviceBuffer<int> poisoned_output(int n) {
    return DeviceBuffer<int>(std::vector<int>(n, poison_value<int>()));
}

/// Waits for the device, then checks that out[0] still holds poison.
inline void check_output_untouched(const DeviceBuffer<int>& out) {
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    CHECK_MESSAGE(out.download()[0] == poison_value<int>(),
                  "a rejected call or n == 0 must not write any output");
}

} // namespace scanlab::test
