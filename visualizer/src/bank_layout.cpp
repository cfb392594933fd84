#include "bank_layout.h"

#include <algorithm>

namespace scanlab::view {

BankLayout bank_layout(const trace::Trace& trace, const trace::WarpInstruction& instruction) {
    BankLayout layout;
    layout.conflicts = trace::instruction_bank_conflicts(trace, instruction);
    const std::uint32_t phase_count = trace::bank_phase_count(instruction.width);
    const std::uint32_t lanes_per_phase = trace::kWarpSize / phase_count;
    layout.phases.resize(phase_count);
    for (std::uint32_t p = 0; p < phase_count; ++p) {
        layout.phases[p].first_lane = p * lanes_per_phase;
        layout.phases[p].lane_count = lanes_per_phase;
        layout.phases[p].wavefronts = layout.conflicts.phases[p].wavefronts;
    }
    const std::uint64_t base = trace.memory[instruction.memory].base;
    for (std::size_t l = 0; l < instruction.lanes.size(); ++l) {
        const auto& lane = instruction.lanes[l];
        BankPhaseLayout& phase =
            layout.phases[std::min(lane.lane / lanes_per_phase, phase_count - 1)];
        const std::uint64_t address = base + lane.offset;
        const std::uint64_t first = address / trace::kBankWordBytes;
        const std::uint64_t last = (address + instruction.width - 1) / trace::kBankWordBytes;
        for (std::uint64_t word = first; word <= last; ++word) {
            auto& words = phase.banks[word % trace::kNumBanks];
            auto it =
                std::lower_bound(words.begin(), words.end(), word,
                                 [](const BankWord& w, std::uint64_t v) { return w.word < v; });
            if (it == words.end() || it->word != word) it = words.insert(it, BankWord{word, {}});
            it->lanes.push_back(static_cast<std::uint8_t>(l));
        }
    }
    for (BankPhaseLayout& phase : layout.phases)
        for (const auto& words : phase.banks)
            phase.deepest =
                std::max<std::uint32_t>(phase.deepest, static_cast<std::uint32_t>(words.size()));
    return layout;
}

} // namespace scanlab::view
