#include "scanlab/trace/bank_conflicts.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace scanlab::trace {

BankConflicts analyze_bank_conflicts(std::span<const LaneAddress> lanes, std::uint32_t width) {
    if (width != 1 && width != 2 && width != 4 && width != 8 && width != 16)
        throw std::invalid_argument("bank conflicts: access width " + std::to_string(width) +
                                    " is not 1, 2, 4, 8 or 16 bytes");
    BankConflicts result;
    result.width = width;
    result.phase_count = bank_phase_count(width);
    const std::uint32_t lanes_per_phase = 32 / result.phase_count;

    // A lane touches at most 5 words (16 bytes, misaligned); a phase has at most 32 lanes.
    constexpr std::size_t kMaxWords = 32 * 5;
    std::array<std::array<std::uint64_t, kMaxWords>, kMaxBankPhases> words;
    std::array<std::size_t, kMaxBankPhases> word_count{};

    for (const LaneAddress& access : lanes) {
        if (access.lane >= 32)
            throw std::invalid_argument("bank conflicts: lane " + std::to_string(access.lane) +
                                        " is not 0..31");
        const std::uint32_t bit = std::uint32_t{1} << access.lane;
        if (result.active_mask & bit)
            throw std::invalid_argument("bank conflicts: lane " + std::to_string(access.lane) +
                                        " is given twice");
        result.active_mask |= bit;
        result.lane_bank[access.lane] = static_cast<std::uint8_t>(bank_of(access.address));
        const std::uint32_t phase = access.lane / lanes_per_phase;
        result.phases[phase].lane_mask |= bit;
        // Count words from the first one, so an address near 2^64 cannot wrap.
        const std::uint64_t first = access.address / kBankWordBytes;
        const std::uint64_t span = (access.address % kBankWordBytes + width - 1) / kBankWordBytes;
        for (std::uint64_t w = 0; w <= span; ++w) words[phase][word_count[phase]++] = first + w;
    }

    for (std::uint32_t p = 0; p < result.phase_count; ++p) {
        BankPhase& phase = result.phases[p];
        auto begin = words[p].begin();
        auto end = begin + static_cast<std::ptrdiff_t>(word_count[p]);
        std::sort(begin, end);
        end = std::unique(begin, end); // lanes on one word share it (broadcast)
        for (auto it = begin; it != end; ++it) ++phase.words_per_bank[*it % kNumBanks];
        phase.wavefronts =
            *std::max_element(phase.words_per_bank.begin(), phase.words_per_bank.end());
        result.wavefronts += phase.wavefronts;
        if (phase.lane_mask != 0) ++result.ideal_wavefronts;
    }
    result.conflicts = result.wavefronts - result.ideal_wavefronts;
    return result;
}

} // namespace scanlab::trace
