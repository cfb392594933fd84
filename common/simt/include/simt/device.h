// Device-side builtins on the simt backend: thread coordinates, barriers, warp intrinsics,
// atomics, fences. Each call into the runtime is a scheduling point of the emulator. Runtime
// functions find their call site through their return address, so they must be called directly
// from the kernel (the wrappers here are always inlined).
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "simt/types.h"
#include "simt/value_types.h"

namespace simt::detail {
// By value: a returned uint3 lives in registers, so reading .x is not a memory access that the
// access hooks would have to classify.
uint3 thread_idx();
uint3 block_idx();
dim3 block_dim();
dim3 grid_dim();

enum class ShuffleKind : int { index, up, down, xor_ };
// Not inlined: their return address is the call site in the kernel.
// value_code: the value's type for traces (ElementInfo::code, simt/value_types.h).
uint64_t shuffle(ShuffleKind kind, unsigned mask, uint64_t bits, int arg, int width,
                 int value_code);

template <class T>
constexpr bool shufflable = std::is_arithmetic_v<T> && (sizeof(T) == 4 || sizeof(T) == 8);
} // namespace simt::detail

namespace simt::detail {
// True while a launch runs in lockstep: loop conditions are scheduling points then.
extern bool loop_points_on;
// A loop condition reached in lockstep, whose loop body ends at end_line, order end_order.
void loop_point(int end_line, int end_order);

// Reads loop_points_on without an instrumented load (kernel code may not touch host memory).
[[gnu::always_inline]] inline bool loop_points_wanted() {
#if defined(__x86_64__)
    unsigned char on;
    asm volatile("movzbl %1, %k0" : "=r"(on) : "m"(loop_points_on));
    return on != 0;
#elif defined(__aarch64__)
    unsigned char on;
    asm volatile("ldrb %w0, %1" : "=r"(on) : "m"(loop_points_on));
    return on != 0;
#else
    return true; // loop_point() finds out
#endif
}

// The rewriter puts loop_tick(where the loop's body ends: line, column) at the head of every loop
// condition in a .cu file (`while (loop_tick(12, 5) && (cond))`). It is a compiler barrier (an
// empty asm that may touch any memory), so a loop that polls memory through a plain pointer
// reloads it every iteration, as the emulator must see to report the spin (nvcc may keep such a
// load in a register and spin forever). In lockstep it is also where a lane's step ends, so that
// lanes meet at the loop's test (code_order.h); otherwise it costs a load and a branch. In a
// constant expression it does nothing.
[[gnu::always_inline]] constexpr bool loop_tick(int end_line = 0, int end_order = 0) {
    if (!std::is_constant_evaluated()) {
        asm volatile("" ::: "memory");
        if (loop_points_wanted()) [[unlikely]]
            loop_point(end_line, end_order);
    }
    return true;
}
} // namespace simt::detail

#define threadIdx (::simt::detail::thread_idx())
#define blockIdx (::simt::detail::block_idx())
#define blockDim (::simt::detail::block_dim())
#define gridDim (::simt::detail::grid_dim())
inline constexpr int warpSize = 32;

// Barriers and fences.
void __syncthreads();
int __syncthreads_count(int predicate);
int __syncthreads_and(int predicate);
int __syncthreads_or(int predicate);
void __syncwarp(unsigned mask = 0xffffffffu);
void __threadfence();
void __threadfence_block();
void __threadfence_system();
void __nanosleep(unsigned ns);
long long clock64(); // clock() is the C library's, as it is in CUDA device code
[[noreturn]] void __trap();
namespace simt::detail {
// Ends the launch with an "unsupported feature" fault that names `feature` (for device-side APIs
// whose use can only be seen at run time, e.g. a grid-wide sync). Call it directly from the
// user's code or from an always-inlined wrapper: the report names the caller's line.
[[noreturn]] void unsupported(const char* feature);
} // namespace simt::detail

// Warp vote.
unsigned __ballot_sync(unsigned mask, int predicate);
int __any_sync(unsigned mask, int predicate);
int __all_sync(unsigned mask, int predicate);
unsigned __activemask();

