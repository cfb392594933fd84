#pragma once

// What the user is looking at: the block, the replay position, the view and its choices. The
// views read it and change it (a click on a step moves the cursor there).

#include <cstdint>
#include <optional>

#include "array_model.h"
#include "cursor.h"

namespace scanlab::view {

enum class ViewKind { array, bank, timeline, shuffles, radix, pipeline };

struct Selection {
    std::uint32_t block = 0; // position in TraceIndex::blocks()
    Cursor cursor;
    ViewKind view = ViewKind::array;
    std::optional<std::uint32_t> object; // the array view's memory object; empty: pick one
    bool colour_by_warp = false;         // arrows and cells coloured by warp, not by thread
    ArraySettings array;
    std::optional<std::uint32_t> tile;    // the timeline's tile whose look-back is shown
    std::optional<std::uint32_t> finding; // the finding whose cells and lanes are marked
    std::optional<std::uint32_t> digit;   // the radix view's digit; empty: its longest look-back
};

} // namespace scanlab::view
