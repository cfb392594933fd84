#include "scanlab/trace/writer.h"

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
    out.key("file");
    out.number(where.file);
    out.key("line");
    out.number(where.line);
    out.end_object();
}

void write_value_type(JsonWriter& out, ValueType type) {
    if (type == ValueType::none) return out.null();
    write_enum(out, type);
}

void write_totals(JsonWriter& out, const SharedTotals& totals) {
    out.begin_object();
    for (const AccessKind kind : {AccessKind::load, AccessKind::store, AccessKind::atomic}) {
        const ConflictTotals& t = totals.of(kind);
        out.key(to_string(kind));
        out.begin_object();
        out.key("instructions");
        out.exact(t.instructions);
        out.key("wavefronts");
        out.exact(t.wavefronts);
        out.key("ideal");
        out.exact(t.ideal_wavefronts);
        out.key("conflicts");
        out.exact(t.conflicts);
        out.end_object();
    }
    out.end_object();
}

void write_launch(JsonWriter& out, const LaunchInfo& launch) {
    out.begin_object();
    out.key("kernel");
    out.string(launch.kernel);
    out.key("grid");
    write_dim3(out, launch.grid);
    out.key("block");
    write_dim3(out, launch.block);
    out.key("dynamic_shared_bytes");
    out.exact(launch.dynamic_shared_bytes);
    out.key("mode");
    write_enum(out, launch.mode);
    out.key("dispatch");
    write_enum(out, launch.dispatch);
    out.key("seed");
    out.exact(launch.seed);
    out.end_object();
}

void write_truncation(JsonWriter& out, const std::optional<Truncation>& truncation) {
    if (!truncation) return out.null();
    out.begin_object();
    out.key("limit");
    write_enum(out, truncation->limit);
    out.key("value");
    out.exact(truncation->value);
    out.key("message");
    out.string(truncation->message);
    out.end_object();
}

void write_sources(JsonWriter& out, const std::vector<SourceFile>& sources) {
    out.begin_array(Layout::lines);
    for (const SourceFile& file : sources) {
        out.begin_object();
        out.key("path");
        out.string(file.path);
        out.key("lines");
        out.begin_array(Layout::lines);
        for (const SourceLine& line : file.lines) {
            out.begin_object();
            out.key("line");
            out.number(line.number);
            out.key("text");
            out.string(line.text);
            out.end_object();
        }
        out.end_array();
        out.end_object();
    }
    out.end_array();
}

void write_memory(JsonWriter& out, const std::vector<MemoryObject>& memory) {
    out.begin_array(Layout::lines);
    for (std::size_t id = 0; id < memory.size(); ++id) {
        const MemoryObject& object = memory[id];
        out.begin_object();
        out.key("id");
        out.number(std::uint64_t{id});
        out.key("name");
        out.string(object.name);
        out.key("space");
        write_enum(out, object.space);
        if (object.space == MemorySpace::shared) {
            out.key("block");
            out.number(object.block);
            out.key("base");
            out.exact(object.base);
        }
        out.key("size");
        out.exact(object.size);
        out.key("element_type");
        out.string(object.element_type);
        out.key("element_size");
        out.number(object.element_size);
        out.end_object();
    }
    out.end_array();
}

void write_steps(JsonWriter& out, const Trace& trace, const TraceAnalysis& analysis) {
    out.begin_array(Layout::lines);
    for (std::size_t i = 0; i < trace.steps.size(); ++i) {
        const Step& step = trace.steps[i];
        out.begin_object();
        out.key("index");
        out.number(std::uint64_t{i});
        out.key("block");
        out.number(step.block);
        out.key("barrier");
        if (step.barrier)
            write_location(out, *step.barrier);
        else
            out.null();
        out.key("shared_totals");
        write_totals(out, analysis.steps[i]);
        out.end_object();
    }
    out.end_array();
}

