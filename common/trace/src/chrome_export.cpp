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
    out.key("ph").string(phase);
    out.key("pid").number(std::uint32_t{0});
    out.key("tid").number(track);
}

// An instant event of a tile's flag change or look, on its block's track, with the tile's
// fields as arguments; the arguments' object stays open for what one kind adds.
template <class TileEvent>
void begin_tile_event(JsonWriter& out, std::uint32_t track, const BlockEvent& event,
                      std::string_view name, std::string_view category, const TileEvent& tile) {
    begin_event(out, "i", track);
    out.key("ts").exact(event.time);
    out.key("s").string("t");
    out.key("name").string(name);
    out.key("cat").string(category);
    out.key("args").begin_object();
    out.key("block").number(event.block);
    out.key("tile").number(tile.tile);
    out.key("flag").string(to_string(tile.flag));
    if (tile.value_type != ValueType::none)
        detail::write_value(out.key("value"), tile.value_type, value_type_size(tile.value_type),
                            tile.value);
}

void metadata(JsonWriter& out, std::uint32_t track, std::string_view name, std::string_view key,
              auto value) {
    begin_event(out, "M", track);
    out.key("name").string(name);
    out.key("args").begin_object();
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
    out.key("displayTimeUnit").string("ns");
    out.key("otherData").begin_object();
    out.key("source").string(cat(kFormatName, " version ", kFormatVersion));
    out.key("kernel").string(trace.launch.kernel);
    out.key("time_unit").string("1 microsecond shown = 1 emulator scheduler tick");
    out.end_object();
    out.key("traceEvents").begin_array(Layout::lines);

    const auto block_span = [&](std::uint32_t block, std::uint64_t end) {
        const auto [start, track] = running.at(block);
        begin_event(out, "X", track);
        out.key("ts").exact(start);
        out.key("dur").exact(end - start);
        out.key("name").string(cat("block ", block));
        out.key("cat").string("block");
        out.key("args").begin_object();
        out.key("block").number(block);
        out.key("recorded_instructions")
            .exact(instructions_per_block.count(block) ? instructions_per_block[block] : 0);
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
            begin_tile_event(out, running.at(event.block).second, event,
                             cat("look at tile ", look->tile, ": ", to_string(look->flag)),
                             "tile_look", *look);
            out.key("reads").exact(look->reads);
            out.end_object();
            out.end_object();
        } else {
            const auto& change = std::get<TileFlagChange>(event.what);
            begin_tile_event(out, running.at(event.block).second, event,
                             cat("tile ", change.tile, ": ", to_string(change.flag)), "tile_flag",
                             change);
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
