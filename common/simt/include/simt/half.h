// Half precision (cuda_fp16.h) on the simt emulator: __half and __half2 with CUDA's layout
// (2 and 4 bytes, IEEE binary16), conversions that round to nearest even as the GPU's do, the
// arithmetic, comparisons and math functions CUDA defines on them, and their atomicAdd. Each
// operation computes in float (fma and the math functions in double) and rounds once to half:
// float holds more than twice half's precision, so for + - * / the result is the correctly
// rounded one a GPU gives. Not here: the half shuffles.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

#include "simt/types.h"

namespace simt::detail {

// float -> binary16, round to nearest even; NaN becomes the canonical 0x7fff.
inline std::uint16_t float_to_half_bits(float f) {
    std::uint32_t x;
    std::memcpy(&x, &f, sizeof x);
    const std::uint32_t sign = (x >> 16) & 0x8000u;
    const std::uint32_t abs = x & 0x7fffffffu;
    if (abs > 0x7f800000u) return 0x7fff;                                      // NaN
    if (abs >= 0x477ff000u) return static_cast<std::uint16_t>(sign | 0x7c00u); // >= 65520: inf
    if (abs < 0x38800000u) { // below 2^-14: a subnormal half, or zero
        const std::uint32_t exponent = abs >> 23;
        if (exponent < 102) return static_cast<std::uint16_t>(sign); // below 2^-25: zero
        const std::uint32_t mantissa = (abs & 0x7fffffu) | 0x800000u;
        const std::uint32_t shift = 126 - exponent; // to units of 2^-24
        std::uint32_t h = mantissa >> shift;
        const std::uint32_t rest = mantissa & ((1u << shift) - 1u), tie = 1u << (shift - 1);
        if (rest > tie || (rest == tie && (h & 1u))) ++h;
        return static_cast<std::uint16_t>(sign | h);
    }
    std::uint32_t h = (abs >> 13) - (112u << 10); // rebias the exponent from 127 to 15
    const std::uint32_t rest = abs & 0x1fffu;
    if (rest > 0x1000u || (rest == 0x1000u && (h & 1u))) ++h; // a carry raises the exponent
    return static_cast<std::uint16_t>(sign | h);
}

// double -> binary16 with one rounding, to nearest even (through float, the result would be
// rounded twice: 1 + 2^-11 + 2^-30 would become 1, not 1 + 2^-10). The double is rounded to float
// toward zero, with the last bit set when that dropped anything ("round to odd"): float keeps 13
// bits more than half, so that bit stands for all that was dropped, and rounding the float to
// half rounds the double.
inline std::uint16_t double_to_half_bits(double d) {
    float f = static_cast<float>(d);
    if (!std::isnan(d) && static_cast<double>(f) != d) {
        if (std::fabs(static_cast<double>(f)) > std::fabs(d)) f = std::nextafter(f, 0.0f);
        std::uint32_t x;
        std::memcpy(&x, &f, sizeof x);
        x |= 1u;
        std::memcpy(&f, &x, sizeof f);
    }
    return float_to_half_bits(f);
}

// binary16 -> float: exact.
inline float half_bits_to_float(std::uint16_t h) {
    const std::uint32_t sign = (h & 0x8000u) << 16;
    const std::uint32_t exponent = (h >> 10) & 0x1fu, mantissa = h & 0x3ffu;
    std::uint32_t x;
    if (exponent == 0) {
        const float magnitude = static_cast<float>(mantissa) * 5.9604644775390625e-8f; // 2^-24
        std::memcpy(&x, &magnitude, sizeof x);
        x |= sign;
    } else if (exponent == 31) {
        x = sign | 0x7f800000u | (mantissa << 13);
    } else {
        x = sign | ((exponent + 112u) << 23) | (mantissa << 13);
    }
    float f;
    std::memcpy(&f, &x, sizeof f);
    return f;
}

} // namespace simt::detail

struct __half_raw {
    unsigned short x;
};

struct __half {
    __half() = default;
    __half(float f) : bits_(simt::detail::float_to_half_bits(f)) {}
    __half(double d) : bits_(simt::detail::double_to_half_bits(d)) {}
    __half(int i) : __half(static_cast<float>(i)) {}
    __half(__half_raw raw) : bits_(raw.x) {}
    operator float() const { return simt::detail::half_bits_to_float(bits_); }
    operator __half_raw() const { return {bits_}; }
    __half& operator=(float f) { return *this = __half(f); }
    __half& operator=(double d) { return *this = __half(d); }

