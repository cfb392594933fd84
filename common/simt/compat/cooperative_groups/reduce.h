// cg::reduce over a static tile on the simt emulator: every thread of the tile gets op applied
// over all the tile's values. Up to a warp, a butterfly of shfl_xor steps (log2 of the tile
// size), so every lane combines the same values in the same tree and all get the same result;
// a tile of 64 to 512 threads combines its warps' results through shared memory.
#pragma once

#include <cooperative_groups.h>

#include <type_traits>
#include <utility>

#include "cooperative_groups/details/functional.h"

namespace cooperative_groups {

template <unsigned Size, class Parent, class T, class Op>
__attribute__((always_inline)) inline auto reduce(const thread_block_tile<Size, Parent>& tile,
                                                  T value, Op&& op)
    -> std::remove_cv_t<std::remove_reference_t<decltype(op(value, value))>> {
    using R = std::remove_cv_t<std::remove_reference_t<decltype(op(value, value))>>;
    R result = value;
    if constexpr (Size <= 32) {
        for (unsigned offset = Size / 2; offset > 0; offset /= 2)
            result = op(result, tile.shfl_xor(result, offset));
    } else {
        // A tile of whole warps: each warp reduces its lanes, lane 0 leaves the warp's value in
        // shared memory, and after the tile's barrier every thread combines its tile's warps in
        // order; a second barrier lets the next reduction reuse the memory.
        const thread_block_tile<32, void> warp = tiled_partition<32>(this_thread_block());
        for (unsigned offset = 16; offset > 0; offset /= 2)
            result = op(result, warp.shfl_xor(result, offset));
        auto& partial = ::simt::shared_variable<R[32]>(
            ::simt::SharedSite{"cooperative_groups::reduce (warp values)", __FILE__, __LINE__, 0});
        const unsigned warp_index = details::block_rank() / 32;
        if (warp.thread_rank() == 0) partial[warp_index] = result;
        tile.sync();
        const unsigned first = warp_index / (Size / 32) * (Size / 32);
        result = partial[first];
        for (unsigned w = 1; w < Size / 32; ++w) result = op(result, partial[first + w]);
        tile.sync();
    }
    return result;
}

// A coalesced group (binary_partition): its lanes need not be neighbours, so every thread takes
// each member's value in rank order and combines them; all get the same result.
template <class T, class Op>
__attribute__((always_inline)) inline auto reduce(const coalesced_group& group, T value, Op&& op)
    -> std::remove_cv_t<std::remove_reference_t<decltype(op(value, value))>> {
    using R = std::remove_cv_t<std::remove_reference_t<decltype(op(value, value))>>;
    const R mine = value;
    R result = group.shfl(mine, 0);
    const unsigned n = group.size();
    for (unsigned r = 1; r < n; ++r) result = op(result, group.shfl(mine, r));
    return result;
}

// The groups cg::reduce takes on a GPU that the emulator does not (the thread block) fail here,
// with the reason.
template <class Group, class T, class Op>
auto reduce(const Group&, T, Op&&) {
    static_assert(
        details::always_false<Group>,
        "cg::reduce on the simt emulator takes a thread_block_tile (of 1 to 512 threads)");
}

} // namespace cooperative_groups
