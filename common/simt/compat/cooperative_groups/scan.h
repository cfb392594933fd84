// cg::inclusive_scan and cg::exclusive_scan over a static tile on the simt emulator: the
// Hillis-Steele scan over shfl_up (log2 of the tile size steps), as lab 05 teaches it. The
// exclusive scan is the inclusive one moved up by one thread; the tile's first thread gets a
// value-initialized T (0 for numbers), as CUDA's does.
#pragma once

#include <cooperative_groups.h>

#include <type_traits>
#include <utility>

#include "cooperative_groups/details/functional.h"

namespace cooperative_groups {

template <unsigned Size, class Parent, class T, class Op>
__attribute__((always_inline)) inline auto
inclusive_scan(const thread_block_tile<Size, Parent>& tile, T value, Op&& op)
    -> std::remove_cv_t<std::remove_reference_t<decltype(op(value, value))>> {
    static_assert(Size <= 32,
                  "cg::inclusive_scan on the simt emulator takes a thread_block_tile of 1 "
                  "to 32 threads");
    using R = std::remove_cv_t<std::remove_reference_t<decltype(op(value, value))>>;
    R result = value;
    const unsigned rank = tile.thread_rank();
    for (unsigned delta = 1; delta < Size; delta *= 2) {
        const R earlier = tile.shfl_up(result, delta);
        if (rank >= delta) result = op(earlier, result);
    }
    return result;
}

template <unsigned Size, class Parent, class T>
__attribute__((always_inline)) inline T inclusive_scan(const thread_block_tile<Size, Parent>& tile,
                                                       T value) {
    return inclusive_scan(tile, value, plus<T>());
}

template <unsigned Size, class Parent, class T, class Op>
__attribute__((always_inline)) inline auto
exclusive_scan(const thread_block_tile<Size, Parent>& tile, T value, Op&& op)
    -> std::remove_cv_t<std::remove_reference_t<decltype(op(value, value))>> {
    static_assert(Size <= 32,
                  "cg::exclusive_scan on the simt emulator takes a thread_block_tile of 1 "
                  "to 32 threads");
    using R = std::remove_cv_t<std::remove_reference_t<decltype(op(value, value))>>;
    const R inclusive = inclusive_scan(tile, value, op);
    const R earlier = tile.shfl_up(inclusive, 1);
    return tile.thread_rank() == 0 ? R{} : earlier;
}

template <unsigned Size, class Parent, class T>
__attribute__((always_inline)) inline T exclusive_scan(const thread_block_tile<Size, Parent>& tile,
                                                       T value) {
    return exclusive_scan(tile, value, plus<T>());
}

// Groups the emulator does not scan over (coalesced groups, the thread block, larger tiles).
template <class Group, class T, class... Op>
auto inclusive_scan(const Group&, T, Op&&...) {
    static_assert(details::always_false<Group>, "cg::inclusive_scan on the simt emulator takes a "
                                                "thread_block_tile of 1 to 32 threads");
}
template <class Group, class T, class... Op>
auto exclusive_scan(const Group&, T, Op&&...) {
    static_assert(details::always_false<Group>, "cg::exclusive_scan on the simt emulator takes a "
                                                "thread_block_tile of 1 to 32 threads");
}

} // namespace cooperative_groups
