// Tells the emulator's trace recorder where a look-back scan keeps its tile descriptors, so that
// recorded traces show each tile's X/A/P flag changes on the visualizer's timeline. On the GPU
// (cuda backend) it does nothing.
#pragma once

#include <cstddef>

#ifdef SCANLAB_BACKEND_SIMT
#include <simt/trace.h>
#endif

namespace scanlab {

enum class TileStatusLayout {
    packed64, ///< one 64-bit word per tile: status (0 X, 1 A, 2 P) in the high 32 bits
    flags32,  ///< one 32-bit status word per tile (the values live elsewhere)
};

/// value_code: the value type as the trace format numbers it (5 int32, 6 uint32, 9 float), or 0.
inline void hint_tile_status([[maybe_unused]] const void* descriptors,
                             [[maybe_unused]] std::size_t tiles,
                             [[maybe_unused]] TileStatusLayout layout,
                             [[maybe_unused]] int value_code = 0) {
#ifdef SCANLAB_BACKEND_SIMT
    simt::trace_tile_status(descriptors, tiles,
                            layout == TileStatusLayout::packed64 ? simt::TileStatusLayout::packed64
                                                                 : simt::TileStatusLayout::flags32,
                            value_code);
#endif
}

} // namespace scanlab
