// Lab 06 (segmented scan with head flags, reduce-then-scan as in lab 05): lab06::segmented_scan
// with its default tile shape, by conditional index and by the operator transformation, on the
// harness's random segments (the same ones CUB InclusiveSumByKey reads as keys). Each method keeps
// its own lab06::Workspace across calls; the first (untimed, checked) call at each size grows it.
#include "bench.h"
#include "segmented_scan.h"

#include <scanlab/operators.h>

#include <cstdint>

namespace {
using namespace scanlab::bench;
using Op = scanlab::Sum<std::int32_t>;

constexpr std::int64_t kAnyN = std::int64_t(1) << 40;

lab06::Workspace mindex_space, transform_space;

void segmented(const Operands& op, lab06::SegmentedMethod method, lab06::Workspace& space) {
    lab06::segmented_scan<Op>(op.in, op.heads, op.out, op.n, scanlab::ScanKind::inclusive, method,
                              &space);
}

Register mindex{{"06",
                 "lab06.segmented_mindex",
                 "lab06 segmented, conditional index",
                 Group::segmented,
                 Role::lab,
                 Expect::segmented_inclusive,
                 kAnyN,
                 [](const Operands& op) {
                     segmented(op, lab06::SegmentedMethod::conditional_index, mindex_space);
                 },
                 {},
                 [] { mindex_space = lab06::Workspace(); }}};
Register transform{{"06",
                    "lab06.segmented_transform",
                    "lab06 segmented, operator transformation",
                    Group::segmented,
                    Role::lab,
                    Expect::segmented_inclusive,
                    kAnyN,
                    [](const Operands& op) {
                        segmented(op, lab06::SegmentedMethod::operator_transform, transform_space);
                    },
                    {},
                    [] { transform_space = lab06::Workspace(); }}};
} // namespace