// Warp shuffles, for the types CUDA supports.
#define SIMT_SHUFFLE(name, kind, argname)                                                          \
    template <class T>                                                                             \
    __attribute__((always_inline)) inline T name(unsigned mask, T var, int argname,                \
                                                 int width = 32) {                                 \
        static_assert(::simt::detail::shufflable<T>,                                               \
                      #name " supports int, unsigned, long long, unsigned long long, float and "   \
                            "double on the simt backend");                                         \
        uint64_t bits = 0;                                                                         \
        std::memcpy(&bits, &var, sizeof(T));                                                       \
        bits = ::simt::detail::shuffle(::simt::detail::ShuffleKind::kind, mask, bits, argname,     \
                                       width, ::simt::detail::element_info<T>().code);             \
        T out;                                                                                     \
        std::memcpy(&out, &bits, sizeof(T));                                                       \
        return out;                                                                                \
    }
SIMT_SHUFFLE(__shfl_sync, index, srcLane)
SIMT_SHUFFLE(__shfl_up_sync, up, delta)
SIMT_SHUFFLE(__shfl_down_sync, down, delta)
SIMT_SHUFFLE(__shfl_xor_sync, xor_, laneMask)
#undef SIMT_SHUFFLE

// Atomics (global or shared memory), with CUDA's overloads, each in three scopes: atomicAdd is
// atomic across the device, atomicAdd_block only among the threads of one block, and
// atomicAdd_system also with the host (the same as device here).
#define SIMT_SCOPED_ATOMIC(ret, name, params)                                                      \
    ret name params;                                                                               \
    ret name##_block params;                                                                       \
    ret name##_system params;
SIMT_SCOPED_ATOMIC(int, atomicAdd, (int* address, int value))
SIMT_SCOPED_ATOMIC(unsigned, atomicAdd, (unsigned* address, unsigned value))
SIMT_SCOPED_ATOMIC(unsigned long long, atomicAdd,
                   (unsigned long long* address, unsigned long long value))
SIMT_SCOPED_ATOMIC(float, atomicAdd, (float* address, float value))
SIMT_SCOPED_ATOMIC(double, atomicAdd, (double* address, double value))
// Compute capability 9.0, global memory only: atomic per float, not as a vector (atomics.cpp).
SIMT_SCOPED_ATOMIC(float2, atomicAdd, (float2* address, float2 value))
SIMT_SCOPED_ATOMIC(float4, atomicAdd, (float4* address, float4 value))
SIMT_SCOPED_ATOMIC(int, atomicSub, (int* address, int value))
SIMT_SCOPED_ATOMIC(unsigned, atomicSub, (unsigned* address, unsigned value))
SIMT_SCOPED_ATOMIC(int, atomicExch, (int* address, int value))
SIMT_SCOPED_ATOMIC(unsigned, atomicExch, (unsigned* address, unsigned value))
SIMT_SCOPED_ATOMIC(unsigned long long, atomicExch,
                   (unsigned long long* address, unsigned long long value))
SIMT_SCOPED_ATOMIC(float, atomicExch, (float* address, float value))
SIMT_SCOPED_ATOMIC(int, atomicMin, (int* address, int value))
SIMT_SCOPED_ATOMIC(unsigned, atomicMin, (unsigned* address, unsigned value))
SIMT_SCOPED_ATOMIC(long long, atomicMin, (long long* address, long long value))
SIMT_SCOPED_ATOMIC(unsigned long long, atomicMin,
                   (unsigned long long* address, unsigned long long value))
SIMT_SCOPED_ATOMIC(int, atomicMax, (int* address, int value))
SIMT_SCOPED_ATOMIC(unsigned, atomicMax, (unsigned* address, unsigned value))
SIMT_SCOPED_ATOMIC(long long, atomicMax, (long long* address, long long value))
SIMT_SCOPED_ATOMIC(unsigned long long, atomicMax,
                   (unsigned long long* address, unsigned long long value))
