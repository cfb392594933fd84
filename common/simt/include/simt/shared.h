// Shared memory on the simt backend. The rewriter turns `__shared__ float buf[256];` into a
// reference to per-block storage that the runtime owns (`shared_variable`), and
// `extern __shared__ T smem[];` into a DynamicShared<T> that finds the launch's dynamic shared
// memory of the running block. Both are looked up through the thread that runs, so every block
// sees its own copy, as on a GPU.
#pragma once

#include <cstddef>
#include <type_traits>

#include "simt/value_types.h"

namespace simt {

// Where a __shared__ variable is declared: its identity inside a block and the name in reports.
struct SharedSite {
    const char* name;
    const char* file;
    int line;
    int align;
};

struct SymbolRegistration {
    SymbolRegistration(const volatile void* address, size_t bytes, const char* name,
                       const char* file, int line);
};

// The extents of a __shared__ array, outermost first (rank 0 for a scalar), so that reports can
// name the element an access hits: "s[32][0]". Arrays of more than four dimensions have rank 0
// here (their elements are named by their flat index).
struct SharedExtents {
    unsigned rank = 0;
    size_t extent[4] = {};
};

template <class T>
constexpr SharedExtents shared_extents() {
    SharedExtents e;
    if constexpr (std::rank_v < T >> 4) return e;
    e.rank = static_cast<unsigned>(std::rank_v<T>);
    if constexpr (std::rank_v<T> >= 1) e.extent[0] = std::extent_v<T, 0>;
    if constexpr (std::rank_v<T> >= 2) e.extent[1] = std::extent_v<T, 1>;
    if constexpr (std::rank_v<T> >= 3) e.extent[2] = std::extent_v<T, 2>;
    if constexpr (std::rank_v<T> >= 4) e.extent[3] = std::extent_v<T, 3>;
    return e;
}

namespace detail {
void* shared_variable_storage(const SharedSite& site, size_t bytes, size_t align,
                              ElementInfo element, const SharedExtents& extents);
void* dynamic_shared_base(ElementInfo element);
void carve_shared(uintptr_t start, const char* name);
void check_carved_shared(uintptr_t pointer, long long index, size_t element_bytes,
                         const char* name);
} // namespace detail

// Arrays carved out of the dynamic shared memory. The rewriter turns `T* b = smem + n;` (an
// initializer made of the extern __shared__ array, earlier carved pointers, the function's
// parameters, literals, casts and blockDim/gridDim) into `T* b = ::simt::carve(smem + n, "b");`
// and each later `b[i]` into `b[::simt::carved_index(b, (i), "b")]`, so that an index that runs
// from one carved array into the next is reported as out of bounds of the first (a GPU lays
// them back to back). Always inlined: the runtime finds the statement by its return address.
template <class P>
[[gnu::always_inline]] inline P carve(P pointer, const char* name) {
    if constexpr (std::is_pointer_v<P>)
        detail::carve_shared(reinterpret_cast<uintptr_t>(pointer), name);
    else if constexpr (requires { pointer.get(); })
        detail::carve_shared(reinterpret_cast<uintptr_t>(pointer.get()), name);
    return pointer;
}

template <class T, class I>
[[gnu::always_inline]] inline I carved_index(T* pointer, I index, const char* name) {
    detail::check_carved_shared(reinterpret_cast<uintptr_t>(pointer), static_cast<long long>(index),
                                sizeof(T), name);
    return index;
}

template <class T>
T& shared_variable(SharedSite site) {
    // Keyed by site and size: one device-function template may declare the same variable for
    // several types.
    constexpr size_t natural = alignof(std::remove_all_extents_t<std::remove_cv_t<T>>);
    size_t align = site.align > 0 ? static_cast<size_t>(site.align) : natural;
    static constexpr SharedExtents extents = shared_extents<T>(); // (not built on every call)
    return *static_cast<T*>(detail::shared_variable_storage(site, sizeof(T), align,
                                                            detail::element_info<T>(), extents));
}

template <class T>
struct DynamicShared {
    constexpr DynamicShared() = default;
    T* get() const {
        return static_cast<T*>(detail::dynamic_shared_base(detail::element_info<T>()));
    }
    operator T*() const { return get(); }
    template <class I>
    requires std::is_integral_v<I> T& operator[](I index) const { return get()[index]; }
};

} // namespace simt
