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
    case PipelineRole::consumer:
        return "consumer";
    }
    return "?";
}

const PipelineWarp* PipelineModel::warp(std::uint32_t index) const {
    for (const PipelineWarp& w : warps)
        if (w.warp == index) return &w;
    return nullptr;
}

std::size_t PipelineModel::early_reads() const {
    return static_cast<std::size_t>(std::count_if(stage_reads.begin(), stage_reads.end(),
                                                  [](const PipelineAccess& r) { return r.early; }));
}

std::string stall_reason(const PipelineModel& m, const PipelineWait& wait) {
    const PipelineBarrier& b = m.barriers[wait.barrier];
    const auto phase = b.phase_times.size();
    std::string text = "phase " + std::to_string(phase) + " of " + b.name;
    if (b.fills) text += " (stage " + std::to_string(*b.fills) + "'s fill)";
    if (b.releases) text += " (stage " + std::to_string(*b.releases) + "'s release)";
    if (!b.fills && !b.releases && b.stage_place)
        text += " (stage " + std::to_string(*b.stage_place) + "'s barrier in per-stage array " +
                std::to_string(b.array) + "; array 0 holds the fills)";
    if ((phase & 1) != wait.parity)
        return "waits for parity " + std::to_string(wait.parity) + ", but " + text +
               " is open and has parity " + std::to_string(phase & 1) +
               ": the phase of that parity completed before, or never will";
    text += " never completed: " + std::to_string(b.open_arrivals) + " of " +
            std::to_string(b.arrivals) + " arrivals came";
    if (b.open_bytes_expected > 0 || b.open_bytes_landed > 0)
        text += ", " + std::to_string(b.open_bytes_landed) + " of " +
                std::to_string(b.open_bytes_expected) + " announced bytes landed";
    if (b.arrivers.empty()) return text + "; no warp ever arrived on it";
    text += "; it is arrived on by warp";
    for (std::size_t k = 0; k < b.arrivers.size(); ++k) {
        const PipelineWarp* w = m.warp(b.arrivers[k]);
        text += (k ? ", " : " ") + std::to_string(b.arrivers[k]) +
                (w ? std::string(" (") + role_name(w->role) + ")" : "");
    }
    return text;
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
        if (e.op != MbarrierOp::poll) m.active_end = std::max(m.active_end, e.time);
        switch (e.op) {
        case MbarrierOp::init:
            barrier.arrivals = e.count;
            barrier.phase_times.clear();
            break;
        case MbarrierOp::arrive:
            warps_seen.insert(warp);
            barrier.open_arrivals += e.count;
            barrier.open_bytes_expected += e.bytes;
            if (std::find(barrier.arrivers.begin(), barrier.arrivers.end(), warp) ==
                barrier.arrivers.end())
                barrier.arrivers.push_back(warp);
            if (arrived.emplace(std::make_tuple(warp, index, barrier.phase_times.size()), true)
                    .second)
                m.arrives.push_back({warp, index, e.time});
            break;
        case MbarrierOp::expect_tx:
            barrier.open_bytes_expected += e.bytes;
            break;
        case MbarrierOp::copy:
            warps_seen.insert(warp);
            producers.insert(warp);
            copies.push_back({index, round, e.time, e.bytes, *e.destination, warp});
            if (e.source) copy_lines.insert({e.source->file, e.source->line});
            break;
        case MbarrierOp::land:
            landings.emplace_back(index, round, e.time);
            barrier.open_bytes_landed += e.bytes;
            break;
        case MbarrierOp::complete:
            if (e.phase != barrier.phase_times.size())
                throw PipelineError("mbarriers[" + std::to_string(i) + "]: phase " +
                                    std::to_string(e.phase) + " of " + barrier.name +
                                    " completed after " + std::to_string(round) +
                                    " phases (a trace the emulator did not write this way)");
            barrier.phase_times.push_back(e.time);
            barrier.open_arrivals = 0;
            barrier.open_bytes_expected = 0;
            barrier.open_bytes_landed = 0;
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
    const bool has_findings =
        std::any_of(trace.findings.begin(), trace.findings.end(), [&](const trace::Finding& f) {
            return std::any_of(f.accesses.begin(), f.accesses.end(),
                               [&](const trace::FindingAccess& a) { return a.block == block; });
        });
    // A block that failed before its first copy (a stage's state read too early) is still
    // drawn, with its warps and findings; one that ran without copies has no ring to show.
    m.died_early = copies.empty() && has_findings;
    if (copies.empty() && !has_findings)
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
    // Other barriers laid out like the fill barriers (an array per role, indexed by stage).
    const auto contiguous = [&] {
        for (std::uint32_t s = 0; s < m.stages.size(); ++s) {
            const auto& place = m.barriers[m.stages[s].fill_barrier].place;
            const auto& first = m.barriers[m.stages[0].fill_barrier].place;
            if (place.memory != first.memory || place.offset != first.offset + 8 * s) return false;
        }
        return !m.stages.empty();
    };
    if (contiguous()) {
        const auto& first = m.barriers[m.stages[0].fill_barrier].place;
        for (PipelineBarrier& b : m.barriers) {
            if (b.place.memory != first.memory || b.place.offset < first.offset ||
                (b.place.offset - first.offset) % 8 != 0)
                continue;
            const std::uint64_t index = (b.place.offset - first.offset) / 8;
            b.stage_place = static_cast<std::uint32_t>(index % m.stages.size());
            b.array = static_cast<std::uint32_t>(index / m.stages.size());
        }
    }

    // A stage's release, as the producer sees it: what it waited on last before it refilled the
    // stage (its first arrive on the stage's barrier for a later phase: a copy's, or a fill by
    // plain stores). The readers' side (their arrive after the last read) comes below.
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
        m.stages[s].producer_waits_release = true;
        m.barriers[before->barrier].releases = s;
    }

    // The block's findings, where they lie on the rows (a warp with a finding gets a row even
    // if it used no barrier).
    for (std::uint32_t f = 0; f < trace.findings.size(); ++f)
        for (const trace::FindingAccess& a : trace.findings[f].accesses) {
            if (a.block != block) continue;
            if (a.recorded && a.recorded->instruction < trace.instructions.size()) {
                const trace::WarpInstruction& w = trace.instructions[a.recorded->instruction];
                m.marks.push_back({f, w.warp, w.time});
                warps_seen.insert(w.warp);
            } else {
                m.marks.push_back({f, a.thread / trace::kWarpSize, m.end});
                warps_seen.insert(a.thread / trace::kWarpSize);
            }
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
        else if (const auto it = publishes_only.find(warp); it == publishes_only.end())
            role = PipelineRole::consumer; // no global store: nothing tells its role
        else if (it->second)
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
        if (w.block != block) continue;
        if (w.kind != trace::AccessKind::load) m.active_end = std::max(m.active_end, w.time);
        if (producers.count(w.warp)) continue;
        if (w.space == trace::MemorySpace::global) {
            if (look_back.count(w.warp) || descriptor_objects.count(w.memory))
                m.descriptors.push_back({w.warp, w.time, w.kind != trace::AccessKind::load, i});
            continue;
        }
        if (w.kind != trace::AccessKind::load) continue;
        for (std::uint32_t s = 0; s < m.stages.size(); ++s) {
            if (!touches(w, m.stages[s].data, m.stages[s].bytes)) continue;
            // The read belongs to the latest fill begun before it; if that one is not readable
            // yet while the fill before it was never released, to the fill before (the refill
            // is the mistake, marked on it); otherwise it is early.
            StageFill* latest = nullptr;
            StageFill* before = nullptr;
            for (StageFill& f : m.fills) {
                const std::optional<std::uint64_t> began = f.copy ? f.copy : f.full;
                if (f.stage != s || !began || *began > w.time) continue;
                before = latest;
                latest = &f;
            }
            bool early = !latest || !latest->full || *latest->full > w.time;
            if (early && before && before->full && *before->full <= w.time &&
                (!before->released || *before->released > w.time)) {
                latest = before;
                early = false;
            }
            m.stage_reads.push_back({w.warp, w.time, false, i, s, early});
            if (!latest) continue;
            if (!latest->first_read) latest->first_read = w.time;
            latest->last_read = w.time;
            latest->read_early = latest->read_early || early;
        }
    }
    // A stage's release, as its readers give it: the barrier the warp that read a fill last
    // arrives on next (not a fill barrier), the most common over the stage's fills. Then every
    // fill's release is the phase of that barrier for its round, refilled or not.
    for (std::uint32_t s = 0; s < m.stages.size(); ++s) {
        if (m.stages[s].release_barrier) continue;
        std::map<std::uint32_t, std::uint32_t> votes;
        for (const StageFill& f : m.fills) {
            if (f.stage != s || !f.last_read) continue;
            std::optional<std::uint32_t> reader;
            for (const PipelineAccess& r : m.stage_reads)
                if (r.stage == s && r.time == *f.last_read) reader = r.warp;
            const PipelineArrive* next = nullptr;
            for (const PipelineArrive& a : m.arrives)
                if (reader && a.warp == *reader && a.time >= *f.last_read &&
                    !m.barriers[a.barrier].fills && (!next || a.time < next->time))
                    next = &a;
            if (next) ++votes[next->barrier];
        }
        const auto best = std::max_element(votes.begin(), votes.end(),
                                           [](auto& a, auto& b) { return a.second < b.second; });
        if (best == votes.end() || m.barriers[best->first].releases) continue;
        m.stages[s].release_barrier = best->first;
        m.barriers[best->first].releases = s;
    }
    for (std::size_t i = 0; i < m.fills.size(); ++i) {
        StageFill& f = m.fills[i];
        const Stage& stage = m.stages[f.stage];
        if (stage.release_barrier) {
            const PipelineBarrier& release = m.barriers[*stage.release_barrier];
            if (f.round < release.phase_times.size()) f.released = release.phase_times[f.round];
        }
        // Refilled before the fill before it was released (or with that release never come).
        if (i > 0 && m.fills[i - 1].stage == f.stage) {
            const StageFill& before = m.fills[i - 1];
            const std::optional<std::uint64_t> refill = f.copy ? f.copy : f.full;
            f.refill_early = refill && (!before.released || *before.released > *refill);
        }
    }
    return m;
}

} // namespace scanlab::view
