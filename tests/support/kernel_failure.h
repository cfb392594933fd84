// The report of a launch that threw (a fault in the kernel, or a failed CUDA call), as every
// graded test gives it: the error, the lab's hint for it, and how to run the same inputs again.
#pragma once

#include "scan_test_support.h"

#include <string>
#include <string_view>

namespace scanlab::test {

/// "\n  to reproduce: run again with SCANLAB_SEED=<this run's seed>".
inline std::string reproduce_line() {
    return "\n  to reproduce: run again with SCANLAB_SEED=" + std::to_string(seed());
}

/// `error`, then the hint line of lab `lab` (none for an empty hint), then reproduce_line().
inline std::string kernel_failure_report(const std::string& error, std::string_view lab,
                                         const std::string& hint) {
    return error + hint_line(lab, hint) + reproduce_line();
}

} // namespace scanlab::test
