// Lab 05 (warp-synchronous reduce-then-scan with a fixed grid): lab05::scan with its default tile
// shape (256 threads x 16 items for int32). Repeated calls keep a lab05::Workspace (the per-block
// totals), as the interface recommends for benchmarks.
#include "lab_descriptor.h"
#include "lab_remote.h"
#include "warp_scan.h"

#include <scanlab/operators.h>

#include <cstdint>
#include <string>

namespace lab05_descriptor {
using namespace scanlab::labs;

LabDescriptor describe() {
    LabDescriptor lab{.number = "05", .trace_n = 8192};
    const std::string shape = std::to_string(lab05::kDefaultBlockThreads) + "x" +
                              std::to_string(lab05::kDefaultItemsPerThread<std::int32_t>);
    lab.variants.push_back(with_workspace<lab05::Workspace>(
        {.trace_caption = "scan<Sum<int>>, inclusive",
         .run_title = "warp-synchronous: shuffles, 16 items/thread",
         .bench_name = "lab05.scan",
         .bench_label = "lab05 scan " + shape},
        [](const ScanCall& c, lab05::Workspace* space) {
            lab05::scan<scanlab::Sum<std::int32_t>>(c.input<std::int32_t>(),
                                                    c.output<std::int32_t>(), c.n, c.kind, space);
        }));
    return lab;
}

RegisterLab lab05{describe()};
} // namespace lab05_descriptor

// The graded functions, for the grader's harness and worker (lab_remote.h).
using lab05::WarpScanVariant;
using scanlab::ScanKind;
using scanlab::remote::Value;

SCANLAB_REMOTE_FUNCTION(lab05, warp_scan_groups,
                        (const Value<Op>* d_in, Value<Op>* d_out, int n, ScanKind kind,
                         WarpScanVariant variant),
                        (d_in, d_out, n, kind, variant));

SCANLAB_REMOTE_TILED_FUNCTION(lab05, block_scan_tiles,
                              (const Value<Op>* d_in, Value<Op>* d_out, int n, ScanKind kind),
                              (d_in, d_out, n, kind));
SCANLAB_REMOTE_TILES(lab05, block_scan_tiles, Graded, 128, 1);
SCANLAB_REMOTE_TILES(lab05, block_scan_tiles, Graded, 96, 3);

SCANLAB_REMOTE_TILED_FUNCTION(lab05, scan,
                              (const Value<Op>* d_in, Value<Op>* d_out, std::int64_t n,
                               ScanKind kind, lab05::Workspace* workspace),
                              (d_in, d_out, n, kind, workspace));
SCANLAB_REMOTE_TILES(lab05, scan, Graded, lab05::kDefaultBlockThreads,
                     lab05::kDefaultItemsPerThread<Value<Op>>);
#define LAB05_REMOTE_SMALL_TILES(Op) SCANLAB_REMOTE_TILES(lab05, scan, Only<Op>, 64, 3);
LAB05_SMALL_TILE_OPERATORS(LAB05_REMOTE_SMALL_TILES)
#undef LAB05_REMOTE_SMALL_TILES
SCANLAB_REMOTE_TILES(lab05, scan, Only<scanlab::Sum<std::int32_t>>, 32, 1);
SCANLAB_REMOTE_TILES(lab05, scan, Only<scanlab::Affine<std::uint32_t>>, 1024, 2);