  private:
    unsigned short bits_;
};

struct alignas(4) __half2 {
    __half x, y;
    __half2() = default;
    __half2(const __half& a, const __half& b) : x(a), y(b) {}
};

using half = __half;
using half2 = __half2;

// Conversions.
inline __half __float2half(float f) {
    return __half(f);
}
inline __half __float2half_rn(float f) {
    return __half(f);
}
inline __half __double2half(double d) {
    return __half(d);
}
inline float __half2float(__half h) {
    return static_cast<float>(h);
}
inline __half2 __float2half2_rn(float f) {
    return __half2(__half(f), __half(f));
}
inline __half2 __floats2half2_rn(float a, float b) {
    return __half2(__half(a), __half(b));
}
inline __half2 __halves2half2(__half a, __half b) {
    return __half2(a, b);
}
inline __half2 __half2half2(__half h) {
    return __half2(h, h);
}
inline __half __low2half(__half2 h) {
    return h.x;
}
inline __half __high2half(__half2 h) {
    return h.y;
}
inline float __low2float(__half2 h) {
    return static_cast<float>(h.x);
}
inline float __high2float(__half2 h) {
    return static_cast<float>(h.y);
}
inline float2 __half22float2(__half2 h) {
    return make_float2(h.x, h.y);
}
inline __half2 __float22half2_rn(float2 f) {
    return __half2(__half(f.x), __half(f.y));
}
inline unsigned short __half_as_ushort(__half h) {
    return static_cast<__half_raw>(h).x;
}
inline __half __ushort_as_half(unsigned short u) {
    return __half(__half_raw{u});
}

// Arithmetic: computed in float (fma in double), rounded once to half.
inline __half __hadd(__half a, __half b) {
    return __half(float(a) + float(b));
}
inline __half __hsub(__half a, __half b) {
    return __half(float(a) - float(b));
}
inline __half __hmul(__half a, __half b) {
    return __half(float(a) * float(b));
}
inline __half __hdiv(__half a, __half b) {
    return __half(float(a) / float(b));
}
inline __half __hneg(__half a) {
    return __half(-float(a));
}
inline __half __hfma(__half a, __half b, __half c) {
    // Exact in double for every finite half result (a*b has 22 bits, and the terms span at
    // most 2^17 down to 2^-24), so the one rounding is the conversion to half.
    return __half(std::fma(double(float(a)), double(float(b)), double(float(c))));
}
inline __half __hadd_rn(__half a, __half b) { // (the _rn forms are never contracted into an fma)
    return __hadd(a, b);
}
inline __half __hsub_rn(__half a, __half b) {
    return __hsub(a, b);
}
inline __half __hmul_rn(__half a, __half b) {
    return __hmul(a, b);
}

// Comparisons: the ordered ones are false when either input is NaN, the unordered ones (u) true.
inline bool __heq(__half a, __half b) {
    return float(a) == float(b);
}
inline bool __hne(__half a, __half b) {
    return float(a) < float(b) || float(a) > float(b);
}
inline bool __hlt(__half a, __half b) {
    return float(a) < float(b);
}
inline bool __hle(__half a, __half b) {
    return float(a) <= float(b);
}
inline bool __hgt(__half a, __half b) {
    return float(a) > float(b);
}
inline bool __hge(__half a, __half b) {
    return float(a) >= float(b);
}
inline bool __hequ(__half a, __half b) {
    return !__hne(a, b);
}
inline bool __hneu(__half a, __half b) {
    return !__heq(a, b);
}
inline bool __hltu(__half a, __half b) {
    return !__hge(a, b);
}
inline bool __hleu(__half a, __half b) {
    return !__hgt(a, b);
}
inline bool __hgtu(__half a, __half b) {
    return !__hle(a, b);
}
inline bool __hgeu(__half a, __half b) {
    return !__hlt(a, b);
}
inline bool __hisnan(__half a) {
    return std::isnan(float(a));
}
inline int __hisinf(__half a) { // -1 for -inf, 1 for +inf, else 0
    return std::isinf(float(a)) ? (float(a) < 0 ? -1 : 1) : 0;
}

