#include "scanlab/trace/analysis.h"

#include <stdexcept>

namespace scanlab::trace {

ConflictTotals& ConflictTotals::operator+=(const ConflictTotals& other) {
    instructions += other.instructions;
    wavefronts += other.wavefronts;
    ideal_wavefronts += other.ideal_wavefronts;
    conflicts += other.conflicts;
    return *this;
}

ConflictTotals& ConflictTotals::operator+=(const BankConflicts& instruction) {
    instructions += 1;
    wavefronts += instruction.wavefronts;
    ideal_wavefronts += instruction.ideal_wavefronts;
    conflicts += instruction.conflicts;
    return *this;
}

ConflictTotals& SharedTotals::of(AccessKind kind) {
    return kind == AccessKind::load ? load : kind == AccessKind::store ? store : atomic;
}

const ConflictTotals& SharedTotals::of(AccessKind kind) const {
    return kind == AccessKind::load ? load : kind == AccessKind::store ? store : atomic;
}

ConflictTotals SharedTotals::all() const {
    ConflictTotals sum = load;
    sum += store;
    sum += atomic;
    return sum;
}

BankConflicts instruction_bank_conflicts(const Trace& trace, const WarpInstruction& instruction) {
    const MemoryObject& object = trace.memory.at(instruction.memory);
    if (instruction.lanes.size() > kWarpSize)
        throw std::out_of_range("bank conflicts: more than 32 lanes in one instruction");
    std::array<LaneAddress, kWarpSize> addresses;
    std::size_t count = 0;
    for (const LaneAccess& lane : instruction.lanes)
        addresses[count++] = {lane.lane, object.base + lane.offset};
    return analyze_bank_conflicts(std::span(addresses.data(), count), instruction.width);
}

TraceAnalysis analyze_trace(const Trace& trace) {
    TraceAnalysis analysis;
    analysis.instructions.resize(trace.instructions.size());
    analysis.steps.resize(trace.steps.size());
    for (std::size_t i = 0; i < trace.instructions.size(); ++i) {
        const WarpInstruction& instruction = trace.instructions[i];
        if (instruction.space != MemorySpace::shared) continue;
        const BankConflicts conflicts = instruction_bank_conflicts(trace, instruction);
        analysis.steps.at(instruction.step).of(instruction.kind) += conflicts;
        analysis.launch.of(instruction.kind) += conflicts;
        analysis.instructions[i] = conflicts;
    }
    return analysis;
}

} // namespace scanlab::trace
