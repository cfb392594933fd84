#pragma once

// Play/pause: advances the replay cursor by instructions or by steps at a chosen speed.

#include "cursor.h"

namespace scanlab::view {

enum class PlayUnit { instruction, step };

class Playback {
  public:
    bool playing() const { return playing_; }
    void play() { playing_ = true; }
    void pause() {
        playing_ = false;
        carry_ = 0;
    }
    void toggle() { playing_ ? pause() : play(); }

    float speed = 8.0f; // units per second
    PlayUnit unit = PlayUnit::instruction;

    // Moves `cursor` on by the units due after `seconds`; pauses at the block's end.
    void advance(const BlockIndex& block, Cursor& cursor, double seconds);

  private:
    bool playing_ = false;
    double carry_ = 0;
};

} // namespace scanlab::view
