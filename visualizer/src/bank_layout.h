#pragma once

// Where the lanes of one shared-memory warp instruction fall among the 32 banks: for each phase
// (the whole warp for accesses up to 4 bytes, half-warps for 8, quarter-warps for 16), the
// distinct words each bank serves, with the lanes that touch each word. The counts (wavefronts,
// conflicts) are the trace library's, as Nsight Compute measures them.

#include <array>
#include <cstdint>
#include <vector>

#include "scanlab/trace/analysis.h"
#include "scanlab/trace/trace.h"

namespace scanlab::view {

struct BankWord {
    std::uint64_t word = 0;          // byte address / 4 in the block's shared memory
    std::vector<std::uint8_t> lanes; // indices into the instruction's lanes
};

struct BankPhaseLayout {
    std::uint32_t first_lane = 0;
    std::uint32_t lane_count = 32;
    std::array<std::vector<BankWord>, trace::kNumBanks> banks; // words sorted by address
    std::uint32_t wavefronts = 0;
    std::uint32_t deepest = 0; // most words in one bank
};

struct BankLayout {
    trace::BankConflicts conflicts;
    std::vector<BankPhaseLayout> phases;
};

// `instruction` must be a shared-memory instruction of `trace`.
BankLayout bank_layout(const trace::Trace& trace, const trace::WarpInstruction& instruction);

} // namespace scanlab::view
