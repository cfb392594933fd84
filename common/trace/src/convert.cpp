#include "convert.h"

#include "field_lists.h"
#include "rules.h"
#include "value_json.h"

namespace scanlab::trace::detail {
namespace {

Dim3 read_dim3(const Json& json, const Path& path) {
    if (!json.is_array() || json.size() != 3)
        fail(path, "expected [x, y, z], got " + describe(json));
    return {read_u32(json[0], path[0]), read_u32(json[1], path[1]), read_u32(json[2], path[2])};
}

void check_position(const Json& json, const Path& path, std::size_t position) {
    const std::uint64_t id = read_u64(json, path);
    if (id != position)
        fail(path, cat(id, " is not the element's position ", position,
                       " (ids are positions in the array)"));
}

SourceLocation read_location(const Json& json, const Path& path) {
    const Fields fields(json, path, kLocationFields);
    return {read_u32(fields.required("file"), path / "file"),
            read_u32(fields.required("line"), path / "line")};
}

ValueType read_value_type(const Json& json, const Path& path) {
    if (json.is_null()) return ValueType::none;
    const auto type = read_enum<ValueType>(json, path);
    if (type == ValueType::none) fail(path, "write null, not \"none\", when values are unknown");
    return type;
}

void refuse(const Fields& fields, const Path& path, std::string_view name, std::string_view why) {
    if (fields.optional(name)) fail(path / name, std::string(why));
}

LaneAccess read_lane(const Json& json, const Path& path, const WarpInstruction& instruction) {
    const Fields fields(json, path, kLaneFields);
    LaneAccess lane;
    lane.lane = read_u32(fields.required("lane"), path / "lane");
    lane.thread = read_u32(fields.required("thread"), path / "thread");
    lane.offset = read_u64(fields.required("offset"), path / "offset");
    const bool atomic = instruction.kind == AccessKind::atomic;
    if (instruction.value_type == ValueType::none) {
        refuse(fields, path, "value", "present, but the instruction's value_type is null");
        refuse(fields, path, "old", "present, but the instruction's value_type is null");
    } else {
        lane.value = read_value(fields.required("value"), instruction.value_type, instruction.width,
                                path / "value");
        if (atomic)
            lane.old = read_value(fields.required("old"), instruction.value_type, instruction.width,
                                  path / "old");
        else
            refuse(fields, path, "old", "only atomics return an old value");
    }
    if (const Json* writer = fields.optional("writer"); writer && !writer->is_null()) {
        if (instruction.kind == AccessKind::store)
            fail(path / "writer", "stores have no writer (only loads and atomics read a value)");
        const Path writer_path = path / "writer";
        const Fields writer_fields(*writer, writer_path, kWriterFields);
        lane.writer =
            WriterRef{read_u64(writer_fields.required("instruction"), writer_path / "instruction"),
                      read_u32(writer_fields.required("thread"), writer_path / "thread")};
    }
    return lane;
}

} // namespace

LaunchInfo read_launch(const Json& json, const Path& path) {
    const Fields fields(json, path, kLaunchFields);
    LaunchInfo launch;
    launch.kernel = read_string(fields.required("kernel"), path / "kernel");
    launch.grid = read_dim3(fields.required("grid"), path / "grid");
    launch.block = read_dim3(fields.required("block"), path / "block");
    launch.dynamic_shared_bytes =
        read_u64(fields.required("dynamic_shared_bytes"), path / "dynamic_shared_bytes");
    launch.mode = read_enum<EmulatorMode>(fields.required("mode"), path / "mode");
    launch.dispatch = read_enum<DispatchOrder>(fields.required("dispatch"), path / "dispatch");
    launch.seed = read_u64(fields.required("seed"), path / "seed");
    return launch;
}

std::optional<Truncation> read_truncation(const Json& json, const Path& path) {
    if (json.is_null()) return std::nullopt;
    const Fields fields(json, path, kTruncationFields);
    Truncation truncation;
    truncation.limit = read_enum<TruncationLimit>(fields.required("limit"), path / "limit");
    truncation.value = read_u64(fields.required("value"), path / "value");
    truncation.message = read_string(fields.required("message"), path / "message");
    return truncation;
}

SourceFile read_source(const Json& json, const Path& path) {
    const Fields fields(json, path, kSourceFields);
    SourceFile source;
    source.path = read_string(fields.required("path"), path / "path");
    const Path lines_path = path / "lines";
    const Json& lines = read_array(fields.required("lines"), lines_path);
    source.lines.reserve(lines.size());
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const Path line_path = lines_path[i];
        const Fields line_fields(lines[i], line_path, kSourceLineFields);
        source.lines.push_back({read_u32(line_fields.required("line"), line_path / "line"),
                                read_string(line_fields.required("text"), line_path / "text")});
    }
    return source;
}

