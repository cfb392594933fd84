#pragma once

// A trace with a finding, for the viewer's tests: the Hillis-Steele fixture with a race planted on
// a cell that a store of step `step` wrote and a load of the same step read, as the emulator
// records one (written to a scratch file, so that the viewer opens it like any trace).

#include <filesystem>
#include <string>

#include "scanlab/trace/reader.h"
#include "scanlab/trace/writer.h"
#include "test_paths.h"

namespace scanlab::view::test {

struct PlantedFinding {
    std::filesystem::path path;
    trace::Trace trace;
    std::uint64_t store = 0; // the instructions of the two accesses
    std::uint64_t load = 0;
    std::uint32_t memory = 0;
    std::uint64_t offset = 0; // the cell's byte offset in `memory`
};

inline PlantedFinding plant_finding(std::uint32_t step, std::uint32_t lane_pick) {
    PlantedFinding p;
    p.trace = trace::read_trace_file(fixture("hillis_steele_16.trace.json"));
    trace::Trace& t = p.trace;
    // The first store of the step, and the lane `lane_pick` (modulo its lanes).
    for (std::uint64_t i = 0; i < t.instructions.size(); ++i)
        if (t.instructions[i].step == step && t.instructions[i].kind == trace::AccessKind::store &&
            t.memory[t.instructions[i].memory].space == trace::MemorySpace::shared) {
            p.store = i;
            break;
        }
    const trace::WarpInstruction& store = t.instructions[p.store];
    const trace::LaneAccess& writer = store.lanes[lane_pick % store.lanes.size()];
    p.memory = store.memory;
    p.offset = writer.offset;
    // A load of the same object in the same step, by another lane.
    for (std::uint64_t i = 0; i < t.instructions.size(); ++i)
        if (t.instructions[i].step == step && t.instructions[i].kind == trace::AccessKind::load &&
            t.instructions[i].memory == p.memory) {
            p.load = i;
            break;
        }
    const trace::WarpInstruction& load = t.instructions[p.load];
    const trace::LaneAccess& reader = load.lanes[(lane_pick + 1) % load.lanes.size()];
    trace::Finding race;
    race.kind = trace::FindingKind::shared_race;
    race.message = "simt: shared memory race in kernel (planted by the test)\n";
    race.source = load.source;
    race.accesses.push_back({store.block, reader.thread, trace::FindingRole::load, load.memory,
                             reader.offset, 4, load.source,
                             trace::InstructionLane{p.load, reader.lane}, load.step});
    race.accesses.push_back({store.block, writer.thread, trace::FindingRole::store, store.memory,
                             writer.offset, 4, store.source,
                             trace::InstructionLane{p.store, writer.lane}, store.step});
    t.findings.push_back(race);
    p.path = scratch("planted_finding_" + std::to_string(step) + ".trace.json");
    trace::write_trace_file(t, p.path);
    return p;
}

} // namespace scanlab::view::test
