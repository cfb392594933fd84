#pragma once

// Choosing the tile whose look-back the timeline shows: by click or by key (T, Shift+T).

#include <cstdint>
#include <optional>

#include "loaded_trace.h"
#include "selection.h"

namespace scanlab::view {

// Shows `tile`'s look-back and selects the block that took it, when that block was recorded
// (keeping the place in time as the block's own instructions allow).
void select_tile(const LoadedTrace& loaded, Selection& selection, std::uint32_t tile);

// The tile after (direction > 0) or before the selected one among the tiles with an owner,
// wrapping around; the first (or last) one when none is selected; empty when there are none.
std::optional<std::uint32_t> neighbour_tile(const LoadedTrace& loaded,
                                            std::optional<std::uint32_t> current, int direction);

} // namespace scanlab::view
