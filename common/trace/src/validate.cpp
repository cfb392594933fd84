#include "scanlab/trace/validate.h"

#include <algorithm>
#include <limits>
#include <unordered_map>

#include "json_path.h"
#include "json_read.h"
#include "rules.h"
#include "scanlab/trace/names.h"

namespace scanlab::trace {
namespace {

using detail::cat;
using detail::fail;
using detail::Path;

std::string id_range(std::size_t count) {
    return count == 0 ? std::string("there are none") : cat("0..", count - 1);
}

bool zero_from(const ValueBytes& value, std::size_t first) {
    return std::all_of(value.bytes.begin() + static_cast<std::ptrdiff_t>(first), value.bytes.end(),
                       [](std::uint8_t b) { return b == 0; });
}

// What the block events say about one block, for checking instructions against its run.
struct BlockRun {
    bool started = false;
    bool ended = false;
    std::uint64_t start = 0;
    std::uint64_t end = 0;
    std::optional<std::uint32_t> slot;
};

class Validator {
  public:
    Validator(const Trace& trace, const Limits& limits) : trace_(trace), limits_(limits) {}

    void run() {
        launch();
        sources();
        memory();
        steps();
        block_events();
        instructions();
        findings();
        shuffles();
        expected();
        mbarriers();
    }

  private:
    void check_limit(const Path& path, std::uint64_t count, std::uint64_t limit,
                     std::string_view what, std::string_view limit_name) const {
        if (count > limit)
            fail(path,
                 cat(count, ' ', what, "; the limit is ", limit, " (Limits::", limit_name, ')'));
    }

    // Events and instructions are listed in time order; `previous` is the time before this one.
    static void check_time_order(const Path& path, std::uint64_t time, std::uint64_t& previous,
                                 std::string_view what) {
        if (time < previous)
            fail(path / "time",
                 cat(time, " is earlier than the previous ", what, "'s time ", previous));
        previous = time;
    }

    // Only a C++ caller can put another value in an enum; the writer must not print it.
    template <class E>
    void check_enum(const Path& path, E value) const {
        if (static_cast<std::size_t>(value) >= EnumNames<E>::names.size())
            fail(path, cat(static_cast<unsigned>(value), " is not a value of this enum"));
    }

    void check_range(const Path& path, std::uint64_t value, std::uint64_t low,
                     std::uint64_t high) const {
        if (value < low || value > high)
            fail(path, cat(value, " is out of range (", low, "..", high, ')'));
    }

    void launch() {
        const LaunchInfo& launch = trace_.launch;
        const Path path("launch");
        if (launch.kernel.empty()) fail(path / "kernel", "empty kernel name");
        check_enum(path / "mode", launch.mode);
        check_enum(path / "dispatch", launch.dispatch);
        if (trace_.truncated) check_enum(Path("truncated") / "limit", trace_.truncated->limit);
        // CUDA's own limits on a launch configuration.
        const Path grid = path / "grid";
        check_range(grid[0], launch.grid.x, 1, kMaxGridX);
        check_range(grid[1], launch.grid.y, 1, kMaxGridYZ);
        check_range(grid[2], launch.grid.z, 1, kMaxGridYZ);
        blocks_ = launch.grid.count();
        if (blocks_ > std::numeric_limits<std::uint32_t>::max())
            fail(grid, cat(blocks_, " blocks; this format numbers blocks with 32 bits"));
        const Path block = path / "block";
        check_range(block[0], launch.block.x, 1, kMaxBlockXY);
        check_range(block[1], launch.block.y, 1, kMaxBlockXY);
        check_range(block[2], launch.block.z, 1, kMaxBlockZ);
        threads_ = launch.block.count();
        if (threads_ > kMaxBlockThreads)
            fail(block, cat(threads_, " threads per block; CUDA allows ", kMaxBlockThreads));
        warps_ = (threads_ + kWarpSize - 1) / kWarpSize;
        check_limit(path / "dynamic_shared_bytes", launch.dynamic_shared_bytes,
                    limits_.max_object_bytes, "bytes", "max_object_bytes");
    }

