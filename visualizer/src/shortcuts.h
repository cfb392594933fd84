#pragma once

// The keyboard shortcuts, listed once: the help panel and docs/visualizer.md show the table, and
// App dispatches the keys it binds.

#include <span>

#include "keys.h"

namespace scanlab::view {

// What a shortcut does; App::run_shortcut carries each out.
enum class Action {
    none, // a row that only explains a modifier of another row's keys
    play_pause,
    next,     // Shift: to the end of the next step
    previous, // Shift: to the end of the previous step
    block_start,
    block_end,
    previous_block,
    next_block,
    zoom_in,
    zoom_out,
    fit,
    array_view,
    bank_view,
    timeline_view,
    colour_by_warp,
    next_tile, // Shift: the previous tile
    next_finding,
    slower,
    faster,
    toggle_legend,
    toggle_help,
    open_path, // with Ctrl
};

struct Binding {
    Key key;
    Action action;
};

struct Shortcut {
    const char* keys;   // as the help shows them
    const char* action; // what it does, in words
    std::span<const Binding> bindings;
    bool needs_trace = true; // does nothing until a trace is loaded
    bool with_ctrl = false;  // the keys act with Ctrl held (and only then)
};

std::span<const Shortcut> shortcuts();

} // namespace scanlab::view
