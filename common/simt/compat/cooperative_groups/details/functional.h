// The operators of cg::reduce and cg::inclusive_scan/exclusive_scan (cooperative_groups::plus,
// less, greater, bit_and, bit_or, bit_xor), on the simt emulator.
#pragma once

namespace cooperative_groups {

template <class T>
struct plus {
    constexpr T operator()(const T& a, const T& b) const { return a + b; }
};
// less and greater pick the smaller and the larger of the two (a minimum and a maximum).
template <class T>
struct less {
    constexpr T operator()(const T& a, const T& b) const { return b < a ? b : a; }
};
template <class T>
struct greater {
    constexpr T operator()(const T& a, const T& b) const { return a < b ? b : a; }
};
template <class T>
struct bit_and {
    constexpr T operator()(const T& a, const T& b) const { return a & b; }
};
template <class T>
struct bit_or {
    constexpr T operator()(const T& a, const T& b) const { return a | b; }
};
template <class T>
struct bit_xor {
    constexpr T operator()(const T& a, const T& b) const { return a ^ b; }
};

} // namespace cooperative_groups
