// What the main job does with one row: one representative scan of fresh random data with the
// lab's reference solution, checked against the host reference and timed.
#pragma once

#include "lab_descriptor.h"

#include <cstdint>
#include <string>

namespace scanlab::run {

struct RunResult {
    long long n = 0;      // elements scanned
    bool correct = false; // equal to the host reference
    double ms = 0;        // time of the scan itself (device events; wall time on the emulator)
    std::string detail;   // what went wrong
};

/// The lab's size in the main job (run_slices slices of max_n for a one-block lab), its kind
/// (shown_kind), random values in [-1000, 1000] from `seed` (and random heads for a segmented
/// lab): one untimed call, then one timed call on poisoned output, checked.
RunResult run_variant(const labs::LabDescriptor& lab, const labs::Variant& variant,
                      std::uint64_t seed);

} // namespace scanlab::run
