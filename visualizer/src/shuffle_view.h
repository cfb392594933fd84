#pragma once

// The shuffle view: the warp shuffles (__shfl*_sync, trace format 3) of one warp of the selected
// block, one row per shuffle in execution order, 32 lane boxes with the value each lane
// received, and an arrow from the source lane's column in the row above to each lane that
// received its value: register dataflow, drawn like the array view's memory arrows. Rows after
// the replay position are empty outlines.

#include <cstdint>
#include <vector>

#include <imgui.h>

#include "canvas.h"
#include "loaded_trace.h"
#include "selection.h"

namespace scanlab::view {

// The shuffles of one warp of a block, in execution order (indices into Trace::shuffles).
std::vector<std::size_t> warp_shuffles(const trace::Trace& trace, std::uint32_t block,
                                       std::uint32_t warp);
// The warp the view shows: that of the replay's current instruction when it shuffles, else the
// block's first warp that does.
std::uint32_t shuffle_view_warp(const LoadedTrace& loaded, const Selection& selection);

class ShuffleView {
  public:
    void draw(const LoadedTrace& loaded, Selection& selection, ImVec2 size);
    Canvas& canvas() { return canvas_; }

  private:
    Canvas canvas_;
};

} // namespace scanlab::view
