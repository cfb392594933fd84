#pragma once

// The keys the viewer binds, named by the viewer: only keys.cpp knows how the windowing
// backend and Dear ImGui's version spell them.

namespace scanlab::view {

enum class Key {
    space,
    right,
    left,
    home,
    end,
    up,
    down,
    equal,
    keypad_add,
    minus,
    keypad_subtract,
    digit0,
    keypad0,
    digit1,
    digit2,
    digit3,
    w,
    t,
    f,
    l,
    h,
    o,
    f1,
    left_bracket,
    right_bracket,
};

// Whether `key` went down this frame (with key repeat), in the current Dear ImGui frame.
bool key_pressed(Key key);

} // namespace scanlab::view
