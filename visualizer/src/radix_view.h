#pragma once

// The radix view: one block's share of a lab 09 one-sweep pass (radix_pass_model). Its tile's
// keys coloured by digit as loaded and after the local rank (64 x 64 grids, in place order), the
// look-back of the selected digit (each descriptor read with its flag and count, and the prefix
// it ended with) above a strip of every digit's reads, and the scatter: the ranked tile, and
// lines from each digit's run to where its keys landed in the pass's output.

#include <cstdint>
#include <optional>
#include <string>

#include <imgui.h>

#include "block_model_cache.h"
#include "canvas.h"
#include "loaded_trace.h"
#include "palette.h"
#include "radix_pass_model.h"
#include "selection.h"

namespace scanlab::view {

// The colour of a digit (0..255): hues around the wheel, so neighbouring digits look alike and
// the ranked tile is a rainbow.
Rgb digit_colour(std::uint32_t digit);

class RadixView {
  public:
    void draw(const LoadedTrace& loaded, Selection& selection, ImVec2 size);
    Canvas& canvas() { return canvas_; }
    // The model of the selected block (built on first use), or nullptr with error() saying why.
    const RadixPassModel* model(const LoadedTrace& loaded, const Selection& selection);
    const std::string& error() const { return cache_.error(); }

  private:
    Canvas canvas_;
    BlockModelCache<RadixPassModel> cache_;
};

} // namespace scanlab::view
