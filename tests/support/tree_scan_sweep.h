// The size sweep of labs 02 and 03: a Blelloch tree in one block, graded on kTreeScanSizes,
// with the lab's hint for a failed launch and TreeScanProgress's hint for a wrong result.
#pragma once

#include "kernel_failure.h"
#include "scan_test_support.h"
#include "size_sweep.h"
#include "tree_scan_progress.h"

#include <exception>
#include <string>
#include <string_view>

namespace scanlab::test {

/// Runs `scan` (named `name`, of lab `lab`, blocks of at most `max_threads` threads) at every
/// size of kTreeScanSizes; returns the first failure with its hint, or an ok ScanCheck.
/// `fault_hint(n)` says what a failed launch at n means in the lab.
template <class Op, class ScanFn, class FaultHint>
ScanCheck first_failing_tree_scan(std::string_view name, std::string_view lab, int max_threads,
                                  ScanKind kind, ScanFn scan, FaultHint fault_hint) {
    TreeScanProgress progress;
    CheckOptions options;
    options.tree = true;
    return first_failing_size(kTreeScanSizes, [&](int n) -> ScanCheck {
        ScanCheck result;
        try {
            result = run_device_scan<Op>(name, n, kind, scan, options);
        } catch (const std::exception& error) { // a fault in the kernel, or a failed launch
            return {false, kernel_failure_report(error.what(), lab, fault_hint(n))};
        }
        if (!result.ok)
            result.message += hint_line(lab, progress.hint(n, max_threads));
        else
            progress.passed(n);
        return result;
    });
}

} // namespace scanlab::test
