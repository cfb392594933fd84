#pragma once

// Derived data of a trace: bank conflicts of each shared-memory instruction and their totals per
// step and per launch. Never stored in the model; the writer emits it, the reader recomputes it.

#include <cstdint>
#include <optional>
#include <vector>

#include "scanlab/trace/bank_conflicts.h"
#include "scanlab/trace/trace.h"

namespace scanlab::trace {

struct ConflictTotals {
    std::uint64_t instructions = 0;
    std::uint64_t wavefronts = 0;
    std::uint64_t ideal_wavefronts = 0;
    std::uint64_t conflicts = 0;

    ConflictTotals& operator+=(const ConflictTotals& other);
    ConflictTotals& operator+=(const BankConflicts& instruction);
    bool operator==(const ConflictTotals&) const = default;
};

// Shared-memory totals split by access kind (Nsight Compute reports loads and stores apart).
struct SharedTotals {
    ConflictTotals load;
    ConflictTotals store;
    ConflictTotals atomic;

    ConflictTotals& of(AccessKind kind);
    const ConflictTotals& of(AccessKind kind) const;
    ConflictTotals all() const;
    bool operator==(const SharedTotals&) const = default;
};

struct TraceAnalysis {
    std::vector<std::optional<BankConflicts>> instructions; // per instruction; set for shared ones
    std::vector<SharedTotals> steps;                        // per step
    SharedTotals launch;
};

// Bank analysis of one shared-memory instruction: addresses are the object's base plus offsets.
BankConflicts instruction_bank_conflicts(const Trace& trace, const WarpInstruction& instruction);

// Expects a trace that passed validate_trace(); out-of-range ids throw std::out_of_range.
TraceAnalysis analyze_trace(const Trace& trace);

} // namespace scanlab::trace
