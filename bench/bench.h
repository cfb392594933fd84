// scanlab_bench: what every benchmark entry (a lab's variant, or a baseline) declares.
//
// An entry is one function that enqueues one scan (or a copy) on the legacy default stream, and
// says which table it belongs to, what its output must equal and the largest n it can do. The
// labs' entries are made from their descriptors (tools/lab_descriptors, lab_entries.cpp); the
// baselines (memcpy, CUB) register themselves with a static `Register` object (baselines.cu).
// The harness (bench/main.cpp) owns the data, the checks and the timing: see docs/benchmarks.md.
#pragma once

#include "lab_descriptor.h"

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace scanlab::bench {

/// Which table an entry is in, and so which sizes it runs and what it is compared with.
enum class Group {
    single_block, // one thread block per call (n <= 2048): time per call, a latency measure
    global,       // any n: throughput, against memcpy and cub::DeviceScan::InclusiveSum
    segmented,    // any n, random segments: against memcpy and two CUB segmented scans
    types,        // any n, other value types: against a copy of the same bytes and CUB, per type
    sort,         // any n, random 32-bit keys sorted: against memcpy and CUB's DeviceRadixSort
};

/// Every group, in the order the runs and the tables take them.
inline constexpr Group kGroups[] = {Group::single_block, Group::global, Group::segmented,
                                    Group::types, Group::sort};

/// The value type of an entry's input and output (the labs' own enum: a variant says its type).
/// Every group but `types` is int32.
using ValueType = labs::ValueType;
inline int value_bytes(ValueType type) {
    return type == ValueType::i64 || type == ValueType::f64 ? 8 : 4;
}

/// What the entry is to the comparison.
enum class Role {
    memcpy,     // the copy the fractions of memcpy divide by (one per group)
    cub,        // the toolkit's CUB scan (one per group)
    cub_newest, // the same scan built against the newest CUB (nvidia-cuda-cccl; one per group):
                // the fractions "of CUB" divide by the faster of the two at each size
    cub_second, // a second CUB reference the tables also divide by (at most one per group)
    baseline,   // another reference point (e.g. CUB ExclusiveSum); not divided by
    lab,        // a lab's reference solution
};

/// What out[0..n) must hold after a call, checked at every size.
enum class Expect {
    copy,                // out[i] = in[i]
    inclusive,           // out[i] = in[0] + ... + in[i]
    exclusive,           // out[i] = in[0] + ... + in[i-1], out[0] = 0
    segmented_inclusive, // the inclusive sum restarting at every segment head
    sorted,              // the sort group's keys in ascending order (as int32)
};

/// One call's operands: device pointers to n elements each (int64 indices, n up to 2^28).
struct Operands {
    const std::int32_t* in = nullptr;
    std::int32_t* out = nullptr;
    std::int64_t n = 0;
    // Segmented group only. A segment starts at element 0 and at every i with heads[i] != 0;
    // keys[i] is the segment's id (consecutive equal keys form one segment, as CUB's by-key
    // scans read them). Both describe the same segments.
    const std::int32_t* keys = nullptr;
    const std::uint8_t* heads = nullptr;
    const std::int32_t* heads32 = nullptr; // the same heads as 0/1 int32, for an int-flag API
    // In the sort group, `in` holds random keys of all 32 bits (the other groups' values are
    // few and small, which suits a sum but not a sort).
    // Types group only (in and out are then null): n elements of the entry's value type.
    const void* typed_in = nullptr;
    void* typed_out = nullptr;
};

struct Entry {
    std::string lab;   // "04"; empty for a baseline
    std::string name;  // unique id for the CSV and plots, no commas: "lab04.scan_then_propagate"
    std::string label; // what the tables show: "lab04 scan_then_propagate"
    Group group = Group::global;
    Role role = Role::lab;
    Expect expect = Expect::inclusive;
    std::int64_t max_n = 0; // the largest n one call takes (sizes above it are skipped)
    /// Enqueues one call on the legacy default stream (it may also synchronize, as a call that
    /// frees temporary memory does: that time is part of the call). Throws on a CUDA error.
    std::function<void(const Operands&)> call;
    /// Optional, untimed, before the first call at each size: grow persistent temporary storage.
    std::function<void(std::int64_t n)> prepare = {};
    /// Optional, after the last size: free what prepare() or the calls kept.
    std::function<void()> release = {};
    /// True when a call waits for the GPU before it returns (e.g. it frees memory, which waits
    /// for the kernels): its batches cannot be held back until enqueued (gpu_hold.h), so their
    /// time includes the host's part of each call.
    bool waits_for_gpu = false;
    ValueType value = ValueType::i32; // other than i32 only in the types group
    std::string version = {};         // a CUB entry's CUB version ("3.5.0"); empty otherwise
};

/// The baselines (baselines.cu).
std::vector<Entry>& entries();
/// The labs' entries: each lab variant with a bench_name, from the lab descriptors compiled in.
std::vector<Entry> lab_entries();

/// `Register entry{{...}};` at namespace scope adds a baseline before main() runs.
struct Register {
    explicit Register(Entry entry) { entries().push_back(std::move(entry)); }
};

/// CUB's version as "major.minor.patch" (from baselines.cu, which nvcc compiles).
std::string cub_version();
/// CUB's device scan algorithm and the tile shape it uses for int32 sums on a GPU of compute
/// capability `cc` (e.g. 90), from CUB's own tuning tables.
std::string cub_algorithm(int cc);
/// The same for the newest CUB (baselines_newest.cu, built against the headers of the pinned
/// nvidia-cuda-cccl wheel: scripts/newest-cccl.sh); empty when the build has none.
std::string newest_cub_version();
/// Its algorithm and tile shape for sums of int32, float, int64 and double on sm_`cc`.
std::string newest_cub_algorithm(int cc);

} // namespace scanlab::bench