MemoryObject read_memory_object(const Json& json, const Path& path, std::size_t position) {
    const Fields fields(json, path, kMemoryObjectFields);
    check_position(fields.required("id"), path / "id", position);
    MemoryObject object;
    object.name = read_string(fields.required("name"), path / "name");
    object.space = read_enum<MemorySpace>(fields.required("space"), path / "space");
    if (object.space == MemorySpace::shared) {
        object.block = read_u32(fields.required("block"), path / "block");
        object.base = read_u64(fields.required("base"), path / "base");
    } else {
        refuse(fields, path, "block", "only shared objects belong to a block");
        refuse(fields, path, "base", "only shared objects have a base address");
    }
    object.size = read_u64(fields.required("size"), path / "size");
    object.element_type = read_string(fields.required("element_type"), path / "element_type");
    object.element_size = read_u32(fields.required("element_size"), path / "element_size");
    return object;
}

Step read_step(const Json& json, const Path& path, std::size_t position) {
    const Fields fields(json, path, kStepFields);
    check_position(fields.required("index"), path / "index", position);
    Step step;
    step.block = read_u32(fields.required("block"), path / "block");
    if (const Json& barrier = fields.required("barrier"); !barrier.is_null())
        step.barrier = read_location(barrier, path / "barrier");
    return step;
}

namespace {
// The "lanes" array of an instruction or a shuffle: one warp's, so at most kWarpSize entries.
const Json& read_warp_lanes(const Fields& fields, const Path& lanes_path) {
    const Json& lanes = read_array(fields.required("lanes"), lanes_path);
    if (lanes.size() > kWarpSize)
        fail(lanes_path, cat(lanes.size(), " lanes; a warp has at most ", kWarpSize));
    return lanes;
}
} // namespace

WarpInstruction read_instruction(const Json& json, const Path& path, std::size_t position) {
    const Fields fields(json, path, kInstructionFields);
    check_position(fields.required("index"), path / "index", position);
    WarpInstruction instruction;
    instruction.time = read_u64(fields.required("time"), path / "time");
    instruction.block = read_u32(fields.required("block"), path / "block");
    instruction.warp = read_u32(fields.required("warp"), path / "warp");
    instruction.step = read_u32(fields.required("step"), path / "step");
    instruction.source = read_location(fields.required("source"), path / "source");
    instruction.kind = read_enum<AccessKind>(fields.required("kind"), path / "kind");
    instruction.space = read_enum<MemorySpace>(fields.required("space"), path / "space");
    instruction.memory = read_u32(fields.required("memory"), path / "memory");
    instruction.width = read_u32(fields.required("width"), path / "width");
    // Values cannot be decoded without a sound width and type.
    if (auto problem = access_width_problem(instruction.width); !problem.empty())
        fail(path / "width", problem);
    instruction.value_type = read_value_type(fields.required("value_type"), path / "value_type");
    if (auto problem = value_type_problem(instruction.value_type, instruction.width);
        !problem.empty())
        fail(path / "value_type", problem);

    const Path lanes_path = path / "lanes";
    const Json& lanes = read_warp_lanes(fields, lanes_path);
    instruction.lanes.reserve(lanes.size());
    for (std::size_t i = 0; i < lanes.size(); ++i)
        instruction.lanes.push_back(read_lane(lanes[i], lanes_path[i], instruction));
    return instruction;
}

// The fields a flag change and a look share: the tile, its status and the value beside it.
template <class TileEvent>
TileEvent read_tile_fields(const Fields& fields, const Path& path) {
    TileEvent event;
    event.tile = read_u32(fields.required("tile"), path / "tile");
    event.flag = read_enum<TileFlag>(fields.required("flag"), path / "flag");
    event.value_type = read_value_type(fields.required("value_type"), path / "value_type");
    if (event.value_type == ValueType::none)
        refuse(fields, path, "value", "present, but value_type is null");
    else
        event.value = read_value(fields.required("value"), event.value_type,
                                 value_type_size(event.value_type), path / "value");
    return event;
}

// A look event (version 2): the descriptor of `tile` read by the event's block.
TileLook read_tile_look(const Fields& fields, const Path& path) {
    TileLook look = read_tile_fields<TileLook>(fields, path);
    look.reads = read_u64(fields.required("reads"), path / "reads");
    if (look.reads == 0) fail(path / "reads", "0; a look event stands for at least one read");
    return look;
}

