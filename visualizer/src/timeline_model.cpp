#include "timeline_model.h"

#include <algorithm>
#include <map>
#include <set>
#include <type_traits>

namespace scanlab::view {

namespace {

// A warp polls when it repeats an instruction (same line, object, offsets) that reads the same
// values as the time before.
struct Poll {
    bool seen = false;
    std::uint64_t instruction = 0; // the warp's previous instruction
    bool open = false;             // waits_[span] is being extended
    std::size_t span = 0;
};

bool same_access(const trace::WarpInstruction& a, const trace::WarpInstruction& b) {
    if (a.kind != b.kind || a.memory != b.memory || a.source != b.source ||
        a.lanes.size() != b.lanes.size() || a.step != b.step)
        return false;
    for (std::size_t l = 0; l < a.lanes.size(); ++l) {
        const auto& x = a.lanes[l];
        const auto& y = b.lanes[l];
        if (x.lane != y.lane || x.offset != y.offset) return false;
    }
    return true;
}

bool same_values(const trace::WarpInstruction& a, const trace::WarpInstruction& b) {
    for (std::size_t l = 0; l < a.lanes.size(); ++l) {
        const auto& x = a.lanes[l];
        const auto& y = b.lanes[l];
        // An atomic's old value is what it read; a load's value is.
        if (a.kind == trace::AccessKind::atomic ? x.old != y.old : x.value != y.value) return false;
    }
    return true;
}

} // namespace

TimelineModel::TimelineModel(const trace::Trace& trace) {
    // Block runs from the block events.
    std::map<std::uint32_t, std::size_t> run_of; // block -> index in runs_
    for (std::size_t e = 0; e < trace.block_events.size(); ++e) {
        const auto& event = trace.block_events[e];
        if (const auto* start = std::get_if<trace::BlockStart>(&event.what)) {
            run_of[event.block] = runs_.size();
            runs_.push_back(BlockRun{event.block, start->slot, event.time, event.time, false});
        } else if (std::holds_alternative<trace::BlockEnd>(event.what)) {
            auto it = run_of.find(event.block);
            if (it != run_of.end()) {
                runs_[it->second].end = event.time;
                runs_[it->second].ended = true;
            }
        }
    }
    // Blocks with instructions but no recorded start: from their first to their last access.
    std::map<std::uint32_t, std::pair<std::uint64_t, std::uint64_t>> spans;
    for (const auto& instruction : trace.instructions) {
        auto [it, inserted] =
            spans.try_emplace(instruction.block, instruction.time, instruction.time);
        it->second.second = instruction.time;
    }
    for (const auto& [block, span] : spans) {
        if (run_of.count(block)) continue;
        run_of[block] = runs_.size();
        runs_.push_back(BlockRun{block, std::nullopt, span.first, span.second, false});
    }

    first_time_ = runs_.empty() ? 0 : runs_.front().start;
    last_time_ = 0;
    for (const auto& run : runs_) {
        first_time_ = std::min(first_time_, run.start);
        last_time_ = std::max(last_time_, run.end);
    }
    if (!trace.instructions.empty())
        last_time_ = std::max(last_time_, trace.instructions.back().time);
    if (!trace.block_events.empty())
        last_time_ = std::max(last_time_, trace.block_events.back().time);
    for (auto& run : runs_)
        if (!run.ended) run.end = last_time_;

    rows_are_slots_ = !runs_.empty() && std::all_of(runs_.begin(), runs_.end(), [](const auto& r) {
        return r.slot.has_value();
    });
    if (rows_are_slots_) {
        for (auto& run : runs_) {
            run.row = *run.slot;
            row_count_ = std::max(row_count_, *run.slot + 1);
        }
    } else {
        std::set<std::uint32_t> blocks;
        for (const auto& run : runs_) blocks.insert(run.block);
        std::vector<std::uint32_t> order(blocks.begin(), blocks.end());
        for (auto& run : runs_)
            run.row = static_cast<std::uint32_t>(
                std::lower_bound(order.begin(), order.end(), run.block) - order.begin());
        row_count_ = static_cast<std::uint32_t>(order.size());
    }

    by_block_.resize(runs_.size());
    for (std::uint32_t r = 0; r < runs_.size(); ++r) by_block_[r] = r;
    std::sort(by_block_.begin(), by_block_.end(),
              [&](std::uint32_t a, std::uint32_t b) { return runs_[a].block < runs_[b].block; });

    // Tile flags: X from the start, then each change until the next one.
    std::map<std::uint32_t, std::vector<std::size_t>> changes;
    for (std::size_t e = 0; e < trace.block_events.size(); ++e)
        if (const auto* flag = std::get_if<trace::TileFlagChange>(&trace.block_events[e].what))
            changes[flag->tile].push_back(e);
    for (const auto& [tile, events] : changes) {
        tiles_.push_back(tile);
        std::uint64_t from = first_time_;
        trace::TileFlag flag = trace::TileFlag::X;
        std::optional<std::size_t> source;
        for (std::size_t e : events) {
            const auto& event = trace.block_events[e];
            if (event.time > from || source)
                flags_.push_back(FlagSpan{tile, flag, from, event.time, source});
            from = event.time;
            flag = std::get<trace::TileFlagChange>(event.what).flag;
            source = e;
        }
        flags_.push_back(FlagSpan{tile, flag, from, last_time_, source});
    }

    // Waits: runs of a warp's consecutive identical polls.
    std::map<std::pair<std::uint32_t, std::uint32_t>, Poll> last; // (block, warp) -> poll
    for (std::uint64_t i = 0; i < trace.instructions.size(); ++i) {
        const auto& instruction = trace.instructions[i];
        Poll& poll = last[{instruction.block, instruction.warp}];
        const bool reads = instruction.kind != trace::AccessKind::store;
        const bool repeat =
            reads && poll.seen && same_access(trace.instructions[poll.instruction], instruction);
        if (repeat && same_values(trace.instructions[poll.instruction], instruction)) {
            if (poll.open) {
                waits_[poll.span].to = instruction.time;
                ++waits_[poll.span].polls;
            } else {
                const auto& previous = trace.instructions[poll.instruction];
                poll.span = waits_.size();
                waits_.push_back(WaitSpan{instruction.block, instruction.warp, previous.time,
                                          instruction.time, 2, poll.instruction});
                poll.open = true;
            }
        } else {
            if (repeat && poll.open) waits_[poll.span].to = instruction.time; // saw the change
            poll.open = false;
        }
        poll.instruction = i;
        poll.seen = true;
    }
    std::sort(waits_.begin(), waits_.end(), [](const WaitSpan& a, const WaitSpan& b) {
        return std::pair(a.block, a.from) < std::pair(b.block, b.from);
    });
}

const BlockRun* TimelineModel::run_of(std::uint32_t block) const {
    auto it =
        std::lower_bound(by_block_.begin(), by_block_.end(), block,
                         [&](std::uint32_t r, std::uint32_t b) { return runs_[r].block < b; });
    if (it == by_block_.end() || runs_[*it].block != block) return nullptr;
    return &runs_[*it];
}

} // namespace scanlab::view
