#pragma once

// The block timeline: each block's run over logical time on its resident slot, the spans where a
// warp waited (polling a location that did not change, as a look-back spin does), the tile flags
// X/A/P of look-back scans over time, and the replay cursor's time.

#include <imgui.h>

#include "canvas.h"
#include "loaded_trace.h"
#include "selection.h"

namespace scanlab::view {

class TimelineView {
  public:
    void draw(const LoadedTrace& loaded, Selection& selection, ImVec2 size);
    Canvas& canvas() { return canvas_; }

  private:
    Canvas canvas_;
    double base_pixels_per_tick_ = 1.0;
};

} // namespace scanlab::view
