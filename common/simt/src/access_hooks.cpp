// How the emulator sees kernel memory accesses: kernel sources are compiled with
// -fsanitize=thread, which makes the compiler call __tsan_read4(addr), __tsan_write8(addr),
// __tsan_atomic32_fetch_add(...) and friends around every load, store and atomic. This file
// defines those functions itself (libtsan is never linked), so every access of device code reaches
// the engine with its address, size, kind and call site, and no proxy types are needed in student
// code. Outside a kernel (host code in the same .cu file) the hooks return at once.
#include <cstdint>

#include "engine.h"

using simt::detail::AccessKind;
using simt::detail::active_engine;

namespace {

// The engine's hot path inlined once per kind of access (size, read or write, volatile), so
// that what the hook knows is known to the compiler; the hooks tail-call these.
template <size_t Bytes, AccessKind Kind, bool Volatile>
[[gnu::noinline, gnu::hot]] void access(const void* address, const void* site) {
    simt::detail::Engine* e = active_engine();
    if (!e) return;
    simt::detail::Thread* t = e->current();
    if (!t || t->in_runtime) return;
    e->on_memory_access(reinterpret_cast<uintptr_t>(address), Bytes, Kind, Volatile, site);
}

// Ranges (memcpy-like accesses of any size).
[[gnu::noinline]] void access_range(const void* address, size_t bytes, AccessKind kind,
                                    const void* site) {
    simt::detail::Engine* e = active_engine();
    if (!e) return;
    simt::detail::Thread* t = e->current();
    if (!t || t->in_runtime) return;
    e->on_memory_access(reinterpret_cast<uintptr_t>(address), bytes, kind, false, site);
}

// Atomics from std::atomic / __atomic builtins in kernel code: checked like any access; what
// counts as progress follows atomics.cpp.
template <class T>
struct AtomicScope {
    simt::detail::Engine* e;
    const volatile T* a;
    const void* site;
    AtomicScope(const volatile T* address, const void* call_site)
        : e(active_engine()), a(address), site(call_site) {
        if (e && (!e->current() || e->current()->in_runtime)) e = nullptr;
        if (e)
            e->on_memory_access(reinterpret_cast<uintptr_t>(address), sizeof(T), AccessKind::atomic,
                                false, site);
    }
    void done(bool changed) {
        if (!e) return;
        if (changed)
            e->note_progress();
        else
            e->poll_point(site);
    }
};

} // namespace

extern "C" {

void __tsan_init() {}
void __tsan_func_entry(void* caller) {
    simt::detail::enter_call(caller);
}
void __tsan_func_exit() {
    simt::detail::leave_call();
}
void __tsan_vptr_update(void**, void*) {}
void __tsan_vptr_read(void**) {}

#define SIMT_HOOKS(N)                                                                              \
    void __tsan_read##N(void* p) {                                                                 \
        access<N, AccessKind::read, false>(p, __builtin_return_address(0));                        \
    }                                                                                              \
    void __tsan_write##N(void* p) {                                                                \
        access<N, AccessKind::write, false>(p, __builtin_return_address(0));                       \
    }                                                                                              \
    void __tsan_unaligned_read##N(void* p) {                                                       \
        access<N, AccessKind::read, false>(p, __builtin_return_address(0));                        \
    }                                                                                              \
    void __tsan_unaligned_write##N(void* p) {                                                      \
        access<N, AccessKind::write, false>(p, __builtin_return_address(0));                       \
    }                                                                                              \
    void __tsan_volatile_read##N(void* p) {                                                        \
        access<N, AccessKind::read, true>(p, __builtin_return_address(0));                         \
    }                                                                                              \
    void __tsan_volatile_write##N(void* p) {                                                       \
        access<N, AccessKind::write, true>(p, __builtin_return_address(0));                        \
    }                                                                                              \
    void __tsan_unaligned_volatile_read##N(void* p) {                                              \
        access<N, AccessKind::read, true>(p, __builtin_return_address(0));                         \
    }                                                                                              \
    void __tsan_unaligned_volatile_write##N(void* p) {                                             \
        access<N, AccessKind::write, true>(p, __builtin_return_address(0));                        \
    }
SIMT_HOOKS(1)
SIMT_HOOKS(2)
SIMT_HOOKS(4)
SIMT_HOOKS(8)
SIMT_HOOKS(16)
#undef SIMT_HOOKS

void __tsan_read_range(void* p, unsigned long size) {
    access_range(p, size, AccessKind::read, __builtin_return_address(0));
}
void __tsan_write_range(void* p, unsigned long size) {
    access_range(p, size, AccessKind::write, __builtin_return_address(0));
}

