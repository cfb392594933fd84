#pragma once

// The in-memory model of one recorded kernel launch. It mirrors the JSON document field by field
// (docs/trace-format.md); ids are positions in the vectors. validate_trace() states the rules a
// Trace must follow; write_trace() and read_trace() enforce them.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "scanlab/trace/value.h"

namespace scanlab::trace {

inline constexpr std::string_view kFormatName = "scanlab-trace";
inline constexpr std::uint32_t kFormatVersion = 4;
// The oldest version the reader still accepts (version 1 has no findings and no look events;
// versions 1 and 2 have no shuffles and no expected values; versions 1 to 3 no mbarrier events).
inline constexpr std::uint32_t kOldestFormatVersion = 1;
inline constexpr std::uint32_t kWarpSize = 32;
// CUDA's limits on a launch configuration, which a trace's launch must respect.
inline constexpr std::uint32_t kMaxGridX = 2147483647;
inline constexpr std::uint32_t kMaxGridYZ = 65535;
inline constexpr std::uint32_t kMaxBlockXY = 1024;
inline constexpr std::uint32_t kMaxBlockZ = 64;
inline constexpr std::uint32_t kMaxBlockThreads = 1024;
// The most accesses one finding may list (the emulator lists at most 64).
inline constexpr std::size_t kMaxFindingAccesses = 1024;

enum class EmulatorMode : std::uint8_t { lockstep, its, pre_volta };
enum class DispatchOrder : std::uint8_t { in_order, shuffled };
enum class MemorySpace : std::uint8_t { shared, global };
enum class AccessKind : std::uint8_t { load, store, atomic };
// Which __shfl*_sync: the source lane is srcLane, lane - delta, lane + delta or lane ^ laneMask.
enum class ShuffleKind : std::uint8_t { index, up, down, xor_ };
// Tile status of a decoupled look-back scan: X no value yet, A aggregate, P inclusive prefix.
enum class TileFlag : std::uint8_t { X, A, P };
// What happened to an mbarrier (version 4): see MbarrierEvent.
enum class MbarrierOp : std::uint8_t { init, arrive, expect_tx, copy, land, complete, wait, poll };
enum class TruncationLimit : std::uint8_t {
    max_instructions,
    max_blocks,
    max_steps,
    max_time,
    other
};

struct Dim3 {
    std::uint32_t x = 1;
    std::uint32_t y = 1;
    std::uint32_t z = 1;

    std::uint64_t count() const { return std::uint64_t{x} * y * z; }
    bool operator==(const Dim3&) const = default;
};

struct LaunchInfo {
    std::string kernel;
    Dim3 grid;
    Dim3 block;
    std::uint64_t dynamic_shared_bytes = 0;
    EmulatorMode mode = EmulatorMode::lockstep;
    DispatchOrder dispatch = DispatchOrder::in_order;
    std::uint64_t seed = 0;

    bool operator==(const LaunchInfo&) const = default;
};

// What cut the recording short; Trace::truncated is empty when nothing did.
struct Truncation {
    TruncationLimit limit = TruncationLimit::other;
    std::uint64_t value = 0; // the limit's setting, e.g. 4096 instructions
    std::string message;     // for people: what is missing from the trace

    bool operator==(const Truncation&) const = default;
};

struct SourceLine {
    std::uint32_t number = 0; // 1-based
    std::string text;

    bool operator==(const SourceLine&) const = default;
};

// A source file, reduced to the lines the trace refers to (plus any context the writer adds), so
// a viewer can show code without the file. Lines are sorted by number.
struct SourceFile {
    std::string path;
    std::vector<SourceLine> lines;

    bool operator==(const SourceFile&) const = default;
};

struct SourceLocation {
    std::uint32_t file = 0; // index into Trace::sources
    std::uint32_t line = 0; // must be one of that file's lines

    bool operator==(const SourceLocation&) const = default;
};

// A __shared__ variable of one block, or a global allocation.
struct MemoryObject {
    std::string name;
    MemorySpace space = MemorySpace::global;
    std::uint32_t block = 0;  // shared only: the block (linear index) that owns it; 0 for global
    std::uint64_t base = 0;   // shared only: byte address in the block's shared window (banks
                              // depend on it); 0 for global
    std::uint64_t size = 0;   // bytes
    std::string element_type; // as the kernel spells it: "int", "double", "TileDescriptor"
    std::uint32_t element_size = 1;

    bool operator==(const MemoryObject&) const = default;
};

// A barrier epoch of one block: everything the block did between two __syncthreads().
struct Step {
    std::uint32_t block = 0;
    // The __syncthreads() that ended the step; empty only for a block's last step (ended by exit or
    // by the end of the recording).
    std::optional<SourceLocation> barrier;