BlockEvent read_block_event(const Json& json, const Path& path) {
    const Fields fields(json, path, kBlockEventFields);
    BlockEvent event;
    event.time = read_u64(fields.required("time"), path / "time");
    event.block = read_u32(fields.required("block"), path / "block");
    const std::string kind = read_string(fields.required("event"), path / "event");
    if (kind != "flag" && kind != "look") {
        for (const auto name : {"tile", "flag", "value_type", "value"})
            refuse(fields, path, name, "only flag and look events have this field");
    }
    if (kind != "look") refuse(fields, path, "reads", "only look events have this field");
    if (kind == "start") {
        BlockStart start;
        if (const Json* slot = fields.optional("slot"); slot && !slot->is_null())
            start.slot = read_u32(*slot, path / "slot");
        event.what = start;
    } else if (kind == "end") {
        refuse(fields, path, "slot", "only start events have a slot");
        event.what = BlockEnd{};
    } else if (kind == "flag") {
        refuse(fields, path, "slot", "only start events have a slot");
        event.what = read_tile_fields<TileFlagChange>(fields, path);
    } else if (kind == "look") {
        refuse(fields, path, "slot", "only start events have a slot");
        event.what = read_tile_look(fields, path);
    } else {
        fail(path / "event", cat("the string \"", clipped(kind),
                                 "\" is not one of \"start\", \"end\", \"flag\", \"look\""));
    }
    return event;
}

namespace {

// null or a value; `read` converts a value.
template <class Read>
auto read_nullable(const Json& json, Read read) -> std::optional<decltype(read(json))> {
    if (json.is_null()) return std::nullopt;
    return read(json);
}

FindingAccess read_finding_access(const Json& json, const Path& path) {
    const Fields fields(json, path, kFindingAccessFields);
    FindingAccess access;
    access.block = read_u32(fields.required("block"), path / "block");
    access.thread = read_u32(fields.required("thread"), path / "thread");
    access.role = read_enum<FindingRole>(fields.required("role"), path / "role");
    access.memory = read_nullable(fields.required("memory"),
                                  [&](const Json& j) { return read_u32(j, path / "memory"); });
    if (access.memory)
        access.offset = read_u64(fields.required("offset"), path / "offset");
    else
        refuse(fields, path, "offset", "present, but memory is null");
    access.bytes = read_u32(fields.required("bytes"), path / "bytes");
    access.source = read_nullable(fields.required("source"),
                                  [&](const Json& j) { return read_location(j, path / "source"); });
    const Json& instruction = fields.required("instruction");
    if (instruction.is_null()) {
        refuse(fields, path, "lane", "present, but instruction is null");
    } else {
        access.recorded = InstructionLane{read_u64(instruction, path / "instruction"),
                                          read_u32(fields.required("lane"), path / "lane")};
    }
    access.step = read_nullable(fields.required("step"),
                                [&](const Json& j) { return read_u32(j, path / "step"); });
    return access;
}

} // namespace

Finding read_finding(const Json& json, const Path& path) {
    const Fields fields(json, path, kFindingFields);
    Finding finding;
    finding.kind = read_enum<FindingKind>(fields.required("kind"), path / "kind");
    const Json& ends = fields.required("ends_launch");
    if (!ends.is_boolean())
        fail(path / "ends_launch", "expected true or false, got " + describe(ends));
    finding.ends_launch = ends.get<bool>();
    finding.message = read_string(fields.required("message"), path / "message");
    finding.source = read_nullable(fields.required("source"), [&](const Json& j) {
        return read_location(j, path / "source");
    });
    const Path accesses_path = path / "accesses";
    const Json& accesses = read_array(fields.required("accesses"), accesses_path);
    if (accesses.size() > kMaxFindingAccesses)
        fail(accesses_path,
             cat(accesses.size(), " accesses; a finding lists at most ", kMaxFindingAccesses));
    for (std::size_t i = 0; i < accesses.size(); ++i)
        finding.accesses.push_back(read_finding_access(accesses[i], accesses_path[i]));
    return finding;
}

