// A graded test runs one check per size, smallest first, and reports only the first size that
// fails: with one mistake the later sizes would all fail alike and bury the first, simplest case.
#pragma once

#include "scan_test_support.h"

namespace scanlab::test {

/// Calls `check(n)` (a ScanCheck) for each n of `sizes` in order and returns the first that
/// failed, or an ok ScanCheck when every size passed. The caller fails the test case with its
/// message, so that the failure points at the test file.
template <class Sizes, class CheckOneSize>
ScanCheck first_failing_size(const Sizes& sizes, CheckOneSize&& check) {
    for (const int n : sizes)
        if (ScanCheck result = check(n); !result.ok) return result;
    return {};
}

} // namespace scanlab::test
