// The warp reductions of compute capability 8.0 (`__reduce_add_sync` and its kin; CUDA declares
// them in sm_80_rt.h, which cuda_runtime.h brings in), for the emulated 9.0 device: each lane of
// `mask` takes every lane's value of the mask with a shuffle, lowest lane first, and combines them
// in that order, so every lane gets the same result and the warp-intrinsic checks apply (every
// lane the mask names must call, with the same mask, at the same line).
#pragma once

#include <algorithm>

namespace simt::detail {
template <class T, class Combine>
[[gnu::always_inline]] inline T reduce_over_mask(unsigned mask, T value, Combine combine) {
    // A mask without lanes gets no value; the shuffle reports it as the mask error it is.
    T total = __shfl_sync(mask, value, mask == 0 ? 0 : __builtin_ctz(mask));
    for (unsigned rest = mask & (mask - 1); rest != 0; rest &= rest - 1)
        total = combine(total, __shfl_sync(mask, value, __builtin_ctz(rest)));
    return total;
}
} // namespace simt::detail

#define SIMT_WARP_REDUCE(name, type, expression)                                                   \
    [[gnu::always_inline]] inline type name(unsigned mask, type value) {                           \
        return ::simt::detail::reduce_over_mask(                                                   \
            mask, value, [](type a, type b) -> type { return expression; });                       \
    }
SIMT_WARP_REDUCE(__reduce_add_sync, unsigned, a + b)
SIMT_WARP_REDUCE(__reduce_add_sync, int, static_cast<int>(static_cast<unsigned>(a) + b))
SIMT_WARP_REDUCE(__reduce_min_sync, unsigned, std::min(a, b))
SIMT_WARP_REDUCE(__reduce_min_sync, int, std::min(a, b))
SIMT_WARP_REDUCE(__reduce_max_sync, unsigned, std::max(a, b))
SIMT_WARP_REDUCE(__reduce_max_sync, int, std::max(a, b))
SIMT_WARP_REDUCE(__reduce_and_sync, unsigned, a& b)
SIMT_WARP_REDUCE(__reduce_or_sync, unsigned, a | b)
SIMT_WARP_REDUCE(__reduce_xor_sync, unsigned, a ^ b)
#undef SIMT_WARP_REDUCE
