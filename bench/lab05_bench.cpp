// Lab 05 (warp-synchronous reduce-then-scan with a fixed grid): lab05::scan with its default tile
// shape (256 threads x 16 items for int32). Its lab05::Workspace keeps the per-block totals from
// one call to the next, as the interface recommends for benchmarks: the first (untimed, checked)
// call at each size allocates it.
#include "bench.h"
#include "warp_scan.h"

#include <scanlab/operators.h>

#include <cstdint>
#include <string>

namespace {
using namespace scanlab::bench;
using Op = scanlab::Sum<std::int32_t>;

constexpr std::int64_t kAnyN = std::int64_t(1) << 40;

lab05::Workspace workspace;

const std::string kShape = std::to_string(lab05::kDefaultBlockThreads) + "x" +
                           std::to_string(lab05::kDefaultItemsPerThread<std::int32_t>);

Register lab05{{"05",
                "lab05.scan",
                "lab05 scan " + kShape,
                Group::global,
                Role::lab,
                Expect::inclusive,
                kAnyN,
                [](const Operands& op) {
                    lab05::scan<Op>(op.in, op.out, op.n, scanlab::ScanKind::inclusive, &workspace);
                },
                {},
                [] { workspace = lab05::Workspace(); }}};
} // namespace
