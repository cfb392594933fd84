// Lab 05 (warp-synchronous reduce-then-scan with a fixed grid): lab05::scan with its default tile
// shape (256 threads x 16 items for int32). Repeated calls keep a lab05::Workspace (the per-block
// totals), as the interface recommends for benchmarks.
#include "lab_descriptor.h"
#include "warp_scan.h"

#include <scanlab/operators.h>

#include <cstdint>
#include <string>

namespace {
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
} // namespace
