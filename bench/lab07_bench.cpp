// Lab 07 (single-pass scan with decoupled look-back): lab07::scan with its default tile shape and
// dynamic tile ids (atomic counter), once with packed descriptors (flag and value in one 64-bit
// word) and once with separate flag and value arrays ordered by fences. Tile ids from blockIdx.x
// are left out: they can deadlock when blocks do not start in order, and a benchmark must not hang.
// The types group has the same scan on float, int64 and double (below).
// Each variant keeps its own lab07::Workspace (descriptors and tile counter) across calls; the
// first (untimed, checked) call at each size grows it.
#include "bench.h"
#include "lookback_scan.h"

#include <scanlab/operators.h>

#include <cstdint>
#include <string>

namespace {
using namespace scanlab::bench;
using Op = scanlab::Sum<std::int32_t>;

constexpr std::int64_t kAnyN = std::int64_t(1) << 40;

lab07::Workspace packed_space, separate_space;

void lookback(const Operands& op, lab07::Descriptors descriptors, lab07::Workspace& space) {
    lab07::LookbackOptions options;
    options.tile_ids = lab07::TileIds::atomic_counter;
    options.descriptors = descriptors;
    lab07::scan<Op>(op.in, op.out, op.n, scanlab::ScanKind::inclusive, options, &space);
}

Register packed{{"07",
                 "lab07.scan_packed",
                 "lab07 look-back, packed",
                 Group::global,
                 Role::lab,
                 Expect::inclusive,
                 kAnyN,
                 [](const Operands& op) { lookback(op, lab07::Descriptors::packed, packed_space); },
                 {},
                 [] { packed_space = lab07::Workspace(); }}};
Register separate{
    {"07",
     "lab07.scan_separate",
     "lab07 look-back, separate",
     Group::global,
     Role::lab,
     Expect::inclusive,
     kAnyN,
     [](const Operands& op) { lookback(op, lab07::Descriptors::separate, separate_space); },
     {},
     [] { separate_space = lab07::Workspace(); }}};

// Other value types: lab07::scan with its default options (packed descriptors: one word per tile
// for float, tagged pairs of words for the 8-byte types) and default tile, as CUB's InclusiveSum
// of the same type.
template <class T>
struct Typed {
    inline static lab07::Workspace space;
    static void call(const Operands& op) {
        lab07::LookbackOptions options;
        options.tile_ids = lab07::TileIds::atomic_counter;
        lab07::scan<scanlab::Sum<T>>(static_cast<const T*>(op.typed_in),
                                     static_cast<T*>(op.typed_out), op.n,
                                     scanlab::ScanKind::inclusive, options, &space);
    }
    Typed(ValueType type, const std::string& name) {
        Entry entry{"07",
                    "lab07.scan." + name,
                    "lab07 look-back, " + name,
                    Group::types,
                    Role::lab,
                    Expect::inclusive,
                    kAnyN,
                    &call,
                    {},
                    [] { space = lab07::Workspace(); }};
        entry.value = type;
        entries().push_back(entry);
    }
};

Typed<float> typed_float{ValueType::f32, "float"};
Typed<std::int64_t> typed_int64{ValueType::i64, "int64"};
Typed<double> typed_double{ValueType::f64, "double"};
} // namespace
