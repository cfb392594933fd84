// Stand-ins for the simt runtime names that simt-rewrite emits, and for the few CUDA keywords
// the compat headers define, so rewrite_test.cpp can compile rewritten output with
// -fsyntax-only without the real runtime. Declarations only: nothing here runs.
#pragma once

#include <cstddef>
#include <type_traits>

#define __global__
#define __device__
#define __host__
#define __constant__
#define __forceinline__ inline
#define __align__(n) alignas(n)

struct dim3 {
    unsigned x, y, z;
    constexpr dim3(unsigned x_ = 1, unsigned y_ = 1, unsigned z_ = 1) : x(x_), y(y_), z(z_) {}
};
using cudaStream_t = struct CUstream_st*;
struct FakeIndex {
    unsigned x, y, z;
};
extern const FakeIndex threadIdx, blockIdx, blockDim, gridDim;
void __syncthreads();

namespace simt {

struct SharedSite {
    const char* name;
    const char* file;
    int line;
    int align;
};

template <class T>
T& shared_variable(SharedSite site);

template <class T>
struct DynamicShared {
    constexpr DynamicShared() = default;
    T& operator[](std::size_t i) const;
    operator T*() const;
};

struct SymbolRegistration {
    SymbolRegistration(const volatile void* address, std::size_t bytes, const char* name,
                       const char* file, int line);
};

template <class... Params>
struct Launcher {
    void operator()(Params... args) const;
};

template <class... Params>
Launcher<Params...> launch(void (*kernel)(Params...), dim3 grid, dim3 block, std::size_t smem = 0,
                           cudaStream_t stream = 0);

// Defined (trivially): Ref is a lambda, a local type, which a declared-only function may not use.
template <class Ref>
struct TemplateLauncher {
    template <class... Args>
    void operator()(Args&&...) const {}
};

template <class Ref>
TemplateLauncher<Ref> launch_template(Ref, dim3, dim3, std::size_t = 0, cudaStream_t = 0) {
    return {};
}
template <class Ref, class Call>
TemplateLauncher<Ref> launch_template(Ref, const Call&, dim3, dim3, std::size_t = 0,
                                      cudaStream_t = 0) {
    return {};
}

namespace detail {

// As in simt/device.h: a compiler barrier, nothing in a constant expression (the arguments say
// where the loop ends).
constexpr bool loop_tick(int = 0, int = 0) {
    if (!std::is_constant_evaluated()) asm volatile("" ::: "memory");
    return true;
}

} // namespace detail

template <class P>
P carve(P pointer, const char*) {
    return pointer;
}
template <class T, class I>
I carved_index(T*, I index, const char*) {
    return index;
}

} // namespace simt
