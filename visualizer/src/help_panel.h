#pragma once

// The help window: the keyboard shortcuts and how to open a trace.

namespace scanlab::view {

void draw_help(bool* open);

} // namespace scanlab::view
