#pragma once

// What the replay cursor points at: the trace, the block, the step and the last executed
// instruction, with its bank conflicts for shared memory.

#include "loaded_trace.h"
#include "selection.h"

namespace scanlab::view {

void draw_details(const LoadedTrace& loaded, const Selection& selection);

} // namespace scanlab::view
