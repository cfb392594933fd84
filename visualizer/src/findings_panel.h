#pragma once

// The side panel's list of the trace's findings (races, out-of-bounds accesses, deadlocks...)
// with the selected one's report text and the threads it involves.

#include <cstdint>
#include <optional>

#include "loaded_trace.h"
#include "selection.h"

namespace scanlab::view {

// Draws the list; returns the finding the user clicked, if any.
std::optional<std::uint32_t> draw_findings(const LoadedTrace& loaded, const Selection& selection);

} // namespace scanlab::view
