// Where look-back scans keep their tile status descriptors (simt::trace_tile_status): part of the
// runtime's core, since lab code announces them in every build, and read by the trace recorder.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "simt/trace.h"

namespace simt::detail {

struct TileStatusArea {
    uintptr_t base = 0;
    size_t tiles = 0;
    TileStatusLayout layout = TileStatusLayout::packed64;
    int value_code = 0;
    // Bytes per tile's descriptor.
    size_t stride() const {
        return layout == TileStatusLayout::flags32    ? 4
               : layout == TileStatusLayout::packed64 ? 8
                                                      : 16;
    }
    size_t bytes() const { return tiles * stride(); }
};

std::vector<TileStatusArea>& tile_status_areas();

} // namespace simt::detail
