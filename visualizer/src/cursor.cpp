#include "cursor.h"

#include <algorithm>

namespace scanlab::view {

Cursor cursor_start(const BlockIndex&) {
    return Cursor{0, 0};
}

Cursor cursor_end(const BlockIndex& block) {
    if (block.step_count() == 0) return Cursor{0, 0};
    return Cursor{block.step_count() - 1, block.instruction_count()};
}

Cursor cursor_at_step_end(const BlockIndex& block, std::uint32_t step) {
    if (block.step_count() == 0) return Cursor{0, 0};
    step = std::min(step, block.step_count() - 1);
    return Cursor{step, block.step_end(step)};
}

Cursor cursor_after_instruction(const BlockIndex& block, std::uint32_t position) {
    return cursor_with_done(block, std::min(position + 1, block.instruction_count()));
}

Cursor cursor_with_done(const BlockIndex& block, std::uint32_t done) {
    if (block.step_count() == 0) return Cursor{0, 0};
    done = std::min(done, block.instruction_count());
    if (done == 0) return Cursor{0, 0};
    // The step holding instruction done - 1: the last k with step_begin[k] <= done - 1.
    auto it = std::upper_bound(block.step_begin.begin(), block.step_begin.end() - 1, done - 1);
    const auto step = static_cast<std::uint32_t>(it - block.step_begin.begin()) - 1;
    return Cursor{step, done};
}

bool at_end(const BlockIndex& block, Cursor cursor) {
    return cursor == cursor_end(block);
}

Cursor next_instruction(const BlockIndex& block, Cursor cursor) {
    if (block.step_count() == 0) return cursor;
    if (cursor.done < block.step_end(cursor.step)) return Cursor{cursor.step, cursor.done + 1};
    if (cursor.step + 1 >= block.step_count()) return cursor;
    Cursor next{cursor.step + 1, cursor.done};
    if (next.done < block.step_end(next.step)) ++next.done;
    return next;
}

Cursor previous_instruction(const BlockIndex& block, Cursor cursor) {
    if (block.step_count() == 0) return cursor;
    const std::uint32_t begin = block.step_begin[cursor.step];
    if (cursor.done > begin + 1) return Cursor{cursor.step, cursor.done - 1};
    if (cursor.step == 0) return Cursor{0, cursor.done > 0 ? cursor.done - 1 : 0};
    if (cursor.done == begin + 1) return Cursor{cursor.step - 1, cursor.done - 1};
    return Cursor{cursor.step - 1, cursor.done}; // an empty step: the end of the one before
}

Cursor next_step(const BlockIndex& block, Cursor cursor) {
    if (block.step_count() == 0) return cursor;
    if (cursor.done < block.step_end(cursor.step)) return cursor_at_step_end(block, cursor.step);
    if (cursor.step + 1 >= block.step_count()) return cursor;
    return cursor_at_step_end(block, cursor.step + 1);
}

Cursor previous_step(const BlockIndex& block, Cursor cursor) {
    if (block.step_count() == 0) return cursor;
    if (cursor.step == 0) return Cursor{0, 0};
    return cursor_at_step_end(block, cursor.step - 1);
}

} // namespace scanlab::view