    void location(const Path& path, const SourceLocation& where) const {
        if (where.file >= trace_.sources.size())
            fail(path / "file", cat(where.file, " is not a source file id (",
                                    id_range(trace_.sources.size()), ')'));
        const SourceFile& file = trace_.sources[where.file];
        const auto it = std::lower_bound(
            file.lines.begin(), file.lines.end(), where.line,
            [](const SourceLine& line, std::uint32_t number) { return line.number < number; });
        if (it == file.lines.end() || it->number != where.line)
            fail(path / "line", cat("line ", where.line, " is not in sources[", where.file,
                                    "].lines (", file.path, ')'));
    }

    void sources() const {
        const Path section("sources");
        check_limit(section, trace_.sources.size(), limits_.max_sources, "source files",
                    "max_sources");
        std::uint64_t total_lines = 0;
        for (std::size_t i = 0; i < trace_.sources.size(); ++i) {
            const SourceFile& file = trace_.sources[i];
            const Path path = section[i];
            if (file.path.empty()) fail(path / "path", "empty path");
            const Path lines = path / "lines";
            for (std::size_t k = 0; k < file.lines.size(); ++k) {
                const std::uint32_t number = file.lines[k].number;
                if (number == 0)
                    fail(lines[k] / "line", "0 is not a line number (they start at 1)");
                if (k > 0 && number <= file.lines[k - 1].number)
                    fail(lines[k] / "line",
                         cat(number, " does not follow line ", file.lines[k - 1].number,
                             " (lines are listed once, in increasing order)"));
            }
            total_lines += file.lines.size();
        }
        check_limit(section, total_lines, limits_.max_source_lines, "source lines",
                    "max_source_lines");
    }

    void memory() const {
        const Path section("memory");
        check_limit(section, trace_.memory.size(), limits_.max_memory_objects, "memory objects",
                    "max_memory_objects");
        struct Placement {
            std::uint32_t block;
            std::uint64_t base;
            std::size_t id;
        };
        std::vector<Placement> shared;
        for (std::size_t i = 0; i < trace_.memory.size(); ++i) {
            const MemoryObject& object = trace_.memory[i];
            const Path path = section[i];
            if (object.name.empty()) fail(path / "name", "empty name");
            check_enum(path / "space", object.space);
            if (object.element_type.empty()) fail(path / "element_type", "empty element type");
            if (object.element_size == 0) fail(path / "element_size", "0 is not an element size");
            check_limit(path / "size", object.size, limits_.max_object_bytes, "bytes",
                        "max_object_bytes");
            if (object.space == MemorySpace::shared) {
                if (object.block >= blocks_)
                    fail(path / "block", cat(object.block, " is not a block of the grid (",
                                             id_range(blocks_), ')'));
                check_limit(path / "base", object.base, limits_.max_object_bytes, "bytes",
                            "max_object_bytes");
                shared.push_back({object.block, object.base, i});
            } else {
                if (object.block != 0)
                    fail(path / "block", "only shared objects belong to a block (must be 0)");
                if (object.base != 0)
                    fail(path / "base", "only shared objects have a base address (must be 0)");
            }
        }
        // Overlapping shared variables would make bank and race analysis meaningless.
        std::sort(shared.begin(), shared.end(), [](const Placement& a, const Placement& b) {
            return a.block != b.block ? a.block < b.block : a.base < b.base;
        });
        for (std::size_t k = 1; k < shared.size(); ++k) {
            const Placement& before = shared[k - 1];
            const Placement& object = shared[k];
            const MemoryObject& previous = trace_.memory[before.id];
            if (object.block == before.block && previous.size > 0 &&
                before.base + previous.size > object.base && trace_.memory[object.id].size > 0)
                fail(section[object.id] / "base",
                     cat("memory[", object.id, "] overlaps memory[", before.id, "] \"",
                         previous.name, "\" (bytes ", before.base, "..",
                         before.base + previous.size - 1, ") in block ", object.block,
                         "'s shared memory"));
        }
    }

    void steps() const {
        const Path section("steps");
        check_limit(section, trace_.steps.size(), limits_.max_steps, "steps", "max_steps");
        std::unordered_map<std::uint32_t, std::size_t> last_step;
        for (std::size_t i = 0; i < trace_.steps.size(); ++i) {
            const Step& step = trace_.steps[i];
            const Path path = section[i];
            if (step.block >= blocks_)
                fail(path / "block",
                     cat(step.block, " is not a block of the grid (", id_range(blocks_), ')'));
            if (step.barrier) location(path / "barrier", *step.barrier);
            last_step[step.block] = i;
        }
        for (std::size_t i = 0; i < trace_.steps.size(); ++i) {
            const Step& step = trace_.steps[i];
            if (!step.barrier && last_step[step.block] != i)
                fail(section[i] / "barrier",
                     cat("null, but block ", step.block,
                         " has later steps (only a block's last step ends without a barrier)"));
        }
    }

