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

// The thread whose kernel code made the access, or null outside a kernel (host code in the
// same .cu, or the runtime's own use of an instrumented inline function).
simt::detail::Engine* kernel_engine() {
    simt::detail::Engine* e = active_engine();
    if (!e) return nullptr;
    simt::detail::Thread* t = e->current();
    return t && !t->in_runtime ? e : nullptr;
}

// The largest power of two, at most 16 and at most `left`, that `at` is aligned to: the pieces
// a GPU compiler would access a range of that alignment with.
size_t natural_piece(uintptr_t at, size_t left) {
    size_t piece = 16;
    while (piece > left || (at & (piece - 1)) != 0) piece >>= 1;
    return piece;
}

// An access the compiler knows may be less aligned than its size (a packed member, or adjacent
// stores merged into one, as clang merges two 8-byte stores into an unaligned 16-byte one), or
// a range of any size: seen as the naturally aligned pieces a GPU would make of it. The source
// accesses were each aligned to their own size, and a GPU compiler that cannot prove a wider
// alignment does not widen them, so no piece is ever misaligned.
[[gnu::noinline]] void access_pieces(const void* address, size_t bytes, AccessKind kind,
                                     bool is_volatile, const void* site) {
    simt::detail::Engine* e = kernel_engine();
    if (!e) return;
    const uintptr_t start = reinterpret_cast<uintptr_t>(address);
    for (size_t done = 0; done < bytes;) {
        const size_t piece = natural_piece(start + done, bytes - done);
        e->on_memory_access(start + done, piece, kind, is_volatile, site);
        done += piece;
    }
}

// clang's instrumentation takes a 16-byte access aligned to 8 for aligned (tsan's shadow words
// are 8 bytes) and calls __tsan_read16/__tsan_write16 for it, as for the two merged 8-byte
// loads of a struct copy; such an access is the two 8-byte ones it was made of. Not aligned to 8
// even, it is misaligned in the source and reported.
template <size_t Bytes, AccessKind Kind, bool Volatile>
[[gnu::noinline]] void access16(const void* address, const void* site) {
    static_assert(Bytes == 16, "the 16-byte hooks only");
    if ((reinterpret_cast<uintptr_t>(address) & 15) == 8) {
        access<8, Kind, Volatile>(address, site);
        return access<8, Kind, Volatile>(static_cast<const char*>(address) + 8, site);
    }
    return access<16, Kind, Volatile>(address, site);
}

template <size_t Bytes, AccessKind Kind, bool Volatile>
[[gnu::noinline]] void unaligned_access(const void* address, const void* site) {
    if ((reinterpret_cast<uintptr_t>(address) & (Bytes - 1)) == 0)
        return access<Bytes, Kind, Volatile>(address, site);
    access_pieces(address, Bytes, Kind, Volatile, site);
}

// memcpy and memmove that clang's instrumentation routes through the hooks (struct copies
// among them), as a GPU would copy: a load of each naturally aligned piece, then its store,
// each checked right before it happens (so a relaxed-visibility old value shown to the load is
// what gets copied). Backwards when the destination overlaps the source's end (memmove).
void copy_in_pieces(void* destination, const void* source, size_t bytes, const void* site) {
    simt::detail::Engine* e = kernel_engine();
    if (!e) {
        __builtin_memmove(destination, source, bytes);
        return;
    }
    const auto to = reinterpret_cast<uintptr_t>(destination);
    const auto from = reinterpret_cast<uintptr_t>(source);
    const bool backwards = to > from && to - from < bytes;
    for (size_t done = 0; done < bytes;) {
        const size_t left = bytes - done;
        // Forwards a piece starts at `done`; backwards it ends at `left`.
        const size_t piece = natural_piece(
            backwards ? (to + left) | (from + left) : (to + done) | (from + done), left);
        const size_t at = backwards ? left - piece : done;
        unsigned char loaded[16];
        e->on_memory_access(from + at, piece, AccessKind::read, false, site);
        __builtin_memcpy(loaded, reinterpret_cast<const void*>(from + at), piece);
        e->on_memory_access(to + at, piece, AccessKind::write, false, site);
        __builtin_memcpy(reinterpret_cast<void*>(to + at), loaded, piece);
        done += piece;
    }
}

