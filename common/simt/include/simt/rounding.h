// CUDA's arithmetic intrinsics with a rounding mode in their name (`__fadd_rd`, `__dmul_ru`,
// `__fsqrt_rz`, `__fmaf_rn`, ...: rn to nearest even, rz toward zero, ru up, rd down) and the
// bit casts between floating-point and integer types (`__int_as_float`, ...). The emulator's
// device memory is host memory and its arithmetic the CPU's, which has the same IEEE 754
// operations and rounding modes: each intrinsic runs the operation under its mode (fesetround)
// in the runtime, so the result is the one a GPU gives, bit for bit.
#pragma once

#include <cstdint>
#include <cstring>

namespace simt::detail {
enum class Rounding : int { nearest, toward_zero, up, down };
float rounded_f(int op, Rounding mode, float a, float b, float c);
double rounded_d(int op, Rounding mode, double a, double b, double c);
// op: what rounded_f/rounded_d compute.
inline constexpr int kRoundAdd = 0, kRoundSub = 1, kRoundMul = 2, kRoundDiv = 3, kRoundSqrt = 4,
                     kRoundRcp = 5, kRoundFma = 6;
} // namespace simt::detail

#define SIMT_ROUNDED(suffix, mode)                                                                 \
    inline float __fadd_##suffix(float a, float b) {                                               \
        return ::simt::detail::rounded_f(::simt::detail::kRoundAdd, mode, a, b, 0.0f);             \
    }                                                                                              \
    inline float __fsub_##suffix(float a, float b) {                                               \
        return ::simt::detail::rounded_f(::simt::detail::kRoundSub, mode, a, b, 0.0f);             \
    }                                                                                              \
    inline float __fmul_##suffix(float a, float b) {                                               \
        return ::simt::detail::rounded_f(::simt::detail::kRoundMul, mode, a, b, 0.0f);             \
    }                                                                                              \
    inline float __fdiv_##suffix(float a, float b) {                                               \
        return ::simt::detail::rounded_f(::simt::detail::kRoundDiv, mode, a, b, 0.0f);             \
    }                                                                                              \
    inline float __fsqrt_##suffix(float a) {                                                       \
        return ::simt::detail::rounded_f(::simt::detail::kRoundSqrt, mode, a, 0.0f, 0.0f);         \
    }                                                                                              \
    inline float __frcp_##suffix(float a) {                                                        \
        return ::simt::detail::rounded_f(::simt::detail::kRoundRcp, mode, a, 0.0f, 0.0f);          \
    }                                                                                              \
    inline float __fmaf_##suffix(float a, float b, float c) {                                      \
        return ::simt::detail::rounded_f(::simt::detail::kRoundFma, mode, a, b, c);                \
    }                                                                                              \
    inline double __dadd_##suffix(double a, double b) {                                            \
        return ::simt::detail::rounded_d(::simt::detail::kRoundAdd, mode, a, b, 0.0);              \
    }                                                                                              \
    inline double __dsub_##suffix(double a, double b) {                                            \
        return ::simt::detail::rounded_d(::simt::detail::kRoundSub, mode, a, b, 0.0);              \
    }                                                                                              \
    inline double __dmul_##suffix(double a, double b) {                                            \
        return ::simt::detail::rounded_d(::simt::detail::kRoundMul, mode, a, b, 0.0);              \
    }                                                                                              \
    inline double __ddiv_##suffix(double a, double b) {                                            \
        return ::simt::detail::rounded_d(::simt::detail::kRoundDiv, mode, a, b, 0.0);              \
    }                                                                                              \
    inline double __dsqrt_##suffix(double a) {                                                     \
        return ::simt::detail::rounded_d(::simt::detail::kRoundSqrt, mode, a, 0.0, 0.0);           \
    }                                                                                              \
    inline double __drcp_##suffix(double a) {                                                      \
        return ::simt::detail::rounded_d(::simt::detail::kRoundRcp, mode, a, 0.0, 0.0);            \
    }                                                                                              \
    inline double __fma_##suffix(double a, double b, double c) {                                   \
        return ::simt::detail::rounded_d(::simt::detail::kRoundFma, mode, a, b, c);                \
    }

SIMT_ROUNDED(rn, ::simt::detail::Rounding::nearest)
SIMT_ROUNDED(rz, ::simt::detail::Rounding::toward_zero)
SIMT_ROUNDED(ru, ::simt::detail::Rounding::up)
SIMT_ROUNDED(rd, ::simt::detail::Rounding::down)
#undef SIMT_ROUNDED

// Reinterpreting casts between floating-point and integer bits.
inline float __int_as_float(int x) {
    float f;
    std::memcpy(&f, &x, sizeof f);
    return f;
}
inline float __uint_as_float(unsigned x) {
    float f;
    std::memcpy(&f, &x, sizeof f);
    return f;
}
inline int __float_as_int(float x) {
    int i;
    std::memcpy(&i, &x, sizeof i);
    return i;
}
inline unsigned __float_as_uint(float x) {
    unsigned i;
    std::memcpy(&i, &x, sizeof i);
    return i;
}
inline double __longlong_as_double(long long x) {
    double d;
    std::memcpy(&d, &x, sizeof d);
    return d;
}
inline long long __double_as_longlong(double x) {
    long long i;
    std::memcpy(&i, &x, sizeof i);
    return i;
}