void write_bank_conflicts(JsonWriter& out, const BankConflicts& conflicts) {
    out.begin_object();
    out.key("wavefronts");
    out.number(conflicts.wavefronts);
    out.key("ideal");
    out.number(conflicts.ideal_wavefronts);
    out.key("conflicts");
    out.number(conflicts.conflicts);
    out.key("phases");
    out.begin_array();
    for (std::uint32_t p = 0; p < conflicts.phase_count; ++p) {
        const BankPhase& phase = conflicts.phases[p];
        out.begin_object();
        out.key("lane_mask");
        out.number(phase.lane_mask);
        out.key("wavefronts");
        out.number(phase.wavefronts);
        out.key("words_per_bank");
        out.begin_array();
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
    out.key("lane");
    out.number(lane.lane);
    out.key("thread");
    out.number(lane.thread);
    out.key("offset");
    out.exact(lane.offset);
    if (conflicts) {
        out.key("bank");
        out.number(std::uint32_t{conflicts->lane_bank[lane.lane]});
    }
    if (instruction.value_type != ValueType::none) {
        out.key("value");
        detail::write_value(out, instruction.value_type, instruction.width, lane.value);
        if (instruction.kind == AccessKind::atomic) {
            out.key("old");
            detail::write_value(out, instruction.value_type, instruction.width, lane.old);
        }
    }
    if (lane.writer) {
        out.key("writer");
        out.begin_object();
        out.key("instruction");
        out.exact(lane.writer->instruction);
        out.key("thread");
        out.number(lane.writer->thread);
        out.end_object();
    }
    out.end_object();
}

void write_instructions(JsonWriter& out, const Trace& trace, const TraceAnalysis& analysis) {
    out.begin_array(Layout::lines);
    for (std::size_t i = 0; i < trace.instructions.size(); ++i) {
        const WarpInstruction& instruction = trace.instructions[i];
        const std::optional<BankConflicts>& conflicts = analysis.instructions[i];
        out.begin_object();
        out.key("index");
        out.number(std::uint64_t{i});
        out.key("time");
        out.exact(instruction.time);
        out.key("block");
        out.number(instruction.block);
        out.key("warp");
        out.number(instruction.warp);
        out.key("step");
        out.number(instruction.step);
        out.key("source");
        write_location(out, instruction.source);
        out.key("kind");
        write_enum(out, instruction.kind);
        out.key("space");
        write_enum(out, instruction.space);
        out.key("memory");
        out.number(instruction.memory);
        out.key("width");
        out.number(instruction.width);
        out.key("value_type");
        write_value_type(out, instruction.value_type);
        out.key("lanes");
        out.begin_array();
        for (const LaneAccess& lane : instruction.lanes)
            write_lane(out, instruction, lane, conflicts);
        out.end_array();
        if (conflicts) {
            out.key("bank_conflicts");
            write_bank_conflicts(out, *conflicts);
        }
        out.end_object();
    }
    out.end_array();
}

// The rest of a look event, after its "event" key.
void write_tile_look(JsonWriter& out, const TileLook& look) {
    out.string("look");
    out.key("tile");
    out.number(look.tile);
    out.key("flag");
    write_enum(out, look.flag);
    out.key("value_type");
    write_value_type(out, look.value_type);
    if (look.value_type != ValueType::none) {
        out.key("value");
        detail::write_value(out, look.value_type, value_type_size(look.value_type), look.value);
    }
    out.key("reads");
    out.exact(look.reads);
}

void write_block_events(JsonWriter& out, const std::vector<BlockEvent>& events) {
    out.begin_array(Layout::lines);
    for (const BlockEvent& event : events) {
        out.begin_object();
        out.key("time");
        out.exact(event.time);
        out.key("block");
        out.number(event.block);
        out.key("event");
        if (const auto* start = std::get_if<BlockStart>(&event.what)) {
            out.string("start");
            if (start->slot) {
                out.key("slot");
                out.number(*start->slot);
            }
        } else if (std::holds_alternative<BlockEnd>(event.what)) {
            out.string("end");
        } else if (const auto* look = std::get_if<TileLook>(&event.what)) {
            write_tile_look(out, *look);
        } else {
            const auto& change = std::get<TileFlagChange>(event.what);
            out.string("flag");
            out.key("tile");
            out.number(change.tile);
            out.key("flag");
            write_enum(out, change.flag);
            out.key("value_type");
            write_value_type(out, change.value_type);
            if (change.value_type != ValueType::none) {
                out.key("value");
                detail::write_value(out, change.value_type, value_type_size(change.value_type),
                                    change.value);
            }
        }
        out.end_object();
    }
    out.end_array();
}

void write_optional_location(JsonWriter& out, const std::optional<SourceLocation>& where) {
    if (!where) return out.null();
    write_location(out, *where);
}

void write_finding_access(JsonWriter& out, const FindingAccess& access) {
    out.begin_object();
    out.key("block");
    out.number(access.block);
    out.key("thread");
    out.number(access.thread);
    out.key("role");
    write_enum(out, access.role);
    out.key("memory");
    if (access.memory) {
        out.number(*access.memory);
        out.key("offset");
        out.exact(access.offset);
    } else {
        out.null();
    }
    out.key("bytes");
    out.number(access.bytes);
    out.key("source");
    write_optional_location(out, access.source);
    out.key("instruction");
    if (access.recorded) {
        out.exact(access.recorded->instruction);
        out.key("lane");
        out.number(access.recorded->lane);
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
    out.begin_array(Layout::lines);
    for (const Finding& finding : findings) {
        out.begin_object(Layout::lines);
        out.key("kind");
        write_enum(out, finding.kind);
        out.key("ends_launch");
        out.boolean(finding.ends_launch);
        out.key("message");
        out.string(finding.message);
        out.key("source");
        write_optional_location(out, finding.source);
        out.key("accesses");
        out.begin_array(Layout::lines);
        for (const FindingAccess& access : finding.accesses) write_finding_access(out, access);
        out.end_array();
        out.end_object();
    }
    out.end_array();
}

} // namespace

void write_trace(const Trace& trace, std::ostream& out, const Limits& limits) {
    validate_trace(trace, limits);
    const TraceAnalysis analysis = analyze_trace(trace);
    JsonWriter json(out);
    json.begin_object(Layout::lines);
    json.key("format");
    json.string(kFormatName);
    json.key("version");
    json.number(kFormatVersion);
    json.key("launch");
    write_launch(json, trace.launch);
    json.key("truncated");
    write_truncation(json, trace.truncated);
    json.key("sources");
    write_sources(json, trace.sources);
    json.key("memory");
    write_memory(json, trace.memory);
    json.key("steps");
    write_steps(json, trace, analysis);
    json.key("instructions");
    write_instructions(json, trace, analysis);
    json.key("block_events");
    write_block_events(json, trace.block_events);
    json.key("findings");
    write_findings(json, trace.findings);
    json.key("shared_totals");
    write_totals(json, analysis.launch);
    json.end_object();
    json.finish();
}

void write_trace_file(const Trace& trace, const std::filesystem::path& path, const Limits& limits) {
    std::filesystem::path temporary = path;
    temporary += ".partial";
    {
        std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
        if (!out)
            throw TraceError("",
                             detail::cat("cannot write trace file '", temporary.string(), '\''));
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