    void block_events() {
        const Path section("block_events");
        check_limit(section, trace_.block_events.size(), limits_.max_block_events, "block events",
                    "max_block_events");
        std::unordered_map<std::uint32_t, std::uint32_t> slot_holder;
        std::uint64_t previous_time = 0;
        for (std::size_t i = 0; i < trace_.block_events.size(); ++i) {
            const BlockEvent& event = trace_.block_events[i];
            const Path path = section[i];
            check_time_order(path, event.time, previous_time, "event");
            if (event.block >= blocks_)
                fail(path / "block",
                     cat(event.block, " is not a block of the grid (", id_range(blocks_), ')'));
            BlockRun& run = runs_[event.block];
            if (const auto* start = std::get_if<BlockStart>(&event.what)) {
                if (run.started) fail(path / "event", cat("block ", event.block, " starts twice"));
                run.started = true;
                run.start = event.time;
                if (start->slot) {
                    const std::uint32_t slot = *start->slot;
                    // Slots are numbered from 0 and a grid never needs more slots than blocks.
                    if (slot >= blocks_)
                        fail(path / "slot",
                             cat(slot, " is out of range (", id_range(blocks_), ')'));
                    const auto [it, free] = slot_holder.emplace(slot, event.block);
                    if (!free)
                        fail(path / "slot", cat("slot ", slot, " still holds block ", it->second));
                    run.slot = slot;
                }
            } else if (std::holds_alternative<BlockEnd>(event.what)) {
                if (!run.started)
                    fail(path / "event", cat("block ", event.block, " ends before it starts"));
                if (run.ended) fail(path / "event", cat("block ", event.block, " ends twice"));
                run.ended = true;
                run.end = event.time;
                if (run.slot) slot_holder.erase(*run.slot);
            } else if (const auto* look = std::get_if<TileLook>(&event.what)) {
                tile_look(path, event.block, *look, run);
            } else {
                const auto& change = std::get<TileFlagChange>(event.what);
                check_enum(path / "flag", change.flag);
                check_enum(path / "value_type", change.value_type);
                if (!run.started || run.ended)
                    fail(path / "event", cat("block ", event.block,
                                             " changes a tile flag while it is not running"));
                if (change.tile >= blocks_)
                    fail(path / "tile",
                         cat(change.tile, " is not a tile (", id_range(blocks_), ')'));
                if (!zero_from(change.value, value_type_size(change.value_type)))
                    fail(path / "value", "bytes past the value's type are not zero");
            }
        }
    }

    // A look event: a running block read the descriptor of a tile of the grid.
    void tile_look(const Path& path, std::uint32_t block, const TileLook& look,
                   const BlockRun& run) const {
        check_enum(path / "flag", look.flag);
        check_enum(path / "value_type", look.value_type);
        if (!run.started || run.ended)
            fail(path / "event",
                 cat("block ", block, " reads a tile descriptor while it is not running"));
        if (look.tile >= blocks_)
            fail(path / "tile", cat(look.tile, " is not a tile (", id_range(blocks_), ')'));
        if (look.flag == TileFlag::X && look.value_type != ValueType::none)
            fail(path / "value_type", "a look that found X has no value (write null)");
        if (look.reads == 0) fail(path / "reads", "0; a look event stands for at least one read");
        if (!zero_from(look.value, value_type_size(look.value_type)))
            fail(path / "value", "bytes past the value's type are not zero");
    }

    void lane_values(const Path& path, const WarpInstruction& instruction,
                     const LaneAccess& lane) const {
        const bool recorded = instruction.value_type != ValueType::none;
        if (!zero_from(lane.value, recorded ? instruction.width : 0))
            fail(path / "value", recorded ? "bytes past the access width are not zero"
                                          : "set, but the instruction's value_type is none");
        const bool has_old = recorded && instruction.kind == AccessKind::atomic;
        if (!zero_from(lane.old, has_old ? instruction.width : 0))
            fail(path / "old", has_old ? "bytes past the access width are not zero"
                                       : "set, but only atomics with values return an old value");
    }

