// Three scans back to back, each reading the output of the one before, with no host work between
// them (labs 07 and 08: each launch may overlap the one before it, programmatic dependent launch,
// and takes the Workspace half that the one before cleared), checked against the same three scans
// on the host.
#pragma once

#include "kernel_failure.h"
#include "scan_test_support.h"

#include <scanlab/cuda_check.h>
#include <scanlab/device_buffer.h>

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <exception>
#include <string>
#include <string_view>
#include <vector>

namespace scanlab::test {

/// `scan(in, out, n)` starts one inclusive scan of int32 sums with the lab's code (it need not
/// wait for the kernel). Three run in a row, d_in -> mid -> out -> mid, on random input; a launch
/// that fails is reported with lab `lab`'s hint for it (`fault_hint()`, asked after the failure).
template <class Scan, class FaultHint>
void check_back_to_back_scans(int n, std::string_view lab, Scan scan, FaultHint fault_hint) {
    const std::vector<int> in = make_input<Sum<std::int32_t>>(n, ScanKind::inclusive);
    DeviceBuffer<int> d_in(in);
    DeviceBuffer<int> d_mid(std::vector<int>(in.size(), poison_value<int>()));
    DeviceBuffer<int> d_out(std::vector<int>(in.size(), poison_value<int>()));
    try {
        scan(d_in.data(), d_mid.data(), n);
        scan(d_mid.data(), d_out.data(), n);
        scan(d_out.data(), d_mid.data(), n);
        SCANLAB_CUDA_CHECK(cudaDeviceSynchronize());
    } catch (const std::exception& error) {
        FAIL(kernel_failure_report(error.what(), lab, fault_hint()));
    }
    // The reference: the same three scans on the host (wrapping as the GPU's int32 does).
    std::vector<int> expected = in;
    for (int pass = 0; pass < 3; ++pass) {
        std::uint32_t running = 0;
        for (int& x : expected) x = static_cast<int>(running += static_cast<std::uint32_t>(x));
    }
    const std::vector<int> got = d_mid.download();
    const auto wrong = std::mismatch(got.begin(), got.end(), expected.begin());
    REQUIRE_MESSAGE(wrong.first == got.end(), "three back-to-back scans: element "
                                                  << (wrong.first - got.begin()) << " is "
                                                  << *wrong.first << ", expected "
                                                  << *wrong.second);
}

} // namespace scanlab::test
