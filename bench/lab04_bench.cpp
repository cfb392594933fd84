// Lab 04 (multi-block scan of any n): both methods, with the default 512 threads per block. Each
// call allocates and frees its temporary memory (the lab's contract): that is part of its time.
#include "bench.h"
#include "multi_block_scan.h"

#include <scanlab/operators.h>

#include <cstdint>

namespace {
using namespace scanlab::bench;
using Op = scanlab::Sum<std::int32_t>;

constexpr std::int64_t kAnyN = std::int64_t(1) << 40;

// The calls free memory, which waits for the GPU: the entries say so (bench.h).
Entry waiting(Entry entry) {
    entry.waits_for_gpu = true;
    return entry;
}

Register propagate{
    waiting({"04", "lab04.scan_then_propagate", "lab04 scan_then_propagate", Group::global,
             Role::lab, Expect::inclusive, kAnyN, [](const Operands& op) {
                 lab04::scan_then_propagate<Op>(op.in, op.out, op.n, scanlab::ScanKind::inclusive);
             }})};
Register reduce_first{
    waiting({"04", "lab04.reduce_then_scan", "lab04 reduce_then_scan", Group::global, Role::lab,
             Expect::inclusive, kAnyN, [](const Operands& op) {
                 lab04::reduce_then_scan<Op>(op.in, op.out, op.n, scanlab::ScanKind::inclusive);
             }})};
} // namespace
