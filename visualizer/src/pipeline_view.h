#pragma once

// The pipeline view: one block of a lab 08 kernel (pipeline_model) on a time axis in the trace's
// ticks. A band per stage of the ring: each fill from its bulk copy's issue to the phase that
// made it readable, then until the phase that released it, with the landing marked; below, a
// row per warp that used a barrier or has a finding, by role: its waits (thin when the first poll
// succeeded, thick and orange when it spun, red to the end when it never completed, labelled
// with what its barrier lacked), its reads of each stage (in the stage's colour; red across the
// row when the fill was not readable yet), its arrives (ticks) and the look-back's descriptor
// accesses (dots); the block's findings as markers in their warp's row. A refill issued before
// the stage's release is framed red on its band; a deadlock's ticks of polling only are squeezed
// into the axis' last eighth.

#include <cstdint>
#include <optional>
#include <string>

#include <imgui.h>

#include "block_model_cache.h"
#include "canvas.h"
#include "loaded_trace.h"
#include "palette.h"
#include "pipeline_model.h"
#include "selection.h"

namespace scanlab::view {

// The colour of stage s of the ring.
Rgb stage_colour(std::uint32_t stage);

class PipelineView {
  public:
    void draw(const LoadedTrace& loaded, Selection& selection, ImVec2 size);
    Canvas& canvas() { return canvas_; }
    // The model of the selected block (built on first use), or nullptr with error() saying why.
    const PipelineModel* model(const LoadedTrace& loaded, const Selection& selection);
    const std::string& error() const { return cache_.error(); }

  private:
    Canvas canvas_;
    BlockModelCache<PipelineModel> cache_;
};

} // namespace scanlab::view