void fill_in_pieces(void* destination, int value, size_t bytes, const void* site) {
    simt::detail::Engine* e = kernel_engine();
    if (!e) {
        __builtin_memset(destination, value, bytes);
        return;
    }
    auto* to = static_cast<unsigned char*>(destination);
    for (size_t done = 0; done < bytes;) {
        const size_t piece = natural_piece(reinterpret_cast<uintptr_t>(to + done), bytes - done);
        e->on_memory_access(reinterpret_cast<uintptr_t>(to + done), piece, AccessKind::write, false,
                            site);
        __builtin_memset(to + done, value, piece);
        done += piece;
    }
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

// A strong compare-and-swap (the weak one never fails spuriously here); `expected` gets the
// value seen. Progress only when it stored a different value.
template <class T>
bool compare_exchange(volatile T* a, T* expected, T v, const void* site) {
    simt::detail::Engine* e = active_engine();
    if (e) e->note_compare_and_swap(true);
    AtomicScope<T> s(a, site);
    if (e) e->note_compare_and_swap(false);
    const T want = *expected;
    const bool ok =
        __atomic_compare_exchange_n(a, expected, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
    s.done(ok && want != v);
    return ok;
}

} // namespace

extern "C" {

void __tsan_init() {}
void __tsan_func_entry(void* caller) {
    simt::detail::enter_call(caller);
}
void __tsan_func_exit() {
    simt::detail::leave_call();
}
// A constructor's or destructor's store of an object's vtable pointer, and (clang) a virtual
// call's load of it: 8-byte accesses like any (an object that device code made with new or
// placement new is then written before its virtual calls read it).
void __tsan_vptr_update(void** p, void*) {
    access<sizeof(void*), AccessKind::write, false>(p, __builtin_return_address(0));
}
void __tsan_vptr_read(void** p) {
    access<sizeof(void*), AccessKind::read, false>(p, __builtin_return_address(0));
}

// One hook: checks the access of `p` with the checker given (access, access16 or unaligned_access
// with its arguments), the site being the instrumented code that called the hook.
#define SIMT_HOOK(NAME, ...)                                                                       \
    void NAME(void* p) {                                                                           \
        __VA_ARGS__(p, __builtin_return_address(0));                                               \
    }
// The read and the write hook of one size and kind (PREFIX: nothing, volatile_, unaligned_, ...).
#define SIMT_HOOK_PAIR(PREFIX, N, CHECK, VOLATILE)                                                 \
    SIMT_HOOK(__tsan_##PREFIX##read##N, CHECK<N, AccessKind::read, VOLATILE>)                      \
    SIMT_HOOK(__tsan_##PREFIX##write##N, CHECK<N, AccessKind::write, VOLATILE>)
// All hooks of one size; ALIGNED checks the aligned accesses (16 bytes have their own).
#define SIMT_HOOKS(N, ALIGNED)                                                                     \
    SIMT_HOOK_PAIR(, N, ALIGNED, false)                                                            \
    SIMT_HOOK_PAIR(volatile_, N, ALIGNED, true)                                                    \
    SIMT_HOOK_PAIR(unaligned_, N, unaligned_access, false)                                         \
    SIMT_HOOK_PAIR(unaligned_volatile_, N, unaligned_access, true)
SIMT_HOOKS(1, access)
SIMT_HOOKS(2, access)
SIMT_HOOKS(4, access)
SIMT_HOOKS(8, access)
SIMT_HOOKS(16, access16)
#undef SIMT_HOOKS
#undef SIMT_HOOK_PAIR
#undef SIMT_HOOK

void __tsan_read_range(void* p, unsigned long size) {
    access_pieces(p, size, AccessKind::read, false, __builtin_return_address(0));
}
void __tsan_write_range(void* p, unsigned long size) {
    access_pieces(p, size, AccessKind::write, false, __builtin_return_address(0));
}

void* __tsan_memcpy(void* destination, const void* source, unsigned long size) {
    copy_in_pieces(destination, source, size, __builtin_return_address(0));
    return destination;
}
void* __tsan_memmove(void* destination, const void* source, unsigned long size) {
    copy_in_pieces(destination, source, size, __builtin_return_address(0));
    return destination;
}
void* __tsan_memset(void* destination, int value, unsigned long size) {
    fill_in_pieces(destination, value, size, __builtin_return_address(0));
    return destination;
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
        return compare_exchange(a, expected, v, __builtin_return_address(0));                      \
    }                                                                                              \
    int __tsan_atomic##BITS##_compare_exchange_weak(volatile T* a, T* expected, T v, int, int) {   \
        return compare_exchange(a, expected, v, __builtin_return_address(0));                      \
    }                                                                                              \
    T __tsan_atomic##BITS##_compare_exchange_val(volatile T* a, T expected, T v, int, int) {       \
        compare_exchange(a, &expected, v, __builtin_return_address(0));                            \
        return expected;                                                                           \
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
