// Lab 01 (naive Hillis-Steele, one thread block): one call scans at most lab01::kMaxN = 1024
// elements, so it is timed as calls of n <= 1024 in the single-block table, not against memcpy.
#include "bench.h"
#include "naive_scan.h"

#include <scanlab/operators.h>

#include <cstdint>

namespace {
using namespace scanlab::bench;

Register lab01{{"01", "lab01.naive_scan", "lab01 naive_scan", Group::single_block, Role::lab,
                Expect::inclusive, lab01::kMaxN, [](const Operands& op) {
                    lab01::naive_scan<scanlab::Sum<std::int32_t>>(
                        op.in, op.out, static_cast<int>(op.n), scanlab::ScanKind::inclusive);
                }}};
} // namespace