// __hmax/__hmin return the other input for one NaN (NaN for two) and order -0 below +0;
// the _nan forms return NaN when either input is NaN.
inline __half __hmax(__half a, __half b) {
    if (__hisnan(a)) return __hisnan(b) ? __half(NAN) : b;
    if (__hisnan(b)) return a;
    if (float(a) == float(b)) return std::signbit(float(a)) ? b : a;
    return float(a) > float(b) ? a : b;
}
inline __half __hmin(__half a, __half b) {
    if (__hisnan(a)) return __hisnan(b) ? __half(NAN) : b;
    if (__hisnan(b)) return a;
    if (float(a) == float(b)) return std::signbit(float(a)) ? a : b;
    return float(a) < float(b) ? a : b;
}
inline __half __hmax_nan(__half a, __half b) {
    return __hisnan(a) || __hisnan(b) ? __half(NAN) : __hmax(a, b);
}
inline __half __hmin_nan(__half a, __half b) {
    return __hisnan(a) || __hisnan(b) ? __half(NAN) : __hmin(a, b);
}
inline __half __habs(__half a) { // a NaN becomes the canonical one, as on a GPU
    return __hisnan(a)
               ? __half(NAN)
               : __ushort_as_half(static_cast<unsigned short>(__half_as_ushort(a) & 0x7fffu));
}

// Saturating forms: the result clamped to [0, 1], NaN to +0; relu: negative to +0, NaN kept.
namespace simt::detail {
inline __half saturate_half(__half h) {
    const float f = float(h);
    return std::isnan(f) ? __half(0.0f) : __half(std::fmin(std::fmax(f, 0.0f), 1.0f));
}
inline __half relu_half(__half h) {
    return float(h) < 0 ? __half(0.0f) : h;
}
} // namespace simt::detail
inline __half __hadd_sat(__half a, __half b) {
    return simt::detail::saturate_half(__hadd(a, b));
}
inline __half __hsub_sat(__half a, __half b) {
    return simt::detail::saturate_half(__hsub(a, b));
}
inline __half __hmul_sat(__half a, __half b) {
    return simt::detail::saturate_half(__hmul(a, b));
}
inline __half __hfma_sat(__half a, __half b, __half c) {
    return simt::detail::saturate_half(__hfma(a, b, c));
}
inline __half __hfma_relu(__half a, __half b, __half c) {
    return simt::detail::relu_half(__hfma(a, b, c));
}

inline __half2 __hadd2(__half2 a, __half2 b) {
    return {__hadd(a.x, b.x), __hadd(a.y, b.y)};
}
inline __half2 __hsub2(__half2 a, __half2 b) {
    return {__hsub(a.x, b.x), __hsub(a.y, b.y)};
}
inline __half2 __hmul2(__half2 a, __half2 b) {
    return {__hmul(a.x, b.x), __hmul(a.y, b.y)};
}
inline __half2 __h2div(__half2 a, __half2 b) {
    return {__hdiv(a.x, b.x), __hdiv(a.y, b.y)};
}
inline __half2 __hneg2(__half2 a) {
    return {__hneg(a.x), __hneg(a.y)};
}
inline __half2 __hfma2(__half2 a, __half2 b, __half2 c) {
    return {__hfma(a.x, b.x, c.x), __hfma(a.y, b.y, c.y)};
}

// The other half2 forms: each half on its own, as the __half function does it.
#define SIMT_HALF2_UNARY(name2, name)                                                              \
    inline __half2 name2(__half2 a) {                                                              \
        return {name(a.x), name(a.y)};                                                             \
    }
#define SIMT_HALF2_BINARY(name2, name)                                                             \
    inline __half2 name2(__half2 a, __half2 b) {                                                   \
        return {name(a.x, b.x), name(a.y, b.y)};                                                   \
    }
#define SIMT_HALF2_TERNARY(name2, name)                                                            \
    inline __half2 name2(__half2 a, __half2 b, __half2 c) {                                        \
        return {name(a.x, b.x, c.x), name(a.y, b.y, c.y)};                                         \
    }
