#pragma once

// The side panel's "Look-back" section: the selected tile, the block that took it, the
// predecessors its block read in order (what each read found, when, how often), and the prefix
// the reads make.

#include "loaded_trace.h"
#include "selection.h"

namespace scanlab::view {

void draw_lookback_details(const LoadedTrace& loaded, const Selection& selection);

} // namespace scanlab::view