    bool operator==(const Step&) const = default;
};

// Who wrote the bytes a load read: a lane of an earlier store or atomic.
struct WriterRef {
    std::uint64_t instruction = 0; // index into Trace::instructions
    std::uint32_t thread = 0;      // linear thread index within that instruction's block

    bool operator==(const WriterRef&) const = default;
};

struct LaneAccess {
    std::uint32_t lane = 0;
    std::uint32_t thread = 0; // linear thread index in the block: warp * 32 + lane
    std::uint64_t offset = 0; // bytes from the start of the memory object
    ValueBytes value; // loads: read; stores: written; atomics: written (zero if not recorded)
    ValueBytes old;   // atomics only: the value the atomic returned
    std::optional<WriterRef> writer; // loads and atomics, when known

    bool operator==(const LaneAccess&) const = default;
};

// One memory access of one warp: the active lanes, all on one memory object.
struct WarpInstruction {
    std::uint64_t time = 0; // scheduler tick; non-decreasing along Trace::instructions
    std::uint32_t block = 0;
    std::uint32_t warp = 0;
    std::uint32_t step = 0; // index into Trace::steps (a step of the same block)
    SourceLocation source;
    AccessKind kind = AccessKind::load;
    MemorySpace space = MemorySpace::global; // repeats the memory object's space
    std::uint32_t memory = 0;                // index into Trace::memory
    std::uint32_t width = 4;                 // bytes per lane: 1, 2, 4, 8 or 16
    ValueType value_type = ValueType::none;  // width is a multiple of its size
    std::vector<LaneAccess> lanes;           // active lanes, by increasing lane

    bool operator==(const WarpInstruction&) const = default;
};

// One lane of a warp shuffle: the register value it received and the lane it came from.
struct ShuffleLane {
    std::uint32_t lane = 0;
    std::uint32_t source = 0; // the lane whose value it received (itself when out of range)
    ValueBytes value;

    bool operator==(const ShuffleLane&) const = default;
};

// A __shfl*_sync of one warp (version 3): register dataflow between its lanes, no memory.
struct WarpShuffle {
    std::uint64_t time = 0; // scheduler tick; non-decreasing along Trace::shuffles
    std::uint32_t block = 0;
    std::uint32_t warp = 0;
    std::uint32_t step = 0; // index into Trace::steps (a step of the same block)
    SourceLocation source;
    ShuffleKind kind = ShuffleKind::index;
    std::uint32_t width = 4;                // bytes per lane: 4 or 8
    ValueType value_type = ValueType::none; // its size is `width`; none: values not recorded
    std::vector<ShuffleLane> lanes;         // the lanes that took part, by increasing lane

    bool operator==(const WarpShuffle&) const = default;
};

struct BlockStart {
    std::optional<std::uint32_t> slot; // the resident slot the block ran in, when known

    bool operator==(const BlockStart&) const = default;
};

struct BlockEnd {
    bool operator==(const BlockEnd&) const = default;
};

// A block published a new status for a tile (look-back scans).
struct TileFlagChange {
    std::uint32_t tile = 0;
    TileFlag flag = TileFlag::X;
    ValueType value_type = ValueType::none; // scalar; none: no value
    ValueBytes value;

    bool operator==(const TileFlagChange&) const = default;
};

// A block read a tile's descriptor (look-back scans) and found this status. Reads of one tile by
// one block that find the same status and value as that block's previous read of the tile (a
// poll) are counted in the previous event instead of making new ones.
struct TileLook {
    std::uint32_t tile = 0; // the tile whose descriptor was read
    TileFlag flag = TileFlag::X;
    ValueType value_type = ValueType::none; // scalar; none: no value (X, or no value in the read)
    ValueBytes value;
    std::uint64_t reads = 1; // at least 1; the event's time is the first read's

    bool operator==(const TileLook&) const = default;
};

struct BlockEvent {
    std::uint64_t time = 0; // scheduler tick; non-decreasing along Trace::block_events
    std::uint32_t block = 0;
    std::variant<BlockStart, BlockEnd, TileFlagChange, TileLook> what;

    bool operator==(const BlockEvent&) const = default;
};

// What the emulator found wrong in the launch (docs/trace-format.md, "Findings").
enum class FindingKind : std::uint8_t {
    shared_race,
    global_race,
    uninitialized_shared_read,
    uninitialized_global_read,
    illegal_address,
    misaligned_address,
    barrier_divergence,
    warp_mask,
    deadlock,
    memory_ordering,
    plain_load_spin,
    stale_read,
    assertion,
    trap,
    stack_overflow,
    exception,
    unsupported,
    other
};
// What a thread of a finding did: an access, a wait (barrier, warp intrinsic, spin) or the
// statement it executed when it faulted.
enum class FindingRole : std::uint8_t { load, store, atomic, wait, execute };

// A lane of a recorded warp instruction.
struct InstructionLane {
    std::uint64_t instruction = 0; // index into Trace::instructions
    std::uint32_t lane = 0;        // one of that instruction's lanes

