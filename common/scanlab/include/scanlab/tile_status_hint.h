// Tells the emulator's trace recorder where a look-back scan keeps its tile descriptors, so that
// recorded traces show each tile's X/A/P flag changes and every look-back read of them on the
// visualizer's timeline. On the GPU (cuda backend) it does nothing.
#pragma once

#include <cstddef>

#ifdef SCANLAB_BACKEND_SIMT
#include <simt/trace.h>
#include <simt/value_types.h>
#endif

namespace scanlab {

enum class TileStatusLayout {
    packed64,      ///< one 64-bit word per tile: status (0 X, 1 A, 2 P) in the high 32 bits, the
                   ///< Value's bits in the low 32
    flags32,       ///< one 32-bit status word per tile (the values live elsewhere)
    tagged_pair64, ///< two 64-bit words per tile, each with the status in its high 32 bits; the
                   ///< low halves hold the low and the high 32 bits of an 8-byte Value
};

/// Value: the descriptors' value type (traces show the packed values of 4-byte ones).
template <class Value>
void hint_tile_status([[maybe_unused]] const void* descriptors, [[maybe_unused]] std::size_t tiles,
                      [[maybe_unused]] TileStatusLayout layout) {
#ifdef SCANLAB_BACKEND_SIMT
    const bool values = layout != TileStatusLayout::flags32;
    simt::trace_tile_status(descriptors, tiles,
                            layout == TileStatusLayout::packed64 ? simt::TileStatusLayout::packed64
                            : layout == TileStatusLayout::flags32
                                ? simt::TileStatusLayout::flags32
                                : simt::TileStatusLayout::tagged_pair64,
                            values ? simt::detail::element_info<Value>().code : 0);
#endif
}

} // namespace scanlab
