#include "playback.h"

namespace scanlab::view {

void Playback::advance(const BlockIndex& block, Cursor& cursor, double seconds) {
    if (!playing_) return;
    carry_ += seconds * speed;
    // Whole units only; at most a frame's worth of a fast speed, so a stall does not jump far.
    int units = static_cast<int>(carry_);
    carry_ -= units;
    if (units > 10000) units = 10000;
    for (int k = 0; k < units; ++k) {
        if (at_end(block, cursor)) {
            pause();
            return;
        }
        cursor = unit == PlayUnit::instruction ? next_instruction(block, cursor)
                                               : next_step(block, cursor);
    }
    if (at_end(block, cursor)) pause();
}

} // namespace scanlab::view
