#include "pipeline_model.h"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <map>
#include <set>
#include <tuple>

namespace scanlab::view {

namespace {

using trace::MbarrierOp;

// One thread's wait for a barrier's phase: failed polls, then (if it came) the success.
struct ThreadWait {
    std::uint64_t begin = 0;
    std::uint64_t end = 0;
    bool completed = false;
    std::uint64_t polls = 0;
    std::uint32_t parity = 0;
};

std::uint64_t trace_end(const trace::Trace& t) {
    std::uint64_t end = 0;
    if (!t.instructions.empty()) end = std::max(end, t.instructions.back().time);
    if (!t.block_events.empty()) end = std::max(end, t.block_events.back().time);
    if (!t.mbarriers.empty()) end = std::max(end, t.mbarriers.back().time);
    return end;
}

bool touches(const trace::WarpInstruction& w, const trace::MemoryPlace& place,
             std::uint64_t bytes) {
    if (w.memory != place.memory) return false;
    return std::any_of(w.lanes.begin(), w.lanes.end(), [&](const trace::LaneAccess& lane) {
        return lane.offset + w.width > place.offset && lane.offset < place.offset + bytes;
    });
}

// A stage the producer filled with plain stores: the bytes of its most repeated shared store
// statement (the copy loop; a lone store of the stage's tile number is not it; the bulk copies'
// own writes, at `copy_lines`, are not either) between its last wait or arrive before its first
// arrive on the stage's barrier and that arrive. None when there is no such statement (a phase
// that only passes an end marker).
void stage_from_stores(const trace::Trace& trace, const PipelineModel& m, Stage& stage,
                       const std::set<std::uint32_t>& producers,
                       const std::set<std::pair<std::uint32_t, std::uint32_t>>& copy_lines) {
    std::optional<std::uint64_t> arrive;
    for (const PipelineArrive& a : m.arrives)
        if (producers.count(a.warp) && a.barrier == stage.fill_barrier && !arrive) arrive = a.time;
    if (!arrive) return;
    std::uint64_t after = m.begin;
    for (const PipelineWait& w : m.waits)
        if (producers.count(w.warp) && w.end <= *arrive) after = std::max(after, w.end);
    for (const PipelineArrive& a : m.arrives)
        if (producers.count(a.warp) && a.time < *arrive) after = std::max(after, a.time);
    std::map<std::pair<std::uint32_t, std::uint32_t>, std::vector<const trace::WarpInstruction*>>
        by_line;
    for (const trace::WarpInstruction& w : trace.instructions)
        if (w.block == m.block && producers.count(w.warp) &&
            w.space == trace::MemorySpace::shared && w.kind == trace::AccessKind::store &&
            w.time > after && w.time < *arrive && !copy_lines.count({w.source.file, w.source.line}))
            by_line[{w.source.file, w.source.line}].push_back(&w);
    const std::vector<const trace::WarpInstruction*>* most = nullptr;
    for (const auto& [line, list] : by_line)
        if (!most || list.size() > most->size()) most = &list;
    if (!most || most->size() < 2) return;
    std::uint64_t low = UINT64_MAX;
    std::uint64_t high = 0;
    for (const trace::WarpInstruction* w : *most)
        for (const trace::LaneAccess& lane : w->lanes) {
            low = std::min(low, lane.offset);
            high = std::max(high, lane.offset + w->width);
        }
    stage.data = {most->front()->memory, low};
    stage.bytes = static_cast<std::uint32_t>(high - low);
}

} // namespace

const char* role_name(PipelineRole role) {
    switch (role) {
    case PipelineRole::producer:
        return "producer";
    case PipelineRole::look_back:
        return "look-back";
    case PipelineRole::reducer:
        return "reducer";
    case PipelineRole::scanner:
        return "scanner";
    }
    return "?";
}

const PipelineWarp* PipelineModel::warp(std::uint32_t index) const {
    for (const PipelineWarp& w : warps)
        if (w.warp == index) return &w;
    return nullptr;
}

std::size_t PipelineModel::stalls() const {
    return static_cast<std::size_t>(std::count_if(
        waits.begin(), waits.end(), [](const PipelineWait& w) { return !w.completed; }));
}

bool has_pipeline(const trace::Trace& trace) {
    return !trace.mbarriers.empty();
}

PipelineModel build_pipeline_model(const trace::Trace& trace, std::uint32_t block) {
    if (trace.mbarriers.empty())
        throw PipelineError(
            "this trace has no mbarrier events: the pipeline view shows kernels that guard "
            "stages with mbarriers (lab 08), recorded with trace format 4 or later");
    PipelineModel m;
    m.block = block;
    const std::uint64_t last = trace_end(trace);
    std::optional<std::uint64_t> start;
    for (const trace::BlockEvent& e : trace.block_events) {
        if (e.block != block) continue;
        if (std::holds_alternative<trace::BlockStart>(e.what)) start = e.time;
        if (std::holds_alternative<trace::BlockEnd>(e.what)) {
            m.end = e.time;
            m.ended = true;
        }
    }
    if (!m.ended) m.end = last;

    // Barriers by place, in the order the block first used them.
    std::map<std::pair<std::uint32_t, std::uint64_t>, std::uint32_t> barrier_at;
    std::map<std::pair<std::uint32_t, std::uint32_t>, std::vector<ThreadWait>> thread_waits;
    std::map<std::tuple<std::uint32_t, std::uint32_t, std::size_t>, bool> arrived;
    std::set<std::uint32_t> warps_seen;
    std::set<std::uint32_t> producers;
    struct Copy {
        std::uint32_t barrier;
        std::uint32_t round;
        std::uint64_t time;
        std::uint32_t bytes;
        trace::MemoryPlace destination;
        std::uint32_t warp;
    };
    std::set<std::pair<std::uint32_t, std::uint32_t>> copy_lines; // the copies' statements
    std::vector<Copy> copies;
    std::vector<std::tuple<std::uint32_t, std::uint32_t, std::uint64_t>> landings; // barrier, round
    std::size_t events = 0;
    for (std::size_t i = 0; i < trace.mbarriers.size(); ++i) {
        const trace::MbarrierEvent& e = trace.mbarriers[i];
        if (e.block != block) continue;
        ++events;
        if (!start) start = e.time;
        const auto key = std::make_pair(e.barrier.memory, e.barrier.offset);
        auto found = barrier_at.find(key);
        if (found == barrier_at.end()) {
            if (e.op != MbarrierOp::init)
                throw PipelineError("mbarriers[" + std::to_string(i) + "]: block " +
                                    std::to_string(block) + " uses a barrier before its init " +
                                    "(a trace the emulator did not write this way)");
            PipelineBarrier b;
            b.place = e.barrier;
            b.name = trace.memory[e.barrier.memory].name + "+" + std::to_string(e.barrier.offset);
            found = barrier_at.emplace(key, static_cast<std::uint32_t>(m.barriers.size())).first;
            m.barriers.push_back(b);
        }
        const std::uint32_t index = found->second;
        PipelineBarrier& barrier = m.barriers[index];
        const std::uint32_t warp = e.thread / trace::kWarpSize;
        const auto round = static_cast<std::uint32_t>(barrier.phase_times.size());
        switch (e.op) {
        case MbarrierOp::init:
            barrier.arrivals = e.count;
            barrier.phase_times.clear();
            break;
        case MbarrierOp::arrive:
            warps_seen.insert(warp);
            if (arrived.emplace(std::make_tuple(warp, index, barrier.phase_times.size()), true)
                    .second)
                m.arrives.push_back({warp, index, e.time});
            break;
        case MbarrierOp::expect_tx:
            break;
        case MbarrierOp::copy:
            warps_seen.insert(warp);
            producers.insert(warp);
            copies.push_back({index, round, e.time, e.bytes, *e.destination, warp});
            if (e.source) copy_lines.insert({e.source->file, e.source->line});
            break;
        case MbarrierOp::land:
            landings.emplace_back(index, round, e.time);
            break;
        case MbarrierOp::complete:
            if (e.phase != barrier.phase_times.size())
                throw PipelineError("mbarriers[" + std::to_string(i) + "]: phase " +
                                    std::to_string(e.phase) + " of " + barrier.name +
                                    " completed after " + std::to_string(round) +
                                    " phases (a trace the emulator did not write this way)");
            barrier.phase_times.push_back(e.time);
            break;
        case MbarrierOp::wait:
        case MbarrierOp::poll: {
            warps_seen.insert(warp);
            auto& list = thread_waits[{e.thread, index}];
            if (list.empty() || list.back().completed)
                list.push_back({e.time, e.time, false, 0, e.parity});
            ThreadWait& w = list.back();
            if (e.op == MbarrierOp::poll) {
                w.polls += e.count;
            } else {
                w.end = e.time;
                w.completed = true;
            }
            break;
        }
        }
    }
    if (events == 0)
        throw PipelineError("block " + std::to_string(block) +
                            " has no mbarrier events in this trace (was it recorded? "
                            "./scanlab trace --blocks)");
    if (copies.empty())
        throw PipelineError("block " + std::to_string(block) +
                            " issued no bulk copy (cp.async.bulk): its barriers guard no ring of "
                            "stages that the pipeline view can show");
    m.begin = *start;

    // A warp's wait k on a barrier: its lanes' k-th waits together.
    std::map<std::pair<std::uint32_t, std::uint32_t>, std::vector<PipelineWait>> warp_waits;
    for (const auto& [who, list] : thread_waits) {
        const std::uint32_t warp = who.first / trace::kWarpSize;
        auto& merged = warp_waits[{warp, who.second}];
        for (std::size_t k = 0; k < list.size(); ++k) {
            const ThreadWait& t = list[k];
            const std::uint64_t end = t.completed ? t.end : m.end;
            if (k == merged.size()) {
                merged.push_back({warp, who.second, t.parity, t.begin, end, t.completed, t.polls});
                continue;
            }
            PipelineWait& w = merged[k];
            w.begin = std::min(w.begin, t.begin);
            w.end = std::max(w.end, end);
            w.completed = w.completed && t.completed;
            w.polls += t.polls;
        }
    }
    for (auto& [key, list] : warp_waits) m.waits.insert(m.waits.end(), list.begin(), list.end());
    std::sort(m.waits.begin(), m.waits.end(), [](const PipelineWait& a, const PipelineWait& b) {
        return std::tie(a.begin, a.warp) < std::tie(b.begin, b.warp);
    });

    // Stages: the barriers copies complete on, and the others the producer arrives on (a stage
    // it filled only with plain stores: a last, partial tile), by place.
    std::vector<std::uint32_t> fill_barriers;
    for (const Copy& c : copies)
        if (std::find(fill_barriers.begin(), fill_barriers.end(), c.barrier) == fill_barriers.end())
            fill_barriers.push_back(c.barrier);
    for (const PipelineArrive& a : m.arrives)
        if (producers.count(a.warp) &&
            std::find(fill_barriers.begin(), fill_barriers.end(), a.barrier) == fill_barriers.end())
            fill_barriers.push_back(a.barrier);
    std::sort(fill_barriers.begin(), fill_barriers.end(), [&](std::uint32_t a, std::uint32_t b) {
        const auto& pa = m.barriers[a].place;
        const auto& pb = m.barriers[b].place;
        return std::tie(pa.memory, pa.offset) < std::tie(pb.memory, pb.offset);
    });
    for (std::uint32_t s = 0; s < fill_barriers.size(); ++s) {
        Stage stage;
        stage.fill_barrier = fill_barriers[s];
        m.barriers[fill_barriers[s]].fills = s;
        for (const Copy& c : copies)
            if (c.barrier == stage.fill_barrier) {
                if (stage.bytes == 0) stage.data = c.destination;
                stage.bytes = std::max(stage.bytes, c.bytes);
            }
        if (stage.bytes == 0) stage_from_stores(trace, m, stage, producers, copy_lines);
        m.stages.push_back(stage);
    }
    // A stage's release: what the producer waited on last before it refilled the stage (its
    // first arrive on the stage's barrier for a later phase: a copy's, or a fill by plain stores).
    for (const PipelineArrive& a : m.arrives) {
        if (!producers.count(a.warp) || !m.barriers[a.barrier].fills) continue;
        const std::uint32_t s = *m.barriers[a.barrier].fills;
        const bool refill =
            std::any_of(m.arrives.begin(), m.arrives.end(), [&](const PipelineArrive& b) {
                return b.warp == a.warp && b.barrier == a.barrier && b.time < a.time;
            });
        if (!refill || m.stages[s].release_barrier) continue;
        const PipelineWait* before = nullptr;
        for (const PipelineWait& w : m.waits)
            if (w.warp == a.warp && w.completed && w.end <= a.time &&
                !m.barriers[w.barrier].fills && (!before || w.end >= before->end))
                before = &w;
        if (!before) continue;
        m.stages[s].release_barrier = before->barrier;
        m.barriers[before->barrier].releases = s;
    }

    // Warp roles, from what each warp did.
    std::set<std::uint32_t> look_back;
    std::set<std::uint32_t> descriptor_objects;
    for (const trace::WarpInstruction& w : trace.instructions)
        if (w.block == block && w.space == trace::MemorySpace::global &&
            w.kind == trace::AccessKind::load && !producers.count(w.warp)) {
            look_back.insert(w.warp);
            descriptor_objects.insert(w.memory);
        }
    std::map<std::uint32_t, bool> publishes_only; // warp -> all its global stores to descriptors
    for (const trace::WarpInstruction& w : trace.instructions)
        if (w.block == block && w.space == trace::MemorySpace::global &&
            w.kind != trace::AccessKind::load && !producers.count(w.warp) &&
            !look_back.count(w.warp)) {
            auto [it, first] = publishes_only.emplace(w.warp, true);
            it->second = it->second && descriptor_objects.count(w.memory) > 0;
        }
    for (const std::uint32_t warp : warps_seen) {
        PipelineRole role = PipelineRole::scanner;
        if (producers.count(warp))
            role = PipelineRole::producer;
        else if (look_back.count(warp))
            role = PipelineRole::look_back;
        else if (const auto it = publishes_only.find(warp);
                 it != publishes_only.end() && it->second)
            role = PipelineRole::reducer;
        m.warps.push_back({warp, role});
    }

    // Fills: each phase of a stage's fill barrier, with its copy, landing, reads and release.
    for (std::uint32_t s = 0; s < m.stages.size(); ++s) {
        const Stage& stage = m.stages[s];
        const PipelineBarrier& fill = m.barriers[stage.fill_barrier];
        std::uint32_t rounds = static_cast<std::uint32_t>(fill.phase_times.size());
        for (const Copy& c : copies)
            if (c.barrier == stage.fill_barrier) rounds = std::max(rounds, c.round + 1);
        for (std::uint32_t r = 0; r < rounds; ++r) {
            StageFill f;
            f.stage = s;
            f.round = r;
            for (const Copy& c : copies)
                if (c.barrier == stage.fill_barrier && c.round == r) {
                    if (!f.copy) f.copy = c.time;
                    f.bytes += c.bytes;
                }
            for (const auto& [barrier, round, time] : landings)
                if (barrier == stage.fill_barrier && round == r) f.landed = time;
            if (r < fill.phase_times.size()) f.full = fill.phase_times[r];
            if (stage.release_barrier) {
                const PipelineBarrier& release = m.barriers[*stage.release_barrier];
                if (r < release.phase_times.size()) f.released = release.phase_times[r];
            }
            m.fills.push_back(f);
        }
    }
    // The consumers' reads of each stage's bytes, given to the latest fill begun before them.
    for (std::uint64_t i = 0; i < trace.instructions.size(); ++i) {
        const trace::WarpInstruction& w = trace.instructions[i];
        if (w.block != block || producers.count(w.warp)) continue;
        if (w.space == trace::MemorySpace::global) {
            if (look_back.count(w.warp) || descriptor_objects.count(w.memory))
                m.descriptors.push_back({w.warp, w.time, w.kind != trace::AccessKind::load, i});
            continue;
        }
        if (w.kind != trace::AccessKind::load) continue;
        for (std::uint32_t s = 0; s < m.stages.size(); ++s) {
            if (!touches(w, m.stages[s].data, m.stages[s].bytes)) continue;
            m.stage_reads.push_back({w.warp, w.time, false, i});
            StageFill* latest = nullptr;
            for (StageFill& f : m.fills) {
                const std::optional<std::uint64_t> began = f.copy ? f.copy : f.full;
                if (f.stage == s && began && *began <= w.time) latest = &f;
            }
            if (!latest) continue;
            if (!latest->first_read) latest->first_read = w.time;
            latest->last_read = w.time;
        }
    }
    // The block's findings, where they lie on the rows.
    for (std::uint32_t f = 0; f < trace.findings.size(); ++f)
        for (const trace::FindingAccess& a : trace.findings[f].accesses) {
            if (a.block != block) continue;
            if (a.recorded && a.recorded->instruction < trace.instructions.size()) {
                const trace::WarpInstruction& w = trace.instructions[a.recorded->instruction];
                m.marks.push_back({f, w.warp, w.time});
            } else {
                m.marks.push_back({f, a.thread / trace::kWarpSize, m.end});
            }
        }
    return m;
}

} // namespace scanlab::view
