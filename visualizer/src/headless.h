#pragma once

// Headless mode: one frame of one view, drawn offscreen and written to a PNG file.

#include "options.h"

namespace scanlab::view {

// Exit codes: 0 written; 2 a bad request (step out of range...); 3 the trace could not be read
// (the picture shows the error, as the window would); 4 no window or picture could be made.
int render_picture(const Options& options);

} // namespace scanlab::view
