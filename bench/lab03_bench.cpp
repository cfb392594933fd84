// Lab 03 (conflict-free Blelloch scan, one thread block): n <= lab03::kMaxN = 2048 per call, in the
// single-block table, with the same kernel without padding next to it.
#include "bench.h"
#include "conflict_free_scan.h"

#include <scanlab/operators.h>

#include <cstdint>

namespace {
using namespace scanlab::bench;
using Op = scanlab::Sum<std::int32_t>;

Register padded{{"03", "lab03.conflict_free_scan", "lab03 conflict_free_scan", Group::single_block,
                 Role::lab, Expect::inclusive, lab03::kMaxN, [](const Operands& op) {
                     lab03::conflict_free_scan<Op>(op.in, op.out, static_cast<int>(op.n),
                                                   scanlab::ScanKind::inclusive);
                 }}};
Register unpadded{{"03", "lab03.scan_unpadded", "lab03 scan_unpadded", Group::single_block,
                   Role::lab, Expect::inclusive, lab03::kMaxN, [](const Operands& op) {
                       lab03::scan_unpadded<Op>(op.in, op.out, static_cast<int>(op.n),
                                                scanlab::ScanKind::inclusive);
                   }}};
} // namespace