SIMT_SCOPED_ATOMIC(unsigned, atomicInc, (unsigned* address, unsigned limit))
SIMT_SCOPED_ATOMIC(unsigned, atomicDec, (unsigned* address, unsigned limit))
SIMT_SCOPED_ATOMIC(int, atomicCAS, (int* address, int compare, int value))
SIMT_SCOPED_ATOMIC(unsigned, atomicCAS, (unsigned* address, unsigned compare, unsigned value))
SIMT_SCOPED_ATOMIC(unsigned long long, atomicCAS,
                   (unsigned long long* address, unsigned long long compare,
                    unsigned long long value))
SIMT_SCOPED_ATOMIC(unsigned short, atomicCAS,
                   (unsigned short* address, unsigned short compare, unsigned short value))
SIMT_SCOPED_ATOMIC(int, atomicAnd, (int* address, int value))
SIMT_SCOPED_ATOMIC(unsigned, atomicAnd, (unsigned* address, unsigned value))
SIMT_SCOPED_ATOMIC(unsigned long long, atomicAnd,
                   (unsigned long long* address, unsigned long long value))
SIMT_SCOPED_ATOMIC(int, atomicOr, (int* address, int value))
SIMT_SCOPED_ATOMIC(unsigned, atomicOr, (unsigned* address, unsigned value))
SIMT_SCOPED_ATOMIC(unsigned long long, atomicOr,
                   (unsigned long long* address, unsigned long long value))
SIMT_SCOPED_ATOMIC(int, atomicXor, (int* address, int value))
SIMT_SCOPED_ATOMIC(unsigned, atomicXor, (unsigned* address, unsigned value))
SIMT_SCOPED_ATOMIC(unsigned long long, atomicXor,
                   (unsigned long long* address, unsigned long long value))
#undef SIMT_SCOPED_ATOMIC

// CUDA has no atomicMax/atomicMin on float or double: say so instead of g++'s list of candidates.
// The value's type is not deduced, so that a program's own atomicMax(float*, float) (a CAS loop)
// is still the one called, as with nvcc.
#define SIMT_NO_FLOAT_ATOMIC(name)                                                                 \
    template <class T>                                                                             \
        requires std::is_floating_point_v<T>                                                       \
    T name(T* address, std::type_identity_t<T> value) {                                            \
        static_assert(sizeof(T) == 0, #name " on float or double does not exist in CUDA (only "   \
                                            "on int, unsigned, long long and unsigned long long): " \
                                            "write it as an atomicCAS loop");                      \
        (void)address;                                                                             \
        return value;                                                                              \
    }
SIMT_NO_FLOAT_ATOMIC(atomicMax)
SIMT_NO_FLOAT_ATOMIC(atomicMax_block)
SIMT_NO_FLOAT_ATOMIC(atomicMax_system)
SIMT_NO_FLOAT_ATOMIC(atomicMin)
SIMT_NO_FLOAT_ATOMIC(atomicMin_block)
SIMT_NO_FLOAT_ATOMIC(atomicMin_system)
#undef SIMT_NO_FLOAT_ATOMIC

// Integer intrinsics (pure functions, no scheduling).
inline int __popc(unsigned x) {
    return __builtin_popcount(x);
}
inline int __popcll(unsigned long long x) {
    return __builtin_popcountll(x);
}
inline int __clz(int x) {
    return x == 0 ? 32 : __builtin_clz(static_cast<unsigned>(x));
}
inline int __clzll(long long x) {
    return x == 0 ? 64 : __builtin_clzll(static_cast<unsigned long long>(x));
}
inline int __ffs(int x) {
    return __builtin_ffs(x);
}
inline int __ffsll(long long x) {
    return __builtin_ffsll(x);
}
inline unsigned __brev(unsigned x) {
    unsigned r = 0;
    for (int i = 0; i < 32; ++i) r |= ((x >> i) & 1u) << (31 - i);
    return r;
}
inline unsigned __funnelshift_l(unsigned lo, unsigned hi, unsigned shift) {
    uint64_t v = (uint64_t(hi) << 32) | lo;
    return static_cast<unsigned>((v << (shift & 31)) >> 32);
}
inline unsigned __funnelshift_r(unsigned lo, unsigned hi, unsigned shift) {
    uint64_t v = (uint64_t(hi) << 32) | lo;
    return static_cast<unsigned>(v >> (shift & 31));
}
// Cache-hinted loads and stores: the hint changes where a GPU caches the data, not what the
// access means, so they are plain accesses here (the memory checks treat them as such), except
// __ldcv ("fetch again, do not cache"), which behaves like a volatile load.
#define SIMT_PLAIN_LOAD(name)                                                                      \
    template <class T>                                                                             \
    __attribute__((always_inline)) inline T name(const T* p) {                                     \
        return *p;                                                                                 \
    }
