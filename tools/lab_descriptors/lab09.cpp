// Lab 09 (one-sweep radix sort): lab09::sort_keys on int32 keys (the tools' value type; signed
// keys go through the order-preserving bit flip), a stable sort whose output the tools compare
// with std::sort's. Repeated calls keep a lab09::Workspace (the other buffer of each pass, the
// histograms, the tile counters and the descriptors). The trace shows the four passes of one
// call: the histogram, the scan of the histograms, and each pass's rank, look-back and scatter.
#include "lab_descriptor.h"
#include "lab_remote.h"
#include "radix_sort.h"

#include <cstdint>

namespace lab09_descriptor {
using namespace scanlab::labs;

void sort_int_keys(const ScanCall& c, lab09::Workspace* space) {
    lab09::sort_keys<std::int32_t>(c.input<std::int32_t>(), c.output<std::int32_t>(), c.n, space);
}

LabDescriptor describe() {
    // Three tiles of 8192 keys: tiles that look back across one and two tiles.
    LabDescriptor lab{.number = "09", .input = Input::keys, .trace_n = 3 * lab09::kTileKeys};
    lab.variants.push_back(with_workspace<lab09::Workspace>(
        {.trace_caption = "one-sweep radix sort, int32 keys (4 passes of 8 bits)",
         .run_title = "one-sweep radix sort, int32 keys",
         .bench_name = "lab09.sort_keys",
         .bench_label = "lab09 one-sweep sort_keys"},
        sort_int_keys));
    return lab;
}

RegisterLab lab09{describe()};
} // namespace lab09_descriptor

// The graded functions, for the grader's harness and worker (lab_remote.h). Each is templated
// over its key (and value) types, not an operator: each instance the tests call is named.

SCANLAB_REMOTE_TYPED_FUNCTION(lab09, sort_keys, (class Key), (Key),
                              (const Key* d_in, Key* d_out, std::int64_t n,
                               lab09::Workspace* workspace),
                              (d_in, d_out, n, workspace));
SCANLAB_REMOTE_TYPES(lab09, sort_keys, (std::uint32_t));
SCANLAB_REMOTE_TYPES(lab09, sort_keys, (std::int32_t));
SCANLAB_REMOTE_TYPES(lab09, sort_keys, (float));

SCANLAB_REMOTE_TYPED_FUNCTION(lab09, sort_pairs, (class Key, class Value), (Key, Value),
                              (const Key* d_keys_in, Key* d_keys_out, const Value* d_values_in,
                               Value* d_values_out, std::int64_t n, lab09::Workspace* workspace),
                              (d_keys_in, d_keys_out, d_values_in, d_values_out, n, workspace));
SCANLAB_REMOTE_TYPES(lab09, sort_pairs, (std::uint32_t, std::uint32_t));
SCANLAB_REMOTE_TYPES(lab09, sort_pairs, (std::int32_t, std::uint32_t));
SCANLAB_REMOTE_TYPES(lab09, sort_pairs, (float, std::uint32_t));
