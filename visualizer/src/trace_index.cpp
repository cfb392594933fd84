#include "trace_index.h"

#include <algorithm>
#include <map>
#include <utility>

namespace scanlab::view {

TraceIndex::TraceIndex(const trace::Trace& trace) {
    std::map<std::uint32_t, std::uint32_t> positions; // block -> position in blocks_
    auto position_of = [&](std::uint32_t block) {
        auto [it, inserted] = positions.try_emplace(block, 0);
        return it;
    };
    for (const auto& step : trace.steps) position_of(step.block);
    for (const auto& instruction : trace.instructions) position_of(instruction.block);
    blocks_.reserve(positions.size());
    for (auto& [block, position] : positions) {
        position = static_cast<std::uint32_t>(blocks_.size());
        BlockIndex entry;
        entry.block = block;
        blocks_.push_back(std::move(entry));
    }

    step_places_.resize(trace.steps.size());
    for (std::uint32_t s = 0; s < trace.steps.size(); ++s) {
        const std::uint32_t b = positions.at(trace.steps[s].block);
        step_places_[s] = {b, static_cast<std::uint32_t>(blocks_[b].steps.size())};
        blocks_[b].steps.push_back(s);
    }

    instruction_places_.resize(trace.instructions.size());
    std::vector<std::vector<bool>> object_seen(blocks_.size());
    for (std::uint64_t i = 0; i < trace.instructions.size(); ++i) {
        const auto& instruction = trace.instructions[i];
        const std::uint32_t b = positions.at(instruction.block);
        BlockIndex& block = blocks_[b];
        instruction_places_[i] = {b, static_cast<std::uint32_t>(block.instructions.size())};
        block.instructions.push_back(i);
        block.warps = std::max(block.warps, instruction.warp + 1);
        if (!instruction.lanes.empty())
            block.threads = std::max(block.threads, instruction.lanes.back().thread + 1);
        auto& seen = object_seen[b];
        if (seen.size() <= instruction.memory) seen.resize(instruction.memory + 1, false);
        if (!seen[instruction.memory]) {
            seen[instruction.memory] = true;
            block.objects.push_back(instruction.memory);
        }
    }

    // Step boundaries: a block's instructions never go back to an earlier step.
    for (BlockIndex& block : blocks_) {
        std::sort(block.objects.begin(), block.objects.end());
        block.step_begin.assign(block.steps.size() + 1, 0);
        std::uint32_t k = 0;
        for (std::uint32_t p = 0; p < block.instructions.size(); ++p) {
            const std::uint32_t step = trace.instructions[block.instructions[p]].step;
            const std::uint32_t step_position = step_places_[step].position;
            while (k < step_position) block.step_begin[++k] = p;
        }
        while (k < block.steps.size()) block.step_begin[++k] = block.instruction_count();
    }

    bool any = false;
    auto see_time = [&](std::uint64_t time) {
        first_time_ = any ? std::min(first_time_, time) : time;
        last_time_ = any ? std::max(last_time_, time) : time;
        any = true;
    };
    if (!trace.instructions.empty()) {
        see_time(trace.instructions.front().time);
        see_time(trace.instructions.back().time);
    }
    if (!trace.block_events.empty()) {
        see_time(trace.block_events.front().time);
        see_time(trace.block_events.back().time);
    }
}

int TraceIndex::block_position(std::uint32_t block) const {
    auto it = std::lower_bound(blocks_.begin(), blocks_.end(), block,
                               [](const BlockIndex& b, std::uint32_t v) { return b.block < v; });
    if (it == blocks_.end() || it->block != block) return -1;
    return static_cast<int>(it - blocks_.begin());
}

} // namespace scanlab::view
