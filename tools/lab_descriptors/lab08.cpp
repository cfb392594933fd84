// Lab 08 (the Hopper scan: bulk copies into a ring of mbarrier-guarded stages, warp roles,
// decoupled look-back): lab08::scan with its default pipeline shape, which it picks by the values'
// size (int32 and float: 2 scanner warps, 5 stages, tiles of 2048 values; int64 and double: 4
// scanner warps, tiles of 1024). The benchmark's types table has the same scan on float, int64 and
// double.
// Repeated calls keep a lab08::Workspace (descriptors and tile counter) per variant.
#include "hopper_scan.h"
#include "lab_descriptor.h"
#include "lab_remote.h"

#include <scanlab/operators.h>

#include <cstdint>
#include <string>

namespace lab08_descriptor {
using namespace scanlab::labs;

template <class T, class Shape = lab08::DefaultShape>
void hopper_scan(const ScanCall& c, lab08::Workspace* space) {
    lab08::scan<scanlab::Sum<T>, Shape>(c.input<T>(), c.output<T>(), c.n, c.kind, space);
}

template <class T>
Variant typed(ValueType value, const std::string& name) {
    return with_workspace<lab08::Workspace>({.name = name,
                                             .value = value,
                                             .bench_name = "lab08.scan." + name,
                                             .bench_label = "lab08 Hopper scan, " + name},
                                            hopper_scan<T>);
}

LabDescriptor describe() {
    // Ten tiles of the default shape (2048 int32 each): more tiles than a block has stages.
    LabDescriptor lab{.number = "08", .trace_n = 10 * lab08::DefaultShape::kTileItems<int>};
    lab.variants.push_back(with_workspace<lab08::Workspace>(
        {.name = "default",
         .trace_caption = "Hopper scan: bulk copies, mbarrier stages, warp roles",
         .run_title = "Hopper scan, bulk copies and warp roles",
         .bench_name = "lab08.scan",
         .bench_label = "lab08 Hopper scan"},
        hopper_scan<std::int32_t>));
    lab.variants.push_back(with_workspace<lab08::Workspace>(
        {.name = "small",
         .trace_caption = "Hopper scan, small tiles (256 int32, 3 stages, 2 look-back warps)"},
        hopper_scan<std::int32_t, lab08::SmallShape>));
    lab.variants.push_back(typed<float>(ValueType::f32, "float"));
    lab.variants.push_back(typed<std::int64_t>(ValueType::i64, "int64"));
    lab.variants.push_back(typed<double>(ValueType::f64, "double"));
    return lab;
}

RegisterLab lab08{describe()};
} // namespace lab08_descriptor

// The graded functions, for the grader's harness and worker (lab_remote.h).
#ifdef SCANLAB_REMOTE
#include "halved_workspace.h"
SCANLAB_REMOTE_HALVED_WORKSPACE(lab08, "lab 08"); // how its Workspace travels
#endif

using scanlab::ScanKind;
using scanlab::remote::Value;

SCANLAB_REMOTE_SHAPED_FUNCTION(lab08, scan,
                               (const Value<Op>* d_in, Value<Op>* d_out, std::int64_t n,
                                ScanKind kind, lab08::Workspace* workspace),
                               (d_in, d_out, n, kind, workspace));
SCANLAB_REMOTE_SHAPES(lab08, scan, Graded, lab08::DefaultShape);
#define LAB08_REMOTE_SMALL_SHAPE(Op)                                                               \
    SCANLAB_REMOTE_SHAPES(lab08, scan, Only<Op>, lab08::SmallShape);
LAB08_SMALL_SHAPE_OPERATORS(LAB08_REMOTE_SMALL_SHAPE)
#undef LAB08_REMOTE_SMALL_SHAPE