    void lane_writer(const Path& path, std::size_t index, const WarpInstruction& instruction,
                     const LaneAccess& lane) const {
        const WriterRef& writer = *lane.writer;
        if (instruction.kind == AccessKind::store)
            fail(path, "stores have no writer (only loads and atomics read a value)");
        if (writer.instruction >= index)
            fail(path / "instruction",
                 cat(writer.instruction, " is not an earlier instruction (", id_range(index), ')'));
        const WarpInstruction& source = trace_.instructions[writer.instruction];
        if (source.kind == AccessKind::load)
            fail(path / "instruction",
                 cat("instruction ", writer.instruction, " is a load, not a store or atomic"));
        if (source.memory != instruction.memory)
            fail(path / "instruction",
                 cat("instruction ", writer.instruction, " accesses memory[", source.memory,
                     "], not memory[", instruction.memory, ']'));
        const bool wrote_here =
            std::any_of(source.lanes.begin(), source.lanes.end(), [&](const LaneAccess& other) {
                return other.thread == writer.thread &&
                       other.offset < lane.offset + instruction.width &&
                       lane.offset < other.offset + source.width;
            });
        if (!wrote_here)
            fail(path / "thread", cat("instruction ", writer.instruction, " has no lane of thread ",
                                      writer.thread, " writing these bytes"));
    }

    void instructions() const {
        const Path section("instructions");
        check_limit(section, trace_.instructions.size(), limits_.max_instructions, "instructions",
                    "max_instructions");
        std::unordered_map<std::uint32_t, std::uint32_t> current_step;
        std::uint64_t previous_time = 0;
        std::uint64_t lanes = 0;
        for (std::size_t i = 0; i < trace_.instructions.size(); ++i) {
            const WarpInstruction& instruction = trace_.instructions[i];
            const Path path = section[i];
            check_time_order(path, instruction.time, previous_time, "instruction");
            check_warp_event(path, instruction);
            check_enum(path / "kind", instruction.kind);
            check_enum(path / "space", instruction.space);
            check_enum(path / "value_type", instruction.value_type);
            check_step(path / "step", instruction, current_step);
            location(path / "source", instruction.source);
            const MemoryObject& object = check_memory(path, instruction);
            if (auto problem = detail::access_width_problem(instruction.width); !problem.empty())
                fail(path / "width", problem);
            if (auto problem =
                    detail::value_type_problem(instruction.value_type, instruction.width);
                !problem.empty())
                fail(path / "value_type", problem);
            const Path lanes_path = path / "lanes";
            if (instruction.lanes.size() > kWarpSize)
                fail(lanes_path,
                     cat(instruction.lanes.size(), " lanes; a warp has at most ", kWarpSize));
            lanes += instruction.lanes.size();
            for (std::size_t k = 0; k < instruction.lanes.size(); ++k)
                check_lane(lanes_path[k], i, instruction, k, object);
        }
        check_limit(section, lanes, limits_.max_lanes, "lanes in all", "max_lanes");
    }

    // Instructions and shuffles: `what` has a block and a step of it, which never goes back.
    template <class BlockStep>
    void check_step(const Path& path, const BlockStep& what,
                    std::unordered_map<std::uint32_t, std::uint32_t>& current_step) const {
        if (what.step >= trace_.steps.size())
            fail(path, cat(what.step, " is not a step id (", id_range(trace_.steps.size()), ')'));
        const Step& step = trace_.steps[what.step];
        if (step.block != what.block)
            fail(path, cat("step ", what.step, " belongs to block ", step.block, ", not block ",
                           what.block));
        // A warp cannot pass a barrier before the whole block reached it.
        const auto [it, first] = current_step.emplace(what.block, what.step);
        if (!first && what.step < it->second)
            fail(path, cat("step ", what.step, " after step ", it->second,
                           " of the same block (a block's steps come in order)"));
        it->second = what.step;
    }

    // Instructions and shuffles: a warp of a block of the grid, within the block's run.
    template <class WarpEvent>
    void check_warp_event(const Path& path, const WarpEvent& what) const {
        if (what.block >= blocks_)
            fail(path / "block",
                 cat(what.block, " is not a block of the grid (", id_range(blocks_), ')'));
        if (what.warp >= warps_)
            fail(path / "warp", cat(what.warp, " is not a warp of a ", threads_, "-thread block (",
                                    id_range(warps_), ')'));
        if (const auto run = runs_.find(what.block); run != runs_.end()) {
            const BlockRun& r = run->second;
            if (what.time < r.start || (r.ended && what.time > r.end))
                fail(path / "time",
                     cat(what.time, " is outside block ", what.block, "'s run (ticks ", r.start,
                         "..", r.ended ? cat(r.end) : std::string("end"), ')'));
        }
    }