    bool operator==(const InstructionLane&) const = default;
};

struct FindingAccess {
    std::uint32_t block = 0;  // linear block index in the grid
    std::uint32_t thread = 0; // linear thread index in the block (warp = thread / 32)
    FindingRole role = FindingRole::load;
    std::optional<std::uint32_t> memory; // index into Trace::memory, when the access lies in one
    std::uint64_t offset = 0;            // with memory: bytes from its start
    std::uint32_t bytes = 0;             // 0 for waits and statements
    std::optional<SourceLocation> source;
    std::optional<InstructionLane> recorded; // when its block was recorded
    std::optional<std::uint32_t> step;       // index into Trace::steps (a step of `block`)

    bool operator==(const FindingAccess&) const = default;
};

struct Finding {
    FindingKind kind = FindingKind::other;
    bool ends_launch = false;
    std::string message; // the emulator's report, as printed
    std::optional<SourceLocation> source;
    std::vector<FindingAccess> accesses; // the first is the one the report is "at" and "by"

    bool operator==(const Finding&) const = default;
};

// What a memory object's elements should hold once the computation is complete (version 3):
// element k (from `first`) of the object should hold values[k].
struct ExpectedObject {
    std::uint32_t memory = 0; // index into Trace::memory
    std::uint64_t first = 0;  // the first element the values are for
    std::vector<ValueBytes> values;

    bool operator==(const ExpectedObject&) const = default;
};

// What a look-back scan's tile should get (version 3): the combination of every element before
// it (the exclusive prefix its look-back should find) and through it (the P it should publish).
struct ExpectedTile {
    std::uint32_t tile = 0;
    ValueBytes prefix;
    ValueBytes inclusive;

    bool operator==(const ExpectedTile&) const = default;
};

// The correct results, from a reference computed on the host, so that a viewer can point at
// the values that differ (version 3).
struct Expected {
    std::string reference;                 // for people: "host reference scan: Sum<int>, inclusive"
    ValueType value_type = ValueType::i32; // of every value below (not none)
    std::vector<ExpectedObject> objects;   // by increasing memory id, each object once
    std::vector<ExpectedTile> tiles;       // by increasing tile, each tile once

    bool operator==(const Expected&) const = default;
};

// A place in memory: a memory object and a byte offset into it.
struct MemoryPlace {
    std::uint32_t memory = 0; // index into Trace::memory
    std::uint64_t offset = 0;

    bool operator==(const MemoryPlace&) const = default;
};

// One operation on an mbarrier in shared memory, or one thing that happened to it (version 4).
// Fields that do not apply to the op are zero (destination: empty).
//   init: `count` arrivals expected per phase; arrive: `count` arrivals, `bytes` announced with
//   them (arrive_expect_tx; 0: none); expect_tx: `bytes` announced; copy: a bulk copy of `bytes`
//   to `destination` that completes on the barrier was issued; land: its `bytes` landed (`thread`
//   is the issuer); complete: phase number `phase` (0, 1, ...) completed; wait: a
//   try_wait/test_wait for `parity` returned true; poll: `count` such waits in a row by the thread
//   returned false.
struct MbarrierEvent {
    std::uint64_t time = 0; // scheduler tick; non-decreasing along Trace::mbarriers
    std::uint32_t block = 0;
    std::uint32_t thread = 0; // linear thread index in the block
    MbarrierOp op = MbarrierOp::init;
    MemoryPlace barrier;                  // a shared object of the block, 8-byte aligned
    std::optional<SourceLocation> source; // the statement; empty for land and complete
    std::uint32_t count = 0;
    std::uint32_t bytes = 0;
    std::uint32_t parity = 0; // 0 or 1
    std::uint64_t phase = 0;
    std::optional<MemoryPlace> destination; // copy: where the bytes go (a shared object)

    bool operator==(const MbarrierEvent&) const = default;
};

struct Trace {
    LaunchInfo launch;
    std::optional<Truncation> truncated;
    std::vector<SourceFile> sources;
    std::vector<MemoryObject> memory;
    std::vector<Step> steps;
    std::vector<WarpInstruction> instructions;
    std::vector<BlockEvent> block_events;
    std::vector<Finding> findings;        // version 2; none in a version 1 document
    std::vector<WarpShuffle> shuffles;    // version 3: warp shuffles, in execution order
    std::optional<Expected> expected;     // version 3: what the results should be, when known
    std::vector<MbarrierEvent> mbarriers; // version 4: mbarrier operations, in time order

    bool operator==(const Trace&) const = default;
};

} // namespace scanlab::trace
