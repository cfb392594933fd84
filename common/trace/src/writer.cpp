#include "scanlab/trace/writer.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <system_error>

#include "json_writer.h"
#include "scanlab/trace/analysis.h"
#include "scanlab/trace/error.h"
#include "scanlab/trace/names.h"
#include "scanlab/trace/validate.h"
#include "text.h"
#include "value_json.h"

namespace scanlab::trace {
namespace {

using detail::JsonWriter;
using detail::Layout;

template <class E>
void write_enum(JsonWriter& out, E value) {
    out.string(to_string(value));
}

void write_dim3(JsonWriter& out, const Dim3& dim) {
    out.begin_array();
    out.number(dim.x);
    out.number(dim.y);
    out.number(dim.z);
    out.end_array();
}

void write_location(JsonWriter& out, const SourceLocation& where) {
    out.begin_object();
    out.key("file").number(where.file);
    out.key("line").number(where.line);
    out.end_object();
}

void write_optional_location(JsonWriter& out, const std::optional<SourceLocation>& where) {
    if (!where) return out.null();
    write_location(out, *where);
}

void write_value_type(JsonWriter& out, ValueType type) {
    if (type == ValueType::none) return out.null();
    write_enum(out, type);
}

void write_totals(JsonWriter& out, const SharedTotals& totals) {
    out.begin_object();
    for (const AccessKind kind : {AccessKind::load, AccessKind::store, AccessKind::atomic}) {
        const ConflictTotals& t = totals.of(kind);
        out.key(to_string(kind)).begin_object();
        out.key("instructions").exact(t.instructions);
        out.key("wavefronts").exact(t.wavefronts);
        out.key("ideal").exact(t.ideal_wavefronts);
        out.key("conflicts").exact(t.conflicts);
        out.end_object();
    }
    out.end_object();
}

void write_launch(JsonWriter& out, const LaunchInfo& launch) {
    out.begin_object();
    out.key("kernel").string(launch.kernel);
    write_dim3(out.key("grid"), launch.grid);
    write_dim3(out.key("block"), launch.block);
    out.key("dynamic_shared_bytes").exact(launch.dynamic_shared_bytes);
    write_enum(out.key("mode"), launch.mode);
    write_enum(out.key("dispatch"), launch.dispatch);
    out.key("seed").exact(launch.seed);
    out.end_object();
}

void write_truncation(JsonWriter& out, const std::optional<Truncation>& truncation) {
    if (!truncation) return out.null();
    out.begin_object();
    write_enum(out.key("limit"), truncation->limit);
    out.key("value").exact(truncation->value);
    out.key("message").string(truncation->message);
    out.end_object();
}

// An array of objects, one a line: `write_members(item, index)` writes each object's members.
template <class Item, class WriteMembers>
void write_objects(JsonWriter& out, const std::vector<Item>& items, WriteMembers write_members,
                   Layout object_layout = Layout::inline_) {
    out.begin_array(Layout::lines);
    for (std::size_t i = 0; i < items.size(); ++i) {
        out.begin_object(object_layout);
        write_members(items[i], i);
        out.end_object();
    }
    out.end_array();
}

void write_sources(JsonWriter& out, const std::vector<SourceFile>& sources) {
    write_objects(out, sources, [&](const SourceFile& file, std::size_t) {
        out.key("path").string(file.path);
        write_objects(out.key("lines"), file.lines, [&](const SourceLine& line, std::size_t) {
            out.key("line").number(line.number);
            out.key("text").string(line.text);
        });
    });
}

void write_memory(JsonWriter& out, const std::vector<MemoryObject>& memory) {
    write_objects(out, memory, [&](const MemoryObject& object, std::size_t id) {
        out.key("id").number(std::uint64_t{id});
        out.key("name").string(object.name);
        write_enum(out.key("space"), object.space);
        if (object.space == MemorySpace::shared) {
            out.key("block").number(object.block);
            out.key("base").exact(object.base);
        }
        out.key("size").exact(object.size);
        out.key("element_type").string(object.element_type);
        out.key("element_size").number(object.element_size);
    });
}

void write_steps(JsonWriter& out, const Trace& trace, const TraceAnalysis& analysis) {
    write_objects(out, trace.steps, [&](const Step& step, std::size_t i) {
        out.key("index").number(std::uint64_t{i});
        out.key("block").number(step.block);
        write_optional_location(out.key("barrier"), step.barrier);
        write_totals(out.key("shared_totals"), analysis.steps[i]);
    });
}

void write_bank_conflicts(JsonWriter& out, const BankConflicts& conflicts) {
    out.begin_object();
    out.key("wavefronts").number(conflicts.wavefronts);
    out.key("ideal").number(conflicts.ideal_wavefronts);
    out.key("conflicts").number(conflicts.conflicts);
    out.key("phases").begin_array();
    for (std::uint32_t p = 0; p < conflicts.phase_count; ++p) {
        const BankPhase& phase = conflicts.phases[p];
        out.begin_object();
        out.key("lane_mask").number(phase.lane_mask);
        out.key("wavefronts").number(phase.wavefronts);
        out.key("words_per_bank").begin_array();
        for (const std::uint8_t words : phase.words_per_bank) out.number(std::uint32_t{words});
        out.end_array();
        out.end_object();
    }
    out.end_array();
    out.end_object();
}

void write_lane(JsonWriter& out, const WarpInstruction& instruction, const LaneAccess& lane,
                const std::optional<BankConflicts>& conflicts) {
    out.begin_object();
    out.key("lane").number(lane.lane);
    out.key("thread").number(lane.thread);
    out.key("offset").exact(lane.offset);
    if (conflicts) {
        out.key("bank").number(std::uint32_t{conflicts->lane_bank[lane.lane]});
    }
    if (instruction.value_type != ValueType::none) {
        detail::write_value(out.key("value"), instruction.value_type, instruction.width,
                            lane.value);
        if (instruction.kind == AccessKind::atomic) {
            detail::write_value(out.key("old"), instruction.value_type, instruction.width,
                                lane.old);
        }
    }
    if (lane.writer) {
        out.key("writer").begin_object();
        out.key("instruction").exact(lane.writer->instruction);
        out.key("thread").number(lane.writer->thread);
        out.end_object();
    }
    out.end_object();
}

void write_instructions(JsonWriter& out, const Trace& trace, const TraceAnalysis& analysis) {
    write_objects(out, trace.instructions, [&](const WarpInstruction& instruction, std::size_t i) {
        const std::optional<BankConflicts>& conflicts = analysis.instructions[i];
        out.key("index").number(std::uint64_t{i});
        out.key("time").exact(instruction.time);
        out.key("block").number(instruction.block);
        out.key("warp").number(instruction.warp);
        out.key("step").number(instruction.step);
        write_location(out.key("source"), instruction.source);
        write_enum(out.key("kind"), instruction.kind);
        write_enum(out.key("space"), instruction.space);
        out.key("memory").number(instruction.memory);
        out.key("width").number(instruction.width);
        write_value_type(out.key("value_type"), instruction.value_type);
        out.key("lanes").begin_array();
        for (const LaneAccess& lane : instruction.lanes)
            write_lane(out, instruction, lane, conflicts);
        out.end_array();
        if (conflicts) write_bank_conflicts(out.key("bank_conflicts"), *conflicts);
    });
}

// The fields a flag change and a look share: the tile, its status and the value beside it.
template <class TileEvent>
void write_tile_fields(JsonWriter& out, const TileEvent& event) {
    out.key("tile").number(event.tile);
    write_enum(out.key("flag"), event.flag);
    write_value_type(out.key("value_type"), event.value_type);
    if (event.value_type != ValueType::none)
        detail::write_value(out.key("value"), event.value_type, value_type_size(event.value_type),
                            event.value);
}

void write_block_events(JsonWriter& out, const std::vector<BlockEvent>& events) {
    write_objects(out, events, [&](const BlockEvent& event, std::size_t) {
        out.key("time").exact(event.time);
        out.key("block").number(event.block);
        out.key("event");
        if (const auto* start = std::get_if<BlockStart>(&event.what)) {
            out.string("start");
            if (start->slot) out.key("slot").number(*start->slot);
        } else if (std::holds_alternative<BlockEnd>(event.what)) {
            out.string("end");
        } else if (const auto* look = std::get_if<TileLook>(&event.what)) {
            out.string("look");
            write_tile_fields(out, *look);
            out.key("reads").exact(look->reads);
        } else {
            out.string("flag");
            write_tile_fields(out, std::get<TileFlagChange>(event.what));
        }
    });
}

void write_finding_access(JsonWriter& out, const FindingAccess& access) {
    out.begin_object();
    out.key("block").number(access.block);
    out.key("thread").number(access.thread);
    write_enum(out.key("role"), access.role);
    out.key("memory");
    if (access.memory) {
        out.number(*access.memory);
        out.key("offset").exact(access.offset);
    } else {
        out.null();
    }
    out.key("bytes").number(access.bytes);
    write_optional_location(out.key("source"), access.source);
    out.key("instruction");
    if (access.recorded) {
        out.exact(access.recorded->instruction);
        out.key("lane").number(access.recorded->lane);
    } else {
        out.null();
    }
    out.key("step");
    if (access.step)
        out.number(*access.step);
    else
        out.null();
    out.end_object();
}

void write_findings(JsonWriter& out, const std::vector<Finding>& findings) {
    write_objects(
        out, findings,
        [&](const Finding& finding, std::size_t) {
            write_enum(out.key("kind"), finding.kind);
            out.key("ends_launch").boolean(finding.ends_launch);
            out.key("message").string(finding.message);
            write_optional_location(out.key("source"), finding.source);
            out.key("accesses").begin_array(Layout::lines);
            for (const FindingAccess& access : finding.accesses) write_finding_access(out, access);
            out.end_array();
        },
        Layout::lines);
}

void write_shuffles(JsonWriter& out, const std::vector<WarpShuffle>& shuffles) {
    write_objects(out, shuffles, [&](const WarpShuffle& shuffle, std::size_t) {
        out.key("time").exact(shuffle.time);
        out.key("block").number(shuffle.block);
        out.key("warp").number(shuffle.warp);
        out.key("step").number(shuffle.step);
        write_location(out.key("source"), shuffle.source);
        write_enum(out.key("kind"), shuffle.kind);
        out.key("width").number(shuffle.width);
        write_value_type(out.key("value_type"), shuffle.value_type);
        out.key("lanes").begin_array();
        for (const ShuffleLane& lane : shuffle.lanes) {
            out.begin_object();
            out.key("lane").number(lane.lane);
            out.key("source").number(lane.source);
            if (shuffle.value_type != ValueType::none)
                detail::write_value(out.key("value"), shuffle.value_type, shuffle.width,
                                    lane.value);
            out.end_object();
        }
        out.end_array();
    });
}

void write_memory_place(JsonWriter& out, const MemoryPlace& place) {
    out.begin_object();
    out.key("memory").number(place.memory);
    out.key("offset").exact(place.offset);
    out.end_object();
}

void write_mbarriers(JsonWriter& out, const std::vector<MbarrierEvent>& events) {
    write_objects(out, events, [&](const MbarrierEvent& event, std::size_t) {
        out.key("time").exact(event.time);
        out.key("block").number(event.block);
        out.key("thread").number(event.thread);
        write_enum(out.key("event"), event.op);
        write_memory_place(out.key("barrier"), event.barrier);
        write_optional_location(out.key("source"), event.source);
        out.key("count").number(event.count);
        out.key("bytes").number(event.bytes);
        out.key("parity").number(event.parity);
        out.key("phase").exact(event.phase);
        if (event.destination)
            write_memory_place(out.key("destination"), *event.destination);
        else
            out.key("destination").null();
    });
}

void write_expected(JsonWriter& out, const Expected& expected) {
    const std::uint32_t size = value_type_size(expected.value_type);
    out.begin_object(Layout::lines);
    out.key("reference").string(expected.reference);
    write_value_type(out.key("value_type"), expected.value_type);
    out.key("objects").begin_array(Layout::lines);
    for (const ExpectedObject& object : expected.objects) {
        out.begin_object();
        out.key("memory").number(object.memory);
        out.key("first").exact(object.first);
        out.key("values").begin_array();
        for (const ValueBytes& value : object.values)
            detail::write_value(out, expected.value_type, size, value);
        out.end_array();
        out.end_object();
    }
    out.end_array();
    out.key("tiles").begin_array(Layout::lines);
    for (const ExpectedTile& tile : expected.tiles) {
        out.begin_object();
        out.key("tile").number(tile.tile);
        detail::write_value(out.key("prefix"), expected.value_type, size, tile.prefix);
        detail::write_value(out.key("inclusive"), expected.value_type, size, tile.inclusive);
        out.end_object();
    }
    out.end_array();
    out.end_object();
}

} // namespace

void write_trace(const Trace& trace, std::ostream& out, const Limits& limits) {
    validate_trace(trace, limits);
    const TraceAnalysis analysis = analyze_trace(trace);
    JsonWriter json(out);
    json.begin_object(Layout::lines);
    json.key("format").string(kFormatName);
    json.key("version").number(kFormatVersion);
    write_launch(json.key("launch"), trace.launch);
    write_truncation(json.key("truncated"), trace.truncated);
    write_sources(json.key("sources"), trace.sources);
    write_memory(json.key("memory"), trace.memory);
    write_steps(json.key("steps"), trace, analysis);
    write_instructions(json.key("instructions"), trace, analysis);
    write_block_events(json.key("block_events"), trace.block_events);
    write_findings(json.key("findings"), trace.findings);
    // Version 3's sections are written when there is something in them.
    if (!trace.shuffles.empty()) write_shuffles(json.key("shuffles"), trace.shuffles);
    if (trace.expected) write_expected(json.key("expected"), *trace.expected);
    // So is version 4's.
    if (!trace.mbarriers.empty()) write_mbarriers(json.key("mbarriers"), trace.mbarriers);
    write_totals(json.key("shared_totals"), analysis.launch);
    json.end_object();
    json.finish();
}

void write_trace_file(const Trace& trace, const std::filesystem::path& path, const Limits& limits) {
    std::error_code status;
    if (std::filesystem::is_directory(path, status))
        throw TraceError(
            "", detail::cat("cannot write trace file '", path.string(), "': it is a directory"));
    std::filesystem::path temporary = path;
    temporary += ".partial";
    {
        std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
        if (!out) {
            // A missing folder said as such, else the system's reason.
            std::error_code ignored;
            const std::string why =
                !path.parent_path().empty() &&
                        !std::filesystem::is_directory(path.parent_path(), ignored)
                    ? "the folder '" + path.parent_path().string() + "' does not exist"
                    : std::string(std::strerror(errno));
            throw TraceError("",
                             detail::cat("cannot write trace file '", path.string(), "': ", why));
        }
        try {
            write_trace(trace, out, limits);
        } catch (...) {
            out.close();
            std::error_code ignored;
            std::filesystem::remove(temporary, ignored);
            throw;
        }
    }
    std::error_code error;
    std::filesystem::rename(temporary, path, error);
    if (error)
        throw TraceError("", detail::cat("cannot move '", temporary.string(), "' to '",
                                         path.string(), "': ", error.message()));
}

} // namespace scanlab::trace
