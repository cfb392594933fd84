#include "trace_recorder.h"

#include <algorithm>
#include <stdexcept>

namespace scanlab::trace::testing {

TraceRecorder::TraceRecorder(LaunchInfo launch) {
    trace_.launch = std::move(launch);
}

std::uint32_t TraceRecorder::add_source(std::string path, std::string_view text) {
    std::vector<std::string> lines;
    while (!text.empty()) {
        const std::size_t end = text.find('\n');
        lines.emplace_back(text.substr(0, end));
        text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
    }
    source_lines_.push_back(std::move(lines));
    trace_.sources.push_back({std::move(path), {}});
    return static_cast<std::uint32_t>(trace_.sources.size() - 1);
}

SourceLocation TraceRecorder::at(std::uint32_t file, std::uint32_t line) {
    const std::vector<std::string>& text = source_lines_.at(file);
    if (line == 0 || line > text.size()) throw std::out_of_range("no such source line");
    std::vector<SourceLine>& lines = trace_.sources[file].lines;
    const auto it = std::lower_bound(
        lines.begin(), lines.end(), line,
        [](const SourceLine& l, std::uint32_t number) { return l.number < number; });
    if (it == lines.end() || it->number != line) lines.insert(it, {line, text[line - 1]});
    return {file, line};
}

std::uint32_t TraceRecorder::add_shared(std::string name, std::uint32_t block, std::uint64_t base,
                                        std::uint64_t size, std::string element_type,
                                        std::uint32_t element_size) {
    trace_.memory.push_back({std::move(name), MemorySpace::shared, block, base, size,
                             std::move(element_type), element_size});
    return static_cast<std::uint32_t>(trace_.memory.size() - 1);
}

std::uint32_t TraceRecorder::add_global(std::string name, std::uint64_t size,
                                        std::string element_type, std::uint32_t element_size) {
    trace_.memory.push_back(
        {std::move(name), MemorySpace::global, 0, 0, size, std::move(element_type), element_size});
    return static_cast<std::uint32_t>(trace_.memory.size() - 1);
}

std::uint32_t TraceRecorder::current_step(std::uint32_t block) {
    const auto it = open_step_.find(block);
    if (it != open_step_.end()) return it->second;
    trace_.steps.push_back({block, std::nullopt});
    const auto step = static_cast<std::uint32_t>(trace_.steps.size() - 1);
    open_step_[block] = step;
    return step;
}

std::uint64_t TraceRecorder::access(std::uint32_t block, std::uint32_t warp, SourceLocation where,
                                    AccessKind kind, std::uint32_t memory, std::uint32_t width,
                                    ValueType type, const std::vector<Lane>& lanes) {
    WarpInstruction instruction;
    instruction.time = tick_++;
    instruction.block = block;
    instruction.warp = warp;
    instruction.step = current_step(block);
    instruction.source = where;
    instruction.kind = kind;
    instruction.space = trace_.memory.at(memory).space;
    instruction.memory = memory;
    instruction.width = width;
    instruction.value_type = type;
    const std::uint64_t index = trace_.instructions.size();
    for (const Lane& lane : lanes) {
        LaneAccess access;
        access.lane = lane.lane;
        access.thread = warp * kWarpSize + lane.lane;
        access.offset = lane.offset;
        access.value = lane.value;
        if (kind == AccessKind::atomic) access.old = lane.old;
        if (kind != AccessKind::store) {
            const auto it = last_writer_.find({memory, lane.offset});
            if (it != last_writer_.end()) access.writer = it->second;
        }
        instruction.lanes.push_back(access);
    }
    // Writers are updated after all lanes read: a warp's lanes load before any of them stores.
    if (kind != AccessKind::load) {
        for (const LaneAccess& lane : instruction.lanes)
            for (std::uint32_t b = 0; b < width; ++b)
                last_writer_[{memory, lane.offset + b}] = {index, lane.thread};
    }
    trace_.instructions.push_back(std::move(instruction));
    return index;
}

void TraceRecorder::barrier(std::uint32_t block, SourceLocation where) {
    trace_.steps[current_step(block)].barrier = where;
    open_step_.erase(block);
}

void TraceRecorder::block_start(std::uint32_t block, std::optional<std::uint32_t> slot) {
    trace_.block_events.push_back({tick_++, block, BlockStart{slot}});
}

void TraceRecorder::block_end(std::uint32_t block) {
    trace_.block_events.push_back({tick_++, block, BlockEnd{}});
}

void TraceRecorder::tile_flag(std::uint32_t block, std::uint32_t tile, TileFlag flag,
                              ValueType type, ValueBytes value) {
    trace_.block_events.push_back({tick_++, block, TileFlagChange{tile, flag, type, value}});
}

void TraceRecorder::tile_look(std::uint32_t block, std::uint32_t tile, TileFlag flag,
                              ValueType type, ValueBytes value, std::uint64_t reads) {
    trace_.block_events.push_back({tick_++, block, TileLook{tile, flag, type, value, reads}});
}

Trace TraceRecorder::finish(std::optional<Truncation> truncated) {
    trace_.truncated = std::move(truncated);
    return std::move(trace_);
}

} // namespace scanlab::trace::testing
