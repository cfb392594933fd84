// What `scanlab trace` runs while the emulator records, and scanlab_replay_cuda runs on a GPU
// for Nsight Compute: one call of a lab's variant on fresh random int32 data.
#pragma once

#include "lab_descriptor.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace scanlab::run {

struct RecordRequest {
    long long n = 0; // 0: the lab's own default size for a trace (trace_n)
    std::uint64_t seed = 1;
    std::string variant; // the lab's variant, e.g. "unpadded" for lab 03; empty: the default
};

/// The tracer's variant of `lab` that `request` names; throws std::invalid_argument, naming the
/// lab's variants, when it names none.
const labs::Variant& traced_variant(const labs::LabDescriptor& lab, const RecordRequest& request);

/// What a recorded call scans: its input, its head flags (segmented labs; else empty), its kind,
/// where its output goes (a device pointer), and whether it is a scan or a sort.
struct RecordedInput {
    const std::vector<int>& in;
    const std::vector<std::uint8_t>& heads;
    ScanKind kind;
    const int* out;
    labs::Input input = labs::Input::values;
};

/// Runs the variant once on values in [0, 9] (readable in the viewer; a sort's keys: any
/// non-negative int, so that every pass has digits to sort by), with the lab's shown kind (and
/// random heads for a segmented lab), and waits for it; returns what was run, for the
/// trace's caption ("lab 03: conflict_free_scan<Sum<int>>, exclusive, n = 256"). A host lab
/// runs nothing and says so. `before_call` (if set) sees the input just before the call.
std::string record_lab(const labs::LabDescriptor& lab, const RecordRequest& request,
                       const std::function<void(const RecordedInput&)>& before_call = {});

} // namespace scanlab::run