    // Version 4: a place in shared memory of `block` (the object, and `bytes` inside it).
    void check_shared_place(const Path& path, const MemoryPlace& place, std::uint32_t block,
                            std::uint64_t bytes) const {
        if (place.memory >= trace_.memory.size())
            fail(path / "memory", cat(place.memory, " is not a memory object id (",
                                      id_range(trace_.memory.size()), ')'));
        const MemoryObject& object = trace_.memory[place.memory];
        if (object.space != MemorySpace::shared || object.block != block)
            fail(path / "memory", cat("memory object ", place.memory, " (", object.name,
                                      ") is not a shared object of block ", block));
        if (place.offset > object.size || object.size - place.offset < bytes)
            fail(path / "offset", cat(place.offset, " + ", bytes, " bytes lies outside ",
                                      object.name, " (", object.size, " bytes)"));
    }

    // Version 4: mbarrier operations. Each op has its own fields; the others are zero.
    void mbarriers() const {
        const Path section("mbarriers");
        check_limit(section, trace_.mbarriers.size(), limits_.max_mbarrier_events,
                    "mbarrier events", "max_mbarrier_events");
        std::uint64_t previous_time = 0;
        for (std::size_t i = 0; i < trace_.mbarriers.size(); ++i) {
            const MbarrierEvent& event = trace_.mbarriers[i];
            const Path path = section[i];
            check_time_order(path, event.time, previous_time, "mbarrier event");
            check_enum(path / "event", event.op);
            if (event.block >= blocks_)
                fail(path / "block",
                     cat(event.block, " is not a block of the grid (", id_range(blocks_), ')'));
            if (event.thread >= threads_)
                fail(path / "thread", cat(event.thread, " is not a thread of a ", threads_,
                                          "-thread block (", id_range(threads_), ')'));
            if (const auto run = runs_.find(event.block); run != runs_.end()) {
                const BlockRun& r = run->second;
                if (event.time < r.start || (r.ended && event.time > r.end))
                    fail(path / "time",
                         cat(event.time, " is outside block ", event.block, "'s run (ticks ",
                             r.start, "..", r.ended ? cat(r.end) : std::string("end"), ')'));
            }
            check_shared_place(path / "barrier", event.barrier, event.block, 8);
            if (event.barrier.offset % 8 != 0)
                fail(path / "barrier" / "offset",
                     cat(event.barrier.offset, " is not 8-byte aligned (an mbarrier is a 64-bit "
                                               "word)"));
            const MbarrierOp op = event.op;
            const bool statement = op != MbarrierOp::land && op != MbarrierOp::complete;
            if (statement != event.source.has_value())
                fail(path / "source", statement ? cat(to_string(op), " events name their statement")
                                                : cat(to_string(op), " events have no statement "
                                                                     "(source is null)"));
            if (event.source) location(path / "source", *event.source);
            const bool counts =
                op == MbarrierOp::init || op == MbarrierOp::arrive || op == MbarrierOp::poll;
            if (counts ? event.count == 0 : event.count != 0)
                fail(path / "count", counts ? cat("a ", to_string(op), " event counts at least 1")
                                            : cat("only init, arrive and poll events count (",
                                                  event.count, " on ", to_string(op), ')'));
            if (op == MbarrierOp::init && event.count >= (1u << 20))
                fail(path / "count", cat(event.count, " arrivals; an mbarrier counts at most "
                                                      "2^20 - 1"));
            const bool sized =
                op == MbarrierOp::expect_tx || op == MbarrierOp::copy || op == MbarrierOp::land;
            if (sized && event.bytes == 0)
                fail(path / "bytes", cat("a ", to_string(op), " event moves at least 1 byte"));
            if (!sized && op != MbarrierOp::arrive && event.bytes != 0)
                fail(path / "bytes",
                     cat("a ", to_string(op), " event has no bytes (", event.bytes, ')'));
            const bool waits = op == MbarrierOp::wait || op == MbarrierOp::poll;
            if (event.parity > 1 || (!waits && event.parity != 0))
                fail(path / "parity", waits ? cat(event.parity, " is not a parity (0 or 1)")
                                            : cat("only wait and poll events have a parity"));
            if (op != MbarrierOp::complete && event.phase != 0)
                fail(path / "phase", "only complete events have a phase number");
            if ((op == MbarrierOp::copy) != event.destination.has_value())
                fail(path / "destination",
                     op == MbarrierOp::copy ? std::string("a copy names its destination")
                                            : std::string("only copy events have a destination"));
            if (event.destination)
                check_shared_place(path / "destination", *event.destination, event.block,
                                   event.bytes);
        }
    }

