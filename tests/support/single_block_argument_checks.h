// The argument checks of a single-block scan entry point (labs 01 to 03): what it must reject,
// and that n == 0 is an empty scan that launches nothing.
#pragma once

#include "scan_test_support.h"
#include "untouched_output.h"

#include <scanlab/device_buffer.h>

#include <doctest/doctest.h>

#include <stdexcept>
#include <string_view>
#include <vector>

namespace scanlab::test {

/// `scan(in, out, n, kind)` for Sum<int>, named `name`, handles at most `max_n` elements.
template <class ScanFn>
void check_single_block_arguments(std::string_view name, int max_n, ScanFn scan) {
    // A real scan first, so that a stub which does nothing cannot pass this case.
    const auto result = run_device_scan<Sum<int>>(name, 33, ScanKind::inclusive, scan);
    REQUIRE_MESSAGE(result.ok, result.message);

    const int too_many = max_n + 1;
    DeviceBuffer<int> in(std::vector<int>(too_many, 1));
    DeviceBuffer<int> out = poisoned_output(too_many);

    CHECK_THROWS_AS(scan(in.data(), out.data(), too_many, ScanKind::inclusive),
                    std::invalid_argument);
    CHECK_THROWS_AS(scan(in.data(), out.data(), -1, ScanKind::inclusive), std::invalid_argument);
    CHECK_THROWS_AS(scan(nullptr, out.data(), 4, ScanKind::inclusive), std::invalid_argument);
    CHECK_THROWS_AS(scan(in.data(), nullptr, 4, ScanKind::exclusive), std::invalid_argument);
    // n == 0 is an empty scan, not an error, even with null pointers; it must launch nothing.
    CHECK_NOTHROW(scan(nullptr, nullptr, 0, ScanKind::inclusive));
    CHECK_NOTHROW(scan(in.data(), out.data(), 0, ScanKind::exclusive));
    check_output_untouched(out);
}

} // namespace scanlab::test
