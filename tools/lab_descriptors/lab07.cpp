// Lab 07 (single-pass scan with decoupled look-back): lab07::scan with its default tile shape,
// dynamic tile ids (atomic counter) and packed descriptors (flag and value in one 64-bit word)
// or separate flag and value arrays ordered by fences. Tile ids from blockIdx.x are traced only:
// they can deadlock when blocks do not start in order, and a benchmark must not hang. The
// benchmark's types table has the same scan on float, int64 and double. Repeated calls keep a
// lab07::Workspace (descriptors and tile counter) per variant.
#include "lab_descriptor.h"
#include "lab_remote.h"
#include "lookback_scan.h"

#include <scanlab/operators.h>

#include <cstdint>
#include <string>

namespace lab07_descriptor {
using namespace scanlab::labs;

template <class T>
auto lookback(lab07::TileIds tile_ids, lab07::Descriptors descriptors) {
    return [=](const ScanCall& c, lab07::Workspace* space) {
        lab07::LookbackOptions options;
        options.tile_ids = tile_ids;
        options.descriptors = descriptors;
        lab07::scan<scanlab::Sum<T>>(c.input<T>(), c.output<T>(), c.n, c.kind, options, space);
    };
}

template <class T>
Variant typed(ValueType value, const std::string& name) {
    return with_workspace<lab07::Workspace>(
        {.name = name,
         .value = value,
         .bench_name = "lab07.scan." + name,
         .bench_label = "lab07 look-back, " + name},
        lookback<T>(lab07::TileIds::atomic_counter, lab07::Descriptors::automatic));
}

LabDescriptor describe() {
    LabDescriptor lab{.number = "07", .trace_n = 32768};
    lab.variants.push_back(with_workspace<lab07::Workspace>(
        {.name = "packed",
         .trace_caption = "look-back scan, packed descriptors",
         .run_title = "decoupled look-back, single pass",
         .bench_name = "lab07.scan_packed",
         .bench_label = "lab07 look-back, packed"},
        lookback<std::int32_t>(lab07::TileIds::atomic_counter, lab07::Descriptors::packed)));
    lab.variants.push_back(with_workspace<lab07::Workspace>(
        {.name = "separate",
         .trace_caption = "look-back scan, separate descriptors",
         .bench_name = "lab07.scan_separate",
         .bench_label = "lab07 look-back, separate"},
        lookback<std::int32_t>(lab07::TileIds::atomic_counter, lab07::Descriptors::separate)));
    lab.variants.push_back(with_workspace<lab07::Workspace>(
        {.name = "block-index",
         .trace_caption =
             "look-back scan, tile id = blockIdx (try it with --simt-dispatch=shuffled)"},
        lookback<std::int32_t>(lab07::TileIds::block_index, lab07::Descriptors::packed)));
    lab.variants.push_back(typed<float>(ValueType::f32, "float"));
    lab.variants.push_back(typed<std::int64_t>(ValueType::i64, "int64"));
    lab.variants.push_back(typed<double>(ValueType::f64, "double"));
    return lab;
}

RegisterLab lab07{describe()};
} // namespace lab07_descriptor

// The graded functions, for the grader's harness and worker (lab_remote.h).
#ifdef SCANLAB_REMOTE
#include "halved_workspace.h"
SCANLAB_REMOTE_HALVED_WORKSPACE(lab07, "lab 07"); // how its Workspace travels
#endif

using lab07::LookbackOptions;
using scanlab::ScanKind;
using scanlab::remote::Value;

SCANLAB_REMOTE_TILED_FUNCTION(lab07, scan,
                              (const Value<Op>* d_in, Value<Op>* d_out, std::int64_t n,
                               ScanKind kind, const LookbackOptions& options,
                               lab07::Workspace* workspace),
                              (d_in, d_out, n, kind, options, workspace));
SCANLAB_REMOTE_TILES(lab07, scan, Graded, lab07::kDefaultBlockThreads<Value<Op>>,
                     lab07::kDefaultItemsPerThread<Value<Op>>);
#define LAB07_REMOTE_SMALL_TILES(Op) SCANLAB_REMOTE_TILES(lab07, scan, Only<Op>, 64, 3);
LAB07_SMALL_TILE_OPERATORS(LAB07_REMOTE_SMALL_TILES)
#undef LAB07_REMOTE_SMALL_TILES

// select_greater is templated over the element type: `Op` is that type here.
SCANLAB_REMOTE_TILED_FUNCTION(lab07, select_greater,
                              (const Op* d_in, Op* d_out, int* d_count, std::int64_t n,
                               Op threshold, const LookbackOptions& options,
                               lab07::Workspace* workspace),
                              (d_in, d_out, d_count, n, threshold, options, workspace));
#define LAB07_REMOTE_SELECT(T)                                                                     \
    SCANLAB_REMOTE_TILES(lab07, select_greater, Only<T>, lab07::kDefaultBlockThreads<Op>,          \
                         lab07::kDefaultItemsPerThread<Op>);                                       \
    SCANLAB_REMOTE_TILES(lab07, select_greater, Only<T>, 64, 3)
LAB07_REMOTE_SELECT(std::int32_t);
LAB07_REMOTE_SELECT(std::uint32_t);
LAB07_REMOTE_SELECT(std::int64_t);
LAB07_REMOTE_SELECT(float);
LAB07_REMOTE_SELECT(double);
