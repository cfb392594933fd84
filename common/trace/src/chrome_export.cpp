#include "scanlab/trace/chrome_export.h"

#include <algorithm>
#include <map>
#include <set>
#include <type_traits>

#include "json_writer.h"
#include "scanlab/trace/names.h"
#include "scanlab/trace/validate.h"
#include "text.h"
#include "value_json.h"

namespace scanlab::trace {
namespace {

using detail::cat;
using detail::JsonWriter;
using detail::Layout;

std::string dim3_text(const Dim3& dim) {
    return cat('(', dim.x, ',', dim.y, ',', dim.z, ')');
}

// Common fields of every event on a track.
void begin_event(JsonWriter& out, std::string_view phase, std::uint32_t track) {
    out.begin_object();
    out.key("ph");
    out.string(phase);
    out.key("pid");
    out.number(std::uint32_t{0});
    out.key("tid");
    out.number(track);
}

void metadata(JsonWriter& out, std::uint32_t track, std::string_view name, std::string_view key,
              auto value) {
    begin_event(out, "M", track);
    out.key("name");
    out.string(name);
    out.key("args");
    out.begin_object();
    out.key(key);
    if constexpr (std::is_same_v<decltype(value), std::uint32_t>)
        out.number(value);
    else
        out.string(value);
    out.end_object();
    out.end_object();
}

} // namespace

void export_chrome_trace(const Trace& trace, std::ostream& os, const Limits& limits) {
    validate_trace(trace, limits);

    // One track per resident slot shows occupancy; without slots, one per block.
    const bool by_slot =
        std::any_of(
            trace.block_events.begin(), trace.block_events.end(),
            [](const BlockEvent& e) { return std::holds_alternative<BlockStart>(e.what); }) &&
        std::all_of(trace.block_events.begin(), trace.block_events.end(), [](const BlockEvent& e) {
            const auto* start = std::get_if<BlockStart>(&e.what);
            return !start || start->slot.has_value();
        });
    std::map<std::uint32_t, std::pair<std::uint64_t, std::uint32_t>>
        running; // block -> start, track
    std::set<std::uint32_t> tracks;
    std::map<std::uint32_t, std::uint64_t> instructions_per_block;
    for (const WarpInstruction& instruction : trace.instructions)
        ++instructions_per_block[instruction.block];
    std::uint64_t end_of_trace = 0;
    if (!trace.block_events.empty()) end_of_trace = trace.block_events.back().time;
    if (!trace.instructions.empty())
        end_of_trace = std::max(end_of_trace, trace.instructions.back().time);

    JsonWriter out(os);
    out.begin_object(Layout::lines);
    out.key("displayTimeUnit");
    out.string("ns");
    out.key("otherData");
    out.begin_object();
    out.key("source");
    out.string(cat(kFormatName, " version ", kFormatVersion));
    out.key("kernel");
    out.string(trace.launch.kernel);
    out.key("time_unit");
    out.string("1 microsecond shown = 1 emulator scheduler tick");
    out.end_object();
    out.key("traceEvents");
    out.begin_array(Layout::lines);

    const auto block_span = [&](std::uint32_t block, std::uint64_t end) {
        const auto [start, track] = running.at(block);
        begin_event(out, "X", track);
        out.key("ts");
        out.exact(start);
        out.key("dur");
        out.exact(end - start);
        out.key("name");
        out.string(cat("block ", block));
        out.key("cat");
        out.string("block");
        out.key("args");
        out.begin_object();
        out.key("block");
        out.number(block);
        out.key("recorded_instructions");
        out.exact(instructions_per_block.count(block) ? instructions_per_block[block] : 0);
        out.end_object();
        out.end_object();
        running.erase(block);
    };

    for (const BlockEvent& event : trace.block_events) {
        if (const auto* start = std::get_if<BlockStart>(&event.what)) {
            const std::uint32_t track = by_slot ? *start->slot : event.block;
            running[event.block] = {event.time, track};
            tracks.insert(track);
        } else if (std::holds_alternative<BlockEnd>(event.what)) {
            block_span(event.block, event.time);
        } else if (const auto* look = std::get_if<TileLook>(&event.what)) {
            begin_event(out, "i", running.at(event.block).second);
            out.key("ts");
            out.exact(event.time);
            out.key("s");
            out.string("t");
            out.key("name");
            out.string(cat("look at tile ", look->tile, ": ", to_string(look->flag)));
            out.key("cat");
            out.string("tile_look");
            out.key("args");
            out.begin_object();
            out.key("block");
            out.number(event.block);
            out.key("tile");
            out.number(look->tile);
            out.key("flag");
            out.string(to_string(look->flag));
            if (look->value_type != ValueType::none) {
                out.key("value");
                detail::write_value(out, look->value_type, value_type_size(look->value_type),
                                    look->value);
            }
            out.key("reads");
            out.exact(look->reads);
            out.end_object();
            out.end_object();
        } else {
            const auto& change = std::get<TileFlagChange>(event.what);
            begin_event(out, "i", running.at(event.block).second);
            out.key("ts");
            out.exact(event.time);
            out.key("s");
            out.string("t");
            out.key("name");
            out.string(cat("tile ", change.tile, ": ", to_string(change.flag)));
            out.key("cat");
            out.string("tile_flag");
            out.key("args");
            out.begin_object();
            out.key("block");
            out.number(event.block);
            out.key("tile");
            out.number(change.tile);
            out.key("flag");
            out.string(to_string(change.flag));
            if (change.value_type != ValueType::none) {
                out.key("value");
                detail::write_value(out, change.value_type, value_type_size(change.value_type),
                                    change.value);
            }
            out.end_object();
            out.end_object();
        }
    }
    // Blocks still running when the recording stopped end with it.
    while (!running.empty()) block_span(running.begin()->first, end_of_trace);

    metadata(out, 0, "process_name", "name",
             cat(trace.launch.kernel, " <<<", dim3_text(trace.launch.grid), ", ",
                 dim3_text(trace.launch.block), ">>>"));
    for (const std::uint32_t track : tracks) {
        metadata(out, track, "thread_name", "name", cat(by_slot ? "slot " : "block ", track));
        metadata(out, track, "thread_sort_index", "sort_index", track);
    }
    out.end_array();
    out.end_object();
    out.finish();
}

} // namespace scanlab::trace