WarpShuffle read_shuffle(const Json& json, const Path& path) {
    const Fields fields(json, path, kShuffleFields);
    WarpShuffle shuffle;
    shuffle.time = read_u64(fields.required("time"), path / "time");
    shuffle.block = read_u32(fields.required("block"), path / "block");
    shuffle.warp = read_u32(fields.required("warp"), path / "warp");
    shuffle.step = read_u32(fields.required("step"), path / "step");
    shuffle.source = read_location(fields.required("source"), path / "source");
    shuffle.kind = read_enum<ShuffleKind>(fields.required("kind"), path / "kind");
    shuffle.width = read_u32(fields.required("width"), path / "width");
    // Values cannot be decoded without a sound width and type.
    if (auto problem = shuffle_width_problem(shuffle.width); !problem.empty())
        fail(path / "width", problem);
    shuffle.value_type = read_value_type(fields.required("value_type"), path / "value_type");
    if (auto problem = shuffle_value_type_problem(shuffle.value_type, shuffle.width);
        !problem.empty())
        fail(path / "value_type", problem);
    const Path lanes_path = path / "lanes";
    const Json& lanes = read_warp_lanes(fields, lanes_path);
    shuffle.lanes.reserve(lanes.size());
    for (std::size_t i = 0; i < lanes.size(); ++i) {
        const Path lane_path = lanes_path[i];
        const Fields lane_fields(lanes[i], lane_path, kShuffleLaneFields);
        ShuffleLane lane;
        lane.lane = read_u32(lane_fields.required("lane"), lane_path / "lane");
        lane.source = read_u32(lane_fields.required("source"), lane_path / "source");
        if (shuffle.value_type == ValueType::none)
            refuse(lane_fields, lane_path, "value",
                   "present, but the shuffle's value_type is null");
        else
            lane.value = read_value(lane_fields.required("value"), shuffle.value_type,
                                    shuffle.width, lane_path / "value");
        shuffle.lanes.push_back(lane);
    }
    return shuffle;
}

std::optional<Expected> read_expected(const Json& json, const Path& path) {
    if (json.is_null()) return std::nullopt;
    const Fields fields(json, path, kExpectedFields);
    Expected expected;
    expected.reference = read_string(fields.required("reference"), path / "reference");
    expected.value_type = read_value_type(fields.required("value_type"), path / "value_type");
    if (expected.value_type == ValueType::none)
        fail(path / "value_type", "null; expected values have a type");
    const std::uint32_t size = value_type_size(expected.value_type);
    const Path objects_path = path / "objects";
    const Json& objects = read_array(fields.required("objects"), objects_path);
    for (std::size_t i = 0; i < objects.size(); ++i) {
        const Path object_path = objects_path[i];
        const Fields object_fields(objects[i], object_path, kExpectedObjectFields);
        ExpectedObject object;
        object.memory = read_u32(object_fields.required("memory"), object_path / "memory");
        object.first = read_u64(object_fields.required("first"), object_path / "first");
        const Path values_path = object_path / "values";
        const Json& values = read_array(object_fields.required("values"), values_path);
        object.values.reserve(values.size());
        for (std::size_t k = 0; k < values.size(); ++k)
            object.values.push_back(
                read_value(values[k], expected.value_type, size, values_path[k]));
        expected.objects.push_back(std::move(object));
    }
    const Path tiles_path = path / "tiles";
    const Json& tiles = read_array(fields.required("tiles"), tiles_path);
    for (std::size_t i = 0; i < tiles.size(); ++i) {
        const Path tile_path = tiles_path[i];
        const Fields tile_fields(tiles[i], tile_path, kExpectedTileFields);
        ExpectedTile tile;
        tile.tile = read_u32(tile_fields.required("tile"), tile_path / "tile");
        tile.prefix = read_value(tile_fields.required("prefix"), expected.value_type, size,
                                 tile_path / "prefix");
        tile.inclusive = read_value(tile_fields.required("inclusive"), expected.value_type, size,
                                    tile_path / "inclusive");
        expected.tiles.push_back(tile);
    }
    return expected;
}

namespace {

MemoryPlace read_memory_place(const Json& json, const Path& path) {
    const Fields fields(json, path, kMemoryPlaceFields);
    return {read_u32(fields.required("memory"), path / "memory"),
            read_u64(fields.required("offset"), path / "offset")};
}

} // namespace

MbarrierEvent read_mbarrier_event(const Json& json, const Path& path) {
    const Fields fields(json, path, kMbarrierEventFields);
    MbarrierEvent event;
    event.time = read_u64(fields.required("time"), path / "time");
    event.block = read_u32(fields.required("block"), path / "block");
    event.thread = read_u32(fields.required("thread"), path / "thread");
    event.op = read_enum<MbarrierOp>(fields.required("event"), path / "event");
    event.barrier = read_memory_place(fields.required("barrier"), path / "barrier");
    event.source = read_nullable(fields.required("source"),
                                 [&](const Json& j) { return read_location(j, path / "source"); });
    event.count = read_u32(fields.required("count"), path / "count");
    event.bytes = read_u32(fields.required("bytes"), path / "bytes");
    event.parity = read_u32(fields.required("parity"), path / "parity");
    event.phase = read_u64(fields.required("phase"), path / "phase");
    event.destination = read_nullable(fields.required("destination"), [&](const Json& j) {
        return read_memory_place(j, path / "destination");
    });
    return event;
}

} // namespace scanlab::trace::detail