    // Version 3: warp shuffles, register dataflow between the lanes of one warp.
    void shuffles() const {
        const Path section("shuffles");
        check_limit(section, trace_.shuffles.size(), limits_.max_shuffles, "shuffles",
                    "max_shuffles");
        std::unordered_map<std::uint32_t, std::uint32_t> current_step;
        std::uint64_t previous_time = 0;
        for (std::size_t i = 0; i < trace_.shuffles.size(); ++i) {
            const WarpShuffle& shuffle = trace_.shuffles[i];
            const Path path = section[i];
            check_time_order(path, shuffle.time, previous_time, "shuffle");
            check_warp_event(path, shuffle);
            check_enum(path / "kind", shuffle.kind);
            check_enum(path / "value_type", shuffle.value_type);
            check_step(path / "step", shuffle, current_step);
            location(path / "source", shuffle.source);
            if (auto problem = detail::shuffle_width_problem(shuffle.width); !problem.empty())
                fail(path / "width", problem);
            if (auto problem =
                    detail::shuffle_value_type_problem(shuffle.value_type, shuffle.width);
                !problem.empty())
                fail(path / "value_type", problem);
            const Path lanes_path = path / "lanes";
            if (shuffle.lanes.size() > kWarpSize)
                fail(lanes_path,
                     cat(shuffle.lanes.size(), " lanes; a warp has at most ", kWarpSize));
            for (std::size_t k = 0; k < shuffle.lanes.size(); ++k) {
                const ShuffleLane& lane = shuffle.lanes[k];
                const Path lane_path = lanes_path[k];
                if (lane.lane >= kWarpSize)
                    fail(lane_path / "lane",
                         cat(lane.lane, " is not a lane index (0..", kWarpSize - 1, ')'));
                if (k > 0 && lane.lane <= shuffle.lanes[k - 1].lane)
                    fail(lane_path / "lane",
                         cat(lane.lane, " does not follow lane ", shuffle.lanes[k - 1].lane,
                             " (lanes are listed once, in increasing order)"));
                if (std::uint64_t{shuffle.warp} * kWarpSize + lane.lane >= threads_)
                    fail(lane_path / "lane",
                         cat("lane ", lane.lane, " of warp ", shuffle.warp,
                             " is not a thread of a ", threads_, "-thread block"));
                if (lane.source >= kWarpSize)
                    fail(lane_path / "source",
                         cat(lane.source, " is not a lane index (0..", kWarpSize - 1, ')'));
                const bool recorded = shuffle.value_type != ValueType::none;
                if (!zero_from(lane.value, recorded ? shuffle.width : 0))
                    fail(lane_path / "value", recorded
                                                  ? "bytes past the shuffle's width are not zero"
                                                  : "set, but the shuffle's value_type is none");
            }
        }
    }