void __tsan_atomic_thread_fence(int) {
    simt::detail::Engine* e = active_engine();
    if (e && e->current() && !e->current()->in_runtime)
        e->fence_point(__builtin_return_address(0), simt::detail::MemoryScope::system);
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
}
void __tsan_atomic_signal_fence(int) {
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
}

#define SIMT_ATOMIC_HOOKS(BITS, T)                                                                 \
    T __tsan_atomic##BITS##_load(const volatile T* a, int) {                                       \
        AtomicScope<T> s(a, __builtin_return_address(0));                                          \
        T v = __atomic_load_n(a, __ATOMIC_SEQ_CST);                                                \
        s.done(false);                                                                             \
        return v;                                                                                  \
    }                                                                                              \
    void __tsan_atomic##BITS##_store(volatile T* a, T v, int) {                                    \
        AtomicScope<T> s(a, __builtin_return_address(0));                                          \
        __atomic_store_n(a, v, __ATOMIC_SEQ_CST);                                                  \
        s.done(true);                                                                              \
    }                                                                                              \
    T __tsan_atomic##BITS##_exchange(volatile T* a, T v, int) {                                    \
        AtomicScope<T> s(a, __builtin_return_address(0));                                          \
        T old = __atomic_exchange_n(a, v, __ATOMIC_SEQ_CST);                                       \
        s.done(old != v);                                                                          \
        return old;                                                                                \
    }                                                                                              \
    SIMT_ATOMIC_RMW(BITS, T, fetch_add, __atomic_fetch_add)                                        \
    SIMT_ATOMIC_RMW(BITS, T, fetch_sub, __atomic_fetch_sub)                                        \
    SIMT_ATOMIC_RMW(BITS, T, fetch_and, __atomic_fetch_and)                                        \
    SIMT_ATOMIC_RMW(BITS, T, fetch_or, __atomic_fetch_or)                                          \
    SIMT_ATOMIC_RMW(BITS, T, fetch_xor, __atomic_fetch_xor)                                        \
    SIMT_ATOMIC_RMW(BITS, T, fetch_nand, __atomic_fetch_nand)                                      \
    int __tsan_atomic##BITS##_compare_exchange_strong(volatile T* a, T* expected, T v, int, int) { \
        AtomicScope<T> s(a, __builtin_return_address(0));                                          \
        T want = *expected;                                                                        \
        bool ok = __atomic_compare_exchange_n(a, expected, v, false, __ATOMIC_SEQ_CST,             \
                                              __ATOMIC_SEQ_CST);                                   \
        s.done(ok&& want != v);                                                                    \
        return ok;                                                                                 \
    }                                                                                              \
    int __tsan_atomic##BITS##_compare_exchange_weak(volatile T* a, T* expected, T v, int, int) {   \
        AtomicScope<T> s(a, __builtin_return_address(0));                                          \
        T want = *expected;                                                                        \
        bool ok = __atomic_compare_exchange_n(a, expected, v, false, __ATOMIC_SEQ_CST,             \
                                              __ATOMIC_SEQ_CST);                                   \
        s.done(ok&& want != v);                                                                    \
        return ok;                                                                                 \
    }                                                                                              \
    T __tsan_atomic##BITS##_compare_exchange_val(volatile T* a, T expected, T v, int, int) {       \
        AtomicScope<T> s(a, __builtin_return_address(0));                                          \
        T seen = expected;                                                                         \
        bool ok =                                                                                  \
            __atomic_compare_exchange_n(a, &seen, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);   \
        s.done(ok&& expected != v);                                                                \
        return seen;                                                                               \
    }
#define SIMT_ATOMIC_RMW(BITS, T, NAME, BUILTIN)                                                    \
    T __tsan_atomic##BITS##_##NAME(volatile T* a, T v, int) {                                      \
        AtomicScope<T> s(a, __builtin_return_address(0));                                          \
        T old = BUILTIN(a, v, __ATOMIC_SEQ_CST);                                                   \
        s.done(__atomic_load_n(a, __ATOMIC_SEQ_CST) != old);                                       \
        return old;                                                                                \
    }
SIMT_ATOMIC_HOOKS(8, char)
SIMT_ATOMIC_HOOKS(16, short)
SIMT_ATOMIC_HOOKS(32, int)
SIMT_ATOMIC_HOOKS(64, long)
#undef SIMT_ATOMIC_HOOKS
#undef SIMT_ATOMIC_RMW

} // extern "C"
