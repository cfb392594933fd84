// Lab 02 (work-efficient Blelloch scan, one thread block): n <= lab02::kMaxN = 2048 per call, in
// the single-block table.
#include "bench.h"
#include "work_efficient_scan.h"

#include <scanlab/operators.h>

#include <cstdint>

namespace {
using namespace scanlab::bench;

Register lab02{{"02", "lab02.work_efficient_scan", "lab02 work_efficient_scan", Group::single_block,
                Role::lab, Expect::inclusive, lab02::kMaxN, [](const Operands& op) {
                    lab02::work_efficient_scan<scanlab::Sum<std::int32_t>>(
                        op.in, op.out, static_cast<int>(op.n), scanlab::ScanKind::inclusive);
                }}};
} // namespace