    // Version 3: the reference results. Each object and tile once, in order, inside the trace.
    void expected() const {
        if (!trace_.expected) return;
        const Expected& expected = *trace_.expected;
        const Path path("expected");
        if (expected.reference.empty())
            fail(path / "reference", "empty; say what computed the expected values");
        check_enum(path / "value_type", expected.value_type);
        if (expected.value_type == ValueType::none)
            fail(path / "value_type", "none; expected values have a type");
        const std::uint32_t size = value_type_size(expected.value_type);
        const auto check_value = [&](const Path& where, const ValueBytes& value) {
            if (!zero_from(value, size)) fail(where, "bytes past the value's type are not zero");
        };
        std::uint64_t values = 0;
        const Path objects = path / "objects";
        for (std::size_t i = 0; i < expected.objects.size(); ++i) {
            const ExpectedObject& object = expected.objects[i];
            const Path object_path = objects[i];
            if (object.memory >= trace_.memory.size())
                fail(object_path / "memory", cat(object.memory, " is not a memory object id (",
                                                 id_range(trace_.memory.size()), ')'));
            if (i > 0 && object.memory <= expected.objects[i - 1].memory)
                fail(object_path / "memory",
                     cat(object.memory, " does not follow memory ", expected.objects[i - 1].memory,
                         " (objects are listed once, by increasing id)"));
            const MemoryObject& memory = trace_.memory[object.memory];
            const std::uint64_t elements = memory.size / size;
            if (object.first > elements || elements - object.first < object.values.size())
                fail(object_path / "values",
                     cat("elements ", object.first, "..", object.first + object.values.size(),
                         " (end excluded) are outside memory[", object.memory, "] \"", memory.name,
                         "\" (", elements, " elements of ", size, " bytes)"));
            values += object.values.size();
            check_limit(objects, values, limits_.max_expected_values, "expected values",
                        "max_expected_values");
            const Path values_path = object_path / "values";
            for (std::size_t k = 0; k < object.values.size(); ++k)
                check_value(values_path[k], object.values[k]);
        }
        const Path tiles = path / "tiles";
        for (std::size_t i = 0; i < expected.tiles.size(); ++i) {
            const ExpectedTile& tile = expected.tiles[i];
            const Path tile_path = tiles[i];
            if (tile.tile >= blocks_)
                fail(tile_path / "tile",
                     cat(tile.tile, " is not a tile of the grid (", id_range(blocks_), ')'));
            if (i > 0 && tile.tile <= expected.tiles[i - 1].tile)
                fail(tile_path / "tile",
                     cat(tile.tile, " does not follow tile ", expected.tiles[i - 1].tile,
                         " (tiles are listed once, in increasing order)"));
            check_value(tile_path / "prefix", tile.prefix);
            check_value(tile_path / "inclusive", tile.inclusive);
        }
    }

    const MemoryObject& check_memory(const Path& path, const WarpInstruction& instruction) const {
        if (instruction.memory >= trace_.memory.size())
            fail(path / "memory", cat(instruction.memory, " is not a memory object id (",
                                      id_range(trace_.memory.size()), ')'));
        const MemoryObject& object = trace_.memory[instruction.memory];
        if (instruction.space != object.space)
            fail(path / "space",
                 cat('"', to_string(instruction.space), "\", but memory[", instruction.memory,
                     "] \"", object.name, "\" is ", to_string(object.space), " memory"));
        if (object.space == MemorySpace::shared && object.block != instruction.block)
            fail(path / "memory", cat("memory[", instruction.memory, "] \"", object.name,
                                      "\" is shared memory of block ", object.block,
                                      ", not of block ", instruction.block));
        return object;
    }

    void check_lane(const Path& path, std::size_t index, const WarpInstruction& instruction,
                    std::size_t k, const MemoryObject& object) const {
        const LaneAccess& lane = instruction.lanes[k];
        if (lane.lane >= kWarpSize)
            fail(path / "lane", cat(lane.lane, " is not a lane index (0..", kWarpSize - 1, ')'));
        if (k > 0 && lane.lane <= instruction.lanes[k - 1].lane)
            fail(path / "lane",
                 cat(lane.lane, " does not follow lane ", instruction.lanes[k - 1].lane,
                     " (lanes are listed once, in increasing order)"));
        const std::uint64_t thread = std::uint64_t{instruction.warp} * kWarpSize + lane.lane;
        if (lane.thread != thread)
            fail(path / "thread", cat(lane.thread, " is not lane ", lane.lane, " of warp ",
                                      instruction.warp, " (thread ", thread, ')'));
        if (thread >= threads_)
            fail(path / "thread", cat(thread, " is not a thread of a ", threads_, "-thread block"));
        if (lane.offset > object.size || object.size - lane.offset < instruction.width)
            fail(path / "offset",
                 cat("bytes ", lane.offset, "..", lane.offset + instruction.width - 1,
                     " are outside memory[", instruction.memory, "] \"", object.name, "\" (",
                     object.size, " bytes)"));
        // Misaligned accesses fault on a GPU. Sizes and bases are bounded, so no overflow.
        const std::uint64_t address = object.base + lane.offset;
        if (address % instruction.width != 0)
            fail(path / "offset", cat("byte ", address, " is not aligned to the ",
                                      instruction.width, "-byte access"));
        lane_values(path, instruction, lane);
        if (lane.writer) lane_writer(path / "writer", index, instruction, lane);
    }

