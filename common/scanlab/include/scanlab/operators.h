// Associative operators for generic scans.
//
// Following Sengupta, Harris, Garland and Owens, "Efficient Parallel Scan Algorithms for
// Many-core GPUs" (2011), a scan is written once against two static functions of an operator
// type `Op`:
//   Op::apply(a, b)  combines two values; `a` comes from EARLIER in the array than `b`.
//   Op::identity()   the value e with apply(e, x) == apply(x, e) == x; exclusive scans start with
//   it.
// Every operator here is associative, which is all a parallel scan needs: it may regroup the
// applications freely but must never reorder their operands.
#pragma once

#include <cuda_runtime.h> // defines __host__ / __device__ on both backends

#include <cstdint>
#include <limits>
#include <type_traits>

namespace scanlab {

namespace detail {
// Kept as constants, not calls, so device code never calls a host-only constexpr function.
template <class T>
inline constexpr T lowest_value = std::numeric_limits<T>::has_infinity
                                      ? -std::numeric_limits<T>::infinity()
                                      : std::numeric_limits<T>::lowest();
template <class T>
inline constexpr T highest_value = std::numeric_limits<T>::has_infinity
                                       ? std::numeric_limits<T>::infinity()
                                       : std::numeric_limits<T>::max();
} // namespace detail

/// a + b, identity 0 (prefix sums). Signed overflow is undefined behaviour: the tests pick inputs
/// that cannot overflow.
template <class T>
struct Sum {
    using value_type = T;
    static constexpr const char* name = "sum";
    static constexpr bool is_commutative = true;
    template <class U>
    using rebind = Sum<U>;

    __host__ __device__ static T identity() { return T(0); }
    __host__ __device__ static T apply(T a, T b) { return a + b; }
};

/// max(a, b), identity the lowest value of T (-infinity for floating point).
template <class T>
struct Max {
    using value_type = T;
    static constexpr const char* name = "max";
    static constexpr bool is_commutative = true;
    template <class U>
    using rebind = Max<U>;

    __host__ __device__ static T identity() { return detail::lowest_value<T>; }
    __host__ __device__ static T apply(T a, T b) { return a < b ? b : a; }
};

/// min(a, b), identity the highest value of T (+infinity for floating point).
template <class T>
struct Min {
    using value_type = T;
    static constexpr const char* name = "min";
    static constexpr bool is_commutative = true;
    template <class U>
    using rebind = Min<U>;

    __host__ __device__ static T identity() { return detail::highest_value<T>; }
    __host__ __device__ static T apply(T a, T b) { return b < a ? b : a; }
};

/// a * b, identity 1.
template <class T>
struct Product {
    using value_type = T;
    static constexpr const char* name = "product";
    static constexpr bool is_commutative = true;
    template <class U>
    using rebind = Product<U>;

    __host__ __device__ static T identity() { return T(1); }
    __host__ __device__ static T apply(T a, T b) { return a * b; }
};

/// Composition of affine maps f(x) = s*x + c modulo 2^h, where h is half the bits of T
/// (h = 16 for 32-bit T, h = 32 for 64-bit T). One value of T packs one map:
///     high half = slope s, low half = offset c.
/// apply(f, g) means "f first, then g", i.e. the map x -> g(f(x)):
///     slope  = f.s * g.s
///     offset = g.s * f.c + g.c          (both mod 2^h)
/// Composing functions is associative but NOT commutative, so this operator catches scans that
/// swap the operands of apply or combine elements out of order, which sum/max/min/product hide.
/// The identity is the map x -> x (s = 1, c = 0). The arithmetic runs on the unsigned type of the
/// same width, where wrap-around is well defined.
template <class T>
struct Affine {
    static_assert(std::is_integral_v<T> && (sizeof(T) == 4 || sizeof(T) == 8),
                  "Affine packs two halves into a 32- or 64-bit integer");
    using value_type = T;
    using Bits = std::make_unsigned_t<T>;
    static constexpr const char* name = "affine";
    static constexpr bool is_commutative = false;
    static constexpr int kHalfBits = 4 * static_cast<int>(sizeof(T));
    static constexpr Bits kHalfMask = (Bits(1) << kHalfBits) - 1;

    /// Packs the map x -> slope*x + offset (each taken mod 2^h).
    __host__ __device__ static T make(Bits slope, Bits offset) {
        return static_cast<T>(((slope & kHalfMask) << kHalfBits) | (offset & kHalfMask));
    }
    __host__ __device__ static Bits slope(T f) { return static_cast<Bits>(f) >> kHalfBits; }
    __host__ __device__ static Bits offset(T f) { return static_cast<Bits>(f) & kHalfMask; }
    /// f(x) mod 2^h.
    __host__ __device__ static Bits eval(T f, Bits x) {
        return (slope(f) * x + offset(f)) & kHalfMask;
    }

    __host__ __device__ static T identity() { return make(1, 0); }
    __host__ __device__ static T apply(T f, T g) {
        return make(slope(f) * slope(g), slope(g) * offset(f) + offset(g));
    }
};

} // namespace scanlab
