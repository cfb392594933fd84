#pragma once

// The selected tile's look-back drawn on the block timeline: from the reading block's bar, a line
// to each predecessor's tile row at the time of the read, ending in a mark coloured by what the
// read found (X, A, P); the reads the prefix is made of are framed. Under the tile rows, the
// reads in order and the prefix they make.

#include <cstdint>
#include <functional>
#include <string>

#include <imgui.h>

#include "loaded_trace.h"

namespace scanlab::view {

struct TimelineGeometry {
    std::function<float(std::uint64_t)> x_of;    // a time's x
    std::function<float(std::uint32_t)> run_top; // a schedule row's top
    float run_height = 0;
    float tiles_top = 0;  // the first tile row's top
    float tile_pitch = 0; // from one tile row to the next
    float tile_height = 0;
    float left = 0; // the plot area, right of the row labels
    float right = 0;
};

// Draws the overlay; sets `tip` when the mouse is on a mark.
void draw_look_back(ImDrawList* list, const LoadedTrace& loaded, const TileLookBack& look_back,
                    const TimelineGeometry& at, bool mouse_in, ImVec2 mouse, std::string& tip);

} // namespace scanlab::view
