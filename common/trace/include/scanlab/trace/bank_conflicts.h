#pragma once

// Shared-memory bank conflicts of one warp access, as Nsight Compute counts them
// (l1tex__data_bank_conflicts_pipe_lsu_mem_shared): conflicts = wavefronts - ideal wavefronts.
//
// Shared memory has 32 banks of 4-byte words; word w lives in bank w % 32. An access is served in
// phases: the whole warp for accesses of up to 4 bytes, half-warps (lanes 0-15, 16-31) for 8
// bytes, quarter-warps for 16 bytes. A phase needs as many wavefronts as the largest number of
// distinct words it touches in one bank (lanes on the same word share it: broadcast). Ideally each
// phase with an active lane takes one wavefront.

#include <array>
#include <cstdint>
#include <span>

namespace scanlab::trace {

inline constexpr std::uint32_t kNumBanks = 32;
inline constexpr std::uint32_t kBankWordBytes = 4;
inline constexpr std::uint32_t kMaxBankPhases = 4;

constexpr std::uint32_t bank_of(std::uint64_t address) {
    return static_cast<std::uint32_t>((address / kBankWordBytes) % kNumBanks);
}

// 1 for accesses of up to 4 bytes, 2 for 8, 4 for 16.
constexpr std::uint32_t bank_phase_count(std::uint32_t width) {
    return width <= 4 ? 1 : width / 4;
}

// One active lane: its lane index (0..31) and the byte address it accesses in shared memory.
struct LaneAddress {
    std::uint32_t lane = 0;
    std::uint64_t address = 0;
};

struct BankPhase {
    std::uint32_t lane_mask = 0;                          // active lanes served in this phase
    std::uint32_t wavefronts = 0;                         // max of words_per_bank
    std::array<std::uint8_t, kNumBanks> words_per_bank{}; // distinct words touched per bank
};

struct BankConflicts {
    std::uint32_t width = 4;
    std::uint32_t active_mask = 0;
    std::array<std::uint8_t, 32> lane_bank{}; // bank of each active lane's first word
    std::uint32_t phase_count = 1;
    std::array<BankPhase, kMaxBankPhases> phases{}; // the first phase_count are used
    std::uint32_t wavefronts = 0;
    std::uint32_t ideal_wavefronts = 0; // phases with an active lane
    std::uint32_t conflicts = 0;        // wavefronts - ideal_wavefronts
};

// A pure function of the active lanes' addresses and the access width (1, 2, 4, 8 or 16 bytes).
// Throws std::invalid_argument for another width, a lane >= 32 or a lane given twice. No lanes:
// all zero.
BankConflicts analyze_bank_conflicts(std::span<const LaneAddress> lanes, std::uint32_t width);

} // namespace scanlab::trace
