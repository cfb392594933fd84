// cg::reduce over a static tile on the simt emulator: every thread of the tile gets op applied
// over all the tile's values. A butterfly of shfl_xor steps (log2 of the tile size), so every
// lane combines the same values in the same tree and all get the same result.
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
    for (unsigned offset = Size / 2; offset > 0; offset /= 2)
        result = op(result, tile.shfl_xor(result, offset));
    return result;
}

// The groups cg::reduce takes on a GPU that the emulator does not (coalesced groups, the
// thread block, tiles of more than 32 threads) fail here, with the reason.
template <class Group, class T, class Op>
auto reduce(const Group&, T, Op&&) {
    static_assert(details::always_false<Group>,
                  "cg::reduce on the simt emulator takes a thread_block_tile of 1 to 32 threads");
}

} // namespace cooperative_groups
