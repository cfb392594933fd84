#pragma once

// Where the replay of one block stands: `done` of its instructions have executed, and `step` is
// the step being shown. Invariant: block.step_begin[step] <= done <= block.step_end(step).
// Stepping forward one instruction at a time visits every instruction; stepping by steps stops
// at the end of each step.

#include <cstdint>

#include "trace_index.h"

namespace scanlab::view {

struct Cursor {
    std::uint32_t step = 0; // position in BlockIndex::steps
    std::uint32_t done = 0; // instructions of the block executed

    // The last executed instruction's position in BlockIndex::instructions, or -1.
    std::int64_t instruction() const { return static_cast<std::int64_t>(done) - 1; }
    bool operator==(const Cursor&) const = default;
};

Cursor cursor_start(const BlockIndex& block);
Cursor cursor_end(const BlockIndex& block);
// The end of a step (position in the block's steps).
Cursor cursor_at_step_end(const BlockIndex& block, std::uint32_t step);
// Just after instruction `position` of the block.
Cursor cursor_after_instruction(const BlockIndex& block, std::uint32_t position);
// `done` instructions executed (the slider); the step is that of the last one.
Cursor cursor_with_done(const BlockIndex& block, std::uint32_t done);

Cursor next_instruction(const BlockIndex& block, Cursor cursor);
Cursor previous_instruction(const BlockIndex& block, Cursor cursor);
// To the end of the current step, or of the next one when the current one is complete.
Cursor next_step(const BlockIndex& block, Cursor cursor);
// To the end of the previous step, or to the start from the first.
Cursor previous_step(const BlockIndex& block, Cursor cursor);

bool at_end(const BlockIndex& block, Cursor cursor);

} // namespace scanlab::view