    // Findings (version 2): each access names a thread of the grid and, where the trace has
    // them, the memory object, the recorded lane and the step it happened in.
    void findings() const {
        const Path section("findings");
        check_limit(section, trace_.findings.size(), limits_.max_findings, "findings",
                    "max_findings");
        for (std::size_t i = 0; i < trace_.findings.size(); ++i) {
            const Finding& finding = trace_.findings[i];
            const Path path = section[i];
            check_enum(path / "kind", finding.kind);
            if (finding.message.empty()) fail(path / "message", "empty report text");
            if (finding.source) location(path / "source", *finding.source);
            const Path accesses = path / "accesses";
            for (std::size_t k = 0; k < finding.accesses.size(); ++k)
                finding_access(accesses[k], finding.accesses[k]);
        }
    }

    void finding_access(const Path& path, const FindingAccess& access) const {
        check_enum(path / "role", access.role);
        if (access.block >= blocks_)
            fail(path / "block",
                 cat(access.block, " is not a block of the grid (", id_range(blocks_), ')'));
        if (access.thread >= threads_)
            fail(path / "thread",
                 cat(access.thread, " is not a thread of a ", threads_, "-thread block"));
        if (access.role == FindingRole::wait && access.bytes != 0)
            fail(path / "bytes", cat(access.bytes, " bytes, but a wait accesses no memory"));
        if (access.source) location(path / "source", *access.source);
        if (access.memory) {
            if (*access.memory >= trace_.memory.size())
                fail(path / "memory", cat(*access.memory, " is not a memory object id (",
                                          id_range(trace_.memory.size()), ')'));
            const MemoryObject& object = trace_.memory[*access.memory];
            if (object.space == MemorySpace::shared && object.block != access.block)
                fail(path / "memory", cat("memory[", *access.memory, "] \"", object.name,
                                          "\" is shared memory of block ", object.block,
                                          ", not of block ", access.block));
            if (access.offset > object.size || object.size - access.offset < access.bytes)
                fail(path / "offset",
                     cat("bytes ", access.offset, "..", access.offset + access.bytes,
                         " (end excluded) are outside memory[", *access.memory, "] \"", object.name,
                         "\" (", object.size, " bytes)"));
        }
        if (access.recorded) {
            const InstructionLane& ref = *access.recorded;
            if (ref.instruction >= trace_.instructions.size())
                fail(path / "instruction", cat(ref.instruction, " is not an instruction id (",
                                               id_range(trace_.instructions.size()), ')'));
            const WarpInstruction& instruction = trace_.instructions[ref.instruction];
            if (instruction.block != access.block)
                fail(path / "instruction", cat("instruction ", ref.instruction, " is of block ",
                                               instruction.block, ", not block ", access.block));
            const bool has_lane = std::any_of(
                instruction.lanes.begin(), instruction.lanes.end(), [&](const LaneAccess& lane) {
                    return lane.lane == ref.lane && lane.thread == access.thread;
                });
            if (!has_lane)
                fail(path / "lane", cat("instruction ", ref.instruction, " has no lane ", ref.lane,
                                        " of thread ", access.thread));
            if (access.memory && *access.memory != instruction.memory)
                fail(path / "memory", cat(*access.memory, ", but instruction ", ref.instruction,
                                          " accesses memory[", instruction.memory, ']'));
            if (access.step && *access.step != instruction.step)
                fail(path / "step", cat(*access.step, ", but instruction ", ref.instruction,
                                        " is in step ", instruction.step));
        }
        if (access.step) {
            if (*access.step >= trace_.steps.size())
                fail(path / "step",
                     cat(*access.step, " is not a step id (", id_range(trace_.steps.size()), ')'));
            if (trace_.steps[*access.step].block != access.block)
                fail(path / "step",
                     cat("step ", *access.step, " belongs to block ",
                         trace_.steps[*access.step].block, ", not block ", access.block));
        }
    }

    const Trace& trace_;
    const Limits& limits_;
    std::uint64_t blocks_ = 0;
    std::uint64_t threads_ = 0;
    std::uint64_t warps_ = 0;
    std::unordered_map<std::uint32_t, BlockRun> runs_;
};

} // namespace

void validate_trace(const Trace& trace, const Limits& limits) {
    Validator(trace, limits).run();
}

} // namespace scanlab::trace