#define SIMT_PLAIN_STORE(name)                                                                     \
    template <class T>                                                                             \
    __attribute__((always_inline)) inline void name(T* p, T v) {                                   \
        *p = v;                                                                                    \
    }
SIMT_PLAIN_LOAD(__ldg)
SIMT_PLAIN_LOAD(__ldca)
SIMT_PLAIN_LOAD(__ldcg)
SIMT_PLAIN_LOAD(__ldcs)
SIMT_PLAIN_LOAD(__ldlu)
SIMT_PLAIN_STORE(__stwb)
SIMT_PLAIN_STORE(__stcg)
SIMT_PLAIN_STORE(__stcs)
SIMT_PLAIN_STORE(__stwt)
#undef SIMT_PLAIN_LOAD
#undef SIMT_PLAIN_STORE
template <class T>
__attribute__((always_inline)) inline T __ldcv(const T* p) {
    if constexpr (std::is_arithmetic_v<T>)
        return *const_cast<const volatile T*>(p);
    else
        return *p;
}

// CUDA's global min/max overloads for device code.
inline int min(int a, int b) {
    return a < b ? a : b;
}
inline unsigned min(unsigned a, unsigned b) {
    return a < b ? a : b;
}
inline unsigned min(int a, unsigned b) {
    return min(static_cast<unsigned>(a), b);
}
inline unsigned min(unsigned a, int b) {
    return min(a, static_cast<unsigned>(b));
}
inline long long min(long long a, long long b) {
    return a < b ? a : b;
}
inline unsigned long long min(unsigned long long a, unsigned long long b) {
    return a < b ? a : b;
}
inline float min(float a, float b) {
    return a < b ? a : b;
}
inline double min(double a, double b) {
    return a < b ? a : b;
}
inline int max(int a, int b) {
    return a > b ? a : b;
}
inline unsigned max(unsigned a, unsigned b) {
    return a > b ? a : b;
}
inline unsigned max(int a, unsigned b) {
    return max(static_cast<unsigned>(a), b);
}
inline unsigned max(unsigned a, int b) {
    return max(a, static_cast<unsigned>(b));
}
inline long long max(long long a, long long b) {
    return a > b ? a : b;
}
inline unsigned long long max(unsigned long long a, unsigned long long b) {
    return a > b ? a : b;
}
inline float max(float a, float b) {
    return a > b ? a : b;
}
inline double max(double a, double b) {
    return a > b ? a : b;
}
// The integer min/max functions of CUDA's math API under their own names.
inline unsigned umin(unsigned a, unsigned b) {
    return a < b ? a : b;
}
inline unsigned umax(unsigned a, unsigned b) {
    return a > b ? a : b;
}
inline long long llmin(long long a, long long b) {
    return a < b ? a : b;
}
inline long long llmax(long long a, long long b) {
    return a > b ? a : b;
}
inline unsigned long long ullmin(unsigned long long a, unsigned long long b) {
    return a < b ? a : b;
}
inline unsigned long long ullmax(unsigned long long a, unsigned long long b) {
    return a > b ? a : b;
}

// 24-bit multiplies: the low 32 bits of the product of the operands' low 24 bits (sign-extended
// for __mul24), as the hardware computes them.
inline int __mul24(int a, int b) {
    const auto low24 = [](int v) {
        return static_cast<long long>(static_cast<int>(static_cast<unsigned>(v) << 8) >> 8);
    };
    return static_cast<int>(static_cast<unsigned long long>(low24(a) * low24(b)));
}
inline unsigned __umul24(unsigned a, unsigned b) {
    return static_cast<unsigned>(static_cast<unsigned long long>(a & 0xFFFFFFu) * (b & 0xFFFFFFu));
}
