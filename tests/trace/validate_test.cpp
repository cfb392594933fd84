// The writer refuses a Trace the reader would refuse: rules that only a model can break.

#include <doctest/doctest.h>

#include <sstream>
#include <string>

#include "scanlab/trace/error.h"
#include "scanlab/trace/validate.h"
#include "scanlab/trace/writer.h"
#include "synthetic_traces.h"
#include "trace_text.h"

using namespace scanlab::trace;
using testing::write_error;

TEST_CASE("valid synthetic traces validate") {
    CHECK_NOTHROW(validate_trace(testing::minimal_trace()));
    CHECK_NOTHROW(validate_trace(testing::lookback_trace()));
    CHECK_NOTHROW(validate_trace(testing::harris_prescan_trace(false)));
}

TEST_CASE("values: bytes past the width, values without a type, old values") {
    Trace trace = testing::minimal_trace();
    trace.instructions[0].lanes[2].value.bytes[4] = 1;
    CHECK(write_error(trace) ==
          "instructions[0].lanes[2].value: bytes past the access width are not zero");
    trace = testing::minimal_trace();
    trace.instructions[0].value_type = ValueType::none;
    CHECK(write_error(trace) ==
          "instructions[0].lanes[0].value: set, but the instruction's value_type is none");
    trace = testing::minimal_trace();
    trace.instructions[0].lanes[1].old = ValueBytes::of(1);
    CHECK(write_error(trace) ==
          "instructions[0].lanes[1].old: set, but only atomics with values return an old value");
}

TEST_CASE("enum values outside the enum") {
    Trace trace = testing::minimal_trace();
    trace.instructions[0].value_type = static_cast<ValueType>(99);
    CHECK(write_error(trace) == "instructions[0].value_type: 99 is not a value of this enum");
    trace = testing::minimal_trace();
    trace.launch.mode = static_cast<EmulatorMode>(7);
    CHECK(write_error(trace) == "launch.mode: 7 is not a value of this enum");
}

TEST_CASE("memory objects") {
    Trace trace = testing::minimal_trace();
    trace.memory.push_back({"t", MemorySpace::shared, 0, 8, 16, "int", 4});
    CHECK(write_error(trace) == "memory[3].base: memory[3] overlaps memory[2] \"s\" (bytes 0..15) "
                                "in block 0's shared memory");
    trace = testing::minimal_trace();
    trace.memory[0].base = 64;
    CHECK(write_error(trace) ==
          "memory[0].base: only shared objects have a base address (must be 0)");
    trace = testing::minimal_trace();
    trace.memory[2].block = 1;
    CHECK(write_error(trace) == "memory[2].block: 1 is not a block of the grid (0..0)");
    trace = testing::minimal_trace();
    trace.memory[1].name.clear();
    CHECK(write_error(trace) == "memory[1].name: empty name");
    trace = testing::minimal_trace();
    trace.memory[1].element_size = 0;
    CHECK(write_error(trace) == "memory[1].element_size: 0 is not an element size");
}

TEST_CASE("instructions must match their memory and step") {
    Trace trace = testing::lookback_trace();
    // Instruction 1 is block 0's store to its own s_tile (memory 4); point it at block 1's.
    REQUIRE(trace.instructions[1].memory == 4);
    trace.instructions[1].memory = 5;
    CHECK(
        write_error(trace) ==
        "instructions[1].memory: memory[5] \"s_tile\" is shared memory of block 1, not of block 0");
    trace = testing::lookback_trace();
    trace.instructions[1].step = 1;
    CHECK(write_error(trace) == "instructions[1].step: step 1 belongs to block 1, not block 0");
}

TEST_CASE("block events") {
    Trace trace = testing::lookback_trace();
    // Block 2 starts in slot 0 after block 0 ended; make block 1's slot collide instead.
    std::get<BlockStart>(trace.block_events[1].what).slot = 0;
    CHECK(write_error(trace) == "block_events[1].slot: slot 0 still holds block 0");
    trace = testing::lookback_trace();
    trace.block_events.insert(trace.block_events.begin() + 1, trace.block_events[0]);
    CHECK(write_error(trace) == "block_events[1].event: block 0 starts twice");
    trace = testing::minimal_trace();
    trace.block_events.push_back({9, 0, TileFlagChange{0, TileFlag::A, ValueType::i32, {}}});
    CHECK(write_error(trace) ==
          "block_events[2].event: block 0 changes a tile flag while it is not running");
    trace = testing::minimal_trace();
    trace.block_events.insert(trace.block_events.begin() + 1,
                              {1, 0, TileFlagChange{3, TileFlag::A, ValueType::none, {}}});
    CHECK(write_error(trace) == "block_events[1].tile: 3 is not a tile (0..0)");
}

TEST_CASE("look events: a running block reads a tile of the grid; X has no value") {
    const auto with_look = [](std::uint64_t time, TileLook look) {
        Trace trace = testing::minimal_trace(); // one block, running from time 0 to 5
        trace.block_events.insert(trace.block_events.begin() + 1, {time, 0, look});
        return trace;
    };
    CHECK(write_error(with_look(1, {0, TileFlag::A, ValueType::i32, ValueBytes::of(7), 3})) ==
          "(written without error)");
    CHECK(write_error(with_look(1, {1, TileFlag::P, ValueType::i32, ValueBytes::of(7), 1})) ==
          "block_events[1].tile: 1 is not a tile (0..0)");
    CHECK(write_error(with_look(1, {0, TileFlag::X, ValueType::i32, {}, 1})) ==
          "block_events[1].value_type: a look that found X has no value (write null)");
    CHECK(write_error(with_look(1, {0, TileFlag::A, ValueType::none, {}, 0})) ==
          "block_events[1].reads: 0; a look event stands for at least one read");
    TileLook high{0, TileFlag::A, ValueType::i8, ValueBytes::of(0x100), 1};
    CHECK(write_error(with_look(1, high)) ==
          "block_events[1].value: bytes past the value's type are not zero");
    Trace after_end = testing::minimal_trace();
    after_end.block_events.push_back({9, 0, TileLook{0, TileFlag::P, ValueType::none, {}, 1}});
    CHECK(write_error(after_end) ==
          "block_events[2].event: block 0 reads a tile descriptor while it is not running");
}

TEST_CASE("launch and sources") {
    Trace trace = testing::minimal_trace();
    trace.launch.kernel.clear();
    CHECK(write_error(trace) == "launch.kernel: empty kernel name");
    trace = testing::minimal_trace();
    trace.launch.block.z = 0;
    CHECK(write_error(trace) == "launch.block[2]: 0 is out of range (1..64)");
    trace = testing::minimal_trace();
    std::swap(trace.sources[0].lines[0], trace.sources[0].lines[1]);
    CHECK(write_error(trace) == "sources[0].lines[1].line: 5 does not follow line 6 (lines are "
                                "listed once, in increasing order)");
    trace = testing::minimal_trace();
    trace.sources[0].path.clear();
    CHECK(write_error(trace) == "sources[0].path: empty path");
}
