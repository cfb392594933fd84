// The device heap on the simt backend: malloc/free and new/delete in device code. simt-rewrite
// turns them, in __global__ and __device__ function bodies, into the calls below
// (rewrite/device_heap.cpp): `malloc(n)` -> `::simt::device_malloc(n)`, `free(p)` ->
// `::simt::device_free(p)`, `new T...` -> `new (::simt::device_heap) T...`, `delete p` ->
// `::simt::DeviceDelete{} ->* p` and `delete[] p` -> `::simt::DeviceDeleteArray{} ->* p` (`->*`
// binds a cast-expression, as delete does, so the operand needs no parsing). The heap has
// cudaLimitMallocHeapSize bytes (8 MiB unless set before its first use); an allocation that
// does not fit returns a null pointer, as on a GPU. Each allocation is a region of device memory
// for the emulator's checks (src/device_heap.cpp).
#pragma once

#include <cstddef>
#include <type_traits>

namespace simt {

struct DeviceHeapTag {};
inline constexpr DeviceHeapTag device_heap{};

namespace detail {
// Not inlined: their return address is the call site in the kernel. `how` names the call for
// reports ("free", "delete", "delete[]").
void device_heap_release(void* p, const char* how);
// delete[] of a T with a destructor: the number of elements of the array new[] made at p (the
// allocation holds an array cookie of at most `cookie_max` bytes before p), and freeing it.
std::size_t device_heap_array_count(const void* p, std::size_t element_bytes,
                                    std::size_t cookie_max);
void device_heap_release_array(void* p, std::size_t cookie_max);
} // namespace detail

void* device_malloc(std::size_t bytes);
void device_free(void* p);

// `delete p`: runs the destructor (virtual ones too), then frees the whole object.
struct DeviceDelete {
    template <class T>
    [[gnu::always_inline]] inline void operator->*(T* p) const {
        if (!p) return;
        if constexpr (std::is_void_v<T>) {
            detail::device_heap_release(const_cast<void*>(static_cast<const volatile void*>(p)),
                                        "delete");
        } else {
            void* whole;
            if constexpr (std::is_polymorphic_v<T>)
                whole = const_cast<void*>(dynamic_cast<const volatile void*>(p));
            else
                whole = const_cast<void*>(static_cast<const volatile void*>(p));
            p->~T();
            detail::device_heap_release(whole, "delete");
        }
    }
};

// `delete[] p`: runs the elements' destructors, last first, then frees the array.
struct DeviceDeleteArray {
    template <class T>
    [[gnu::always_inline]] inline void operator->*(T* p) const {
        if (!p) return;
        void* raw = const_cast<void*>(static_cast<const volatile void*>(p));
        if constexpr (std::is_void_v<T> || std::is_trivially_destructible_v<T>) {
            detail::device_heap_release(raw, "delete[]");
        } else {
            constexpr std::size_t cookie =
                2 * sizeof(std::size_t) > alignof(T) ? 2 * sizeof(std::size_t) : alignof(T);
            for (std::size_t i = detail::device_heap_array_count(raw, sizeof(T), cookie); i-- > 0;)
                p[i].~T();
            detail::device_heap_release_array(raw, cookie);
        }
    }
};

} // namespace simt

// The device heap's allocation functions: non-throwing, so a new-expression whose allocation
// does not fit yields a null pointer and constructs nothing, as on a GPU.
void* operator new(std::size_t bytes, simt::DeviceHeapTag) noexcept;
void* operator new[](std::size_t bytes, simt::DeviceHeapTag) noexcept;
// Called only when a constructor throws (kernels do not; kept for the language's pairing).
void operator delete(void* p, simt::DeviceHeapTag) noexcept;
void operator delete[](void* p, simt::DeviceHeapTag) noexcept;