SIMT_HALF2_BINARY(__hadd2_rn, __hadd_rn)
SIMT_HALF2_BINARY(__hsub2_rn, __hsub_rn)
SIMT_HALF2_BINARY(__hmul2_rn, __hmul_rn)
SIMT_HALF2_BINARY(__hadd2_sat, __hadd_sat)
SIMT_HALF2_BINARY(__hsub2_sat, __hsub_sat)
SIMT_HALF2_BINARY(__hmul2_sat, __hmul_sat)
SIMT_HALF2_TERNARY(__hfma2_sat, __hfma_sat)
SIMT_HALF2_TERNARY(__hfma2_relu, __hfma_relu)
SIMT_HALF2_BINARY(__hmax2, __hmax)
SIMT_HALF2_BINARY(__hmin2, __hmin)
SIMT_HALF2_BINARY(__hmax2_nan, __hmax_nan)
SIMT_HALF2_BINARY(__hmin2_nan, __hmin_nan)
SIMT_HALF2_UNARY(__habs2, __habs)
inline __half2 __hisnan2(__half2 a) {
    return {__half(__hisnan(a.x) ? 1.0f : 0.0f), __half(__hisnan(a.y) ? 1.0f : 0.0f)};
}

// half2 comparisons, for each of __heq ... __hgeu: __heq2 gives 1.0 or 0.0 per half, __hbeq2 true
// when both halves compare true, __heq2_mask 0xffff or 0 per half.
#define SIMT_HALF2_COMPARE(op)                                                                     \
    inline __half2 __h##op##2(__half2 a, __half2 b) {                                              \
        return {__half(__h##op(a.x, b.x) ? 1.0f : 0.0f), __half(__h##op(a.y, b.y) ? 1.0f : 0.0f)}; \
    }                                                                                              \
    inline bool __hb##op##2(__half2 a, __half2 b) {                                                \
        return __h##op(a.x, b.x) && __h##op(a.y, b.y);                                             \
    }                                                                                              \
    inline unsigned __h##op##2_mask(__half2 a, __half2 b) {                                        \
        return (__h##op(a.x, b.x) ? 0xffffu : 0u) | (__h##op(a.y, b.y) ? 0xffff0000u : 0u);        \
    }
SIMT_HALF2_COMPARE(eq)
SIMT_HALF2_COMPARE(ne)
SIMT_HALF2_COMPARE(lt)
SIMT_HALF2_COMPARE(le)
SIMT_HALF2_COMPARE(gt)
SIMT_HALF2_COMPARE(ge)
SIMT_HALF2_COMPARE(equ)
SIMT_HALF2_COMPARE(neu)
SIMT_HALF2_COMPARE(ltu)
SIMT_HALF2_COMPARE(leu)
SIMT_HALF2_COMPARE(gtu)
SIMT_HALF2_COMPARE(geu)
#undef SIMT_HALF2_COMPARE

// The math functions of cuda_fp16.h, each on __half (hexp) and __half2 (h2exp): computed in
// double, then rounded once to half (nearest even). A GPU gives the correctly rounded half, on
// every input an H200 was tried on; float, then half would be one ulp off on a few (hexp of
// 0.0073, hsin of 300: the float result rounds to a tie between two halves).
#define SIMT_HALF_MATH(name, name2, expr)                                                          \
    inline __half name(__half a) {                                                                 \
        const double x = float(a);                                                                 \
        return __half(static_cast<double>(expr));                                                  \
    }                                                                                              \
    SIMT_HALF2_UNARY(name2, name)
SIMT_HALF_MATH(hsqrt, h2sqrt, std::sqrt(x))
SIMT_HALF_MATH(hrsqrt, h2rsqrt, 1.0 / std::sqrt(x))
SIMT_HALF_MATH(hrcp, h2rcp, 1.0 / x)
SIMT_HALF_MATH(hexp, h2exp, std::exp(x))
SIMT_HALF_MATH(hexp2, h2exp2, std::exp2(x))
SIMT_HALF_MATH(hexp10, h2exp10, std::pow(10.0, x))
SIMT_HALF_MATH(hlog, h2log, std::log(x))
SIMT_HALF_MATH(hlog2, h2log2, std::log2(x))
SIMT_HALF_MATH(hlog10, h2log10, std::log10(x))
SIMT_HALF_MATH(hsin, h2sin, std::sin(x))
SIMT_HALF_MATH(hcos, h2cos, std::cos(x))
SIMT_HALF_MATH(hceil, h2ceil, std::ceil(x))
SIMT_HALF_MATH(hfloor, h2floor, std::floor(x))
SIMT_HALF_MATH(htrunc, h2trunc, std::trunc(x))
SIMT_HALF_MATH(hrint, h2rint, std::nearbyint(x)) // halfway cases to even
#undef SIMT_HALF_MATH
#undef SIMT_HALF2_UNARY
#undef SIMT_HALF2_BINARY
#undef SIMT_HALF2_TERNARY

