// Lab 06 (segmented scan with head flags, reduce-then-scan as in lab 05): lab06::segmented_scan
// with its default tile shape, by conditional index (the default) and by the operator
// transformation. Repeated calls keep a lab06::Workspace per method.
#include "lab_descriptor.h"
#include "lab_remote.h"
#include "segmented_scan.h"

#include <scanlab/operators.h>

#include <cstdint>

namespace lab06_descriptor {
using namespace scanlab::labs;

auto segmented(lab06::SegmentedMethod method) {
    return [method](const ScanCall& c, lab06::Workspace* space) {
        lab06::segmented_scan<scanlab::Sum<std::int32_t>>(
            c.input<std::int32_t>(), c.heads, c.output<std::int32_t>(), c.n, c.kind, method, space);
    };
}

LabDescriptor describe() {
    LabDescriptor lab{.number = "06", .input = Input::segmented, .trace_n = 8192};
    lab.variants.push_back(with_workspace<lab06::Workspace>(
        {.name = "mindex",
         .trace_caption = "segmented_scan<Sum<int>>, inclusive, conditional index",
         .run_title = "segmented: head flags, 16 items/thread",
         .bench_name = "lab06.segmented_mindex",
         .bench_label = "lab06 segmented, conditional index"},
        segmented(lab06::SegmentedMethod::conditional_index)));
    lab.variants.push_back(with_workspace<lab06::Workspace>(
        {.name = "transform",
         .trace_caption = "segmented_scan<Sum<int>>, inclusive, operator transformation",
         .bench_name = "lab06.segmented_transform",
         .bench_label = "lab06 segmented, operator transformation"},
        segmented(lab06::SegmentedMethod::operator_transform)));
    return lab;
}

RegisterLab lab06{describe()};
} // namespace lab06_descriptor

// The graded functions, for the grader's harness and worker (lab_remote.h).
using lab06::SegmentedMethod;
using scanlab::ScanKind;
using scanlab::remote::Value;

SCANLAB_REMOTE_MEMBER(lab06::Segmented, identity, value_type, (), ());
SCANLAB_REMOTE_MEMBER(lab06::Segmented, apply, value_type, (value_type a, value_type b), (a, b));

SCANLAB_REMOTE_FUNCTION(lab06, segmented_warp_scan_groups,
                        (const Value<Op>* d_in, const std::uint8_t* d_flags, Value<Op>* d_out,
                         int n, ScanKind kind, SegmentedMethod method),
                        (d_in, d_flags, d_out, n, kind, method));

SCANLAB_REMOTE_TILED_FUNCTION(lab06, segmented_block_scan_tiles,
                              (const Value<Op>* d_in, const std::uint8_t* d_flags, Value<Op>* d_out,
                               int n, ScanKind kind, SegmentedMethod method),
                              (d_in, d_flags, d_out, n, kind, method));
SCANLAB_REMOTE_TILES(lab06, segmented_block_scan_tiles, Graded, 96, 3);

SCANLAB_REMOTE_TILED_FUNCTION(lab06, segmented_scan,
                              (const Value<Op>* d_in, const std::uint8_t* d_flags, Value<Op>* d_out,
                               std::int64_t n, ScanKind kind, SegmentedMethod method,
                               lab06::Workspace* workspace),
                              (d_in, d_flags, d_out, n, kind, method, workspace));
SCANLAB_REMOTE_TILES(lab06, segmented_scan, Graded, lab06::kDefaultBlockThreads,
                     lab06::kDefaultItemsPerThread<Value<Op>>);
#define LAB06_REMOTE_SMALL_TILES(Op) SCANLAB_REMOTE_TILES(lab06, segmented_scan, Only<Op>, 64, 3);
LAB06_SMALL_TILE_OPERATORS(LAB06_REMOTE_SMALL_TILES)
#undef LAB06_REMOTE_SMALL_TILES
