// Half precision (cuda_fp16.h) on the simt emulator: __half and __half2 with CUDA's layout
// (2 and 4 bytes, IEEE binary16), conversions that round to nearest even as the GPU's do, and
// the arithmetic CUDA defines on them. Each operation computes in float (fma in double) and
// rounds once to half: float holds more than twice half's precision, so for + - * / the result
// is the correctly rounded one a GPU gives. Not here: the half shuffles, atomics and math
// functions (hexp, hsin, ...).
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

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
    __half(double d) : __half(static_cast<float>(d)) {}
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
    return __half(
        static_cast<float>(std::fma(double(float(a)), double(float(b)), double(float(c)))));
}
inline __half hsqrt(__half a) {
    return __half(std::sqrt(float(a)));
}
inline bool __heq(__half a, __half b) {
    return float(a) == float(b);
}
inline bool __hne(__half a, __half b) {
    return float(a) != float(b);
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
inline bool __hisnan(__half a) {
    return std::isnan(float(a));
}
inline __half __hmax(__half a, __half b) {
    return __half(std::fmax(float(a), float(b)));
}
inline __half __hmin(__half a, __half b) {
    return __half(std::fmin(float(a), float(b)));
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
inline bool operator!=(__half a, __half b) {
    return __hne(a, b);
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