// The operators CUDA defines on __half and __half2 (each one rounding, as the intrinsics).
inline __half operator+(__half a, __half b) {
    return __hadd(a, b);
}
inline __half operator-(__half a, __half b) {
    return __hsub(a, b);
}
inline __half operator*(__half a, __half b) {
    return __hmul(a, b);
}
inline __half operator/(__half a, __half b) {
    return __hdiv(a, b);
}
inline __half operator-(__half a) {
    return __hneg(a);
}
inline __half operator+(__half a) {
    return a;
}
inline __half& operator++(__half& a) {
    return a = a + __half(1.0f);
}
inline __half& operator--(__half& a) {
    return a = a - __half(1.0f);
}
inline __half operator++(__half& a, int) {
    const __half old = a;
    ++a;
    return old;
}
inline __half operator--(__half& a, int) {
    const __half old = a;
    --a;
    return old;
}
inline __half& operator+=(__half& a, __half b) {
    return a = a + b;
}
inline __half& operator-=(__half& a, __half b) {
    return a = a - b;
}
inline __half& operator*=(__half& a, __half b) {
    return a = a * b;
}
inline __half& operator/=(__half& a, __half b) {
    return a = a / b;
}
inline bool operator==(__half a, __half b) {
    return __heq(a, b);
}
inline bool operator!=(__half a, __half b) { // unordered, as in CUDA: true for NaN
    return __hneu(a, b);
}
inline bool operator<(__half a, __half b) {
    return __hlt(a, b);
}
inline bool operator<=(__half a, __half b) {
    return __hle(a, b);
}
inline bool operator>(__half a, __half b) {
    return __hgt(a, b);
}
inline bool operator>=(__half a, __half b) {
    return __hge(a, b);
}

inline __half2 operator+(__half2 a, __half2 b) {
    return __hadd2(a, b);
}
inline __half2 operator-(__half2 a, __half2 b) {
    return __hsub2(a, b);
}
inline __half2 operator*(__half2 a, __half2 b) {
    return __hmul2(a, b);
}
inline __half2 operator/(__half2 a, __half2 b) {
    return __h2div(a, b);
}
inline __half2 operator-(__half2 a) {
    return __hneg2(a);
}
inline __half2& operator+=(__half2& a, __half2 b) {
    return a = a + b;
}
inline __half2& operator-=(__half2& a, __half2 b) {
    return a = a - b;
}
inline __half2& operator*=(__half2& a, __half2 b) {
    return a = a * b;
}
inline __half2& operator/=(__half2& a, __half2 b) {
    return a = a / b;
}
inline __half2 operator+(__half2 a) {
    return a;
}
// As CUDA's: true when both halves compare true (!= unordered).
inline bool operator==(__half2 a, __half2 b) {
    return __hbeq2(a, b);
}
inline bool operator!=(__half2 a, __half2 b) {
    return __hbneu2(a, b);
}
inline bool operator<(__half2 a, __half2 b) {
    return __hblt2(a, b);
}
inline bool operator<=(__half2 a, __half2 b) {
    return __hble2(a, b);
}
inline bool operator>(__half2 a, __half2 b) {
    return __hbgt2(a, b);
}
inline bool operator>=(__half2 a, __half2 b) {
    return __hbge2(a, b);
}

// Atomics (compute capability 7.0 for __half, 6.0 for __half2), on global or shared memory, in
// atomics.cpp. Each is one atomic read-modify-write of its 2 (4) bytes, as on a GPU, where a
// __half2 add is one 32-bit atomic: nobody sees one half added without the other. Each half is
// rounded to nearest even, subnormals kept.
__half atomicAdd(__half* address, __half value);
__half2 atomicAdd(__half2* address, __half2 value);
