// Device atomics on global or shared memory. The access is checked and announced like any other
// (a scheduling point), then done in one step. A change of memory counts as progress; an atomic
// that leaves memory as it was (a failed CAS, atomicAdd(p, 0)) counts as polling, so that a
// spin-wait nobody will end is reported instead of hanging.
#include <cstring>
#include <type_traits>

#include "engine.h"
#include "simt/device.h"

namespace simt::detail {

// Scope: atomicAdd is atomic across the device, atomicAdd_block only among the threads of one
// block (the global-memory checks report two blocks sharing a word through it), atomicAdd_system
// also with the host (the same as device here).
template <class T, class Op>
T atomic_update(const char* name, T* address, const void* site, Op op,
                MemoryScope scope = MemoryScope::device) {
    Engine& e = engine_for(name);
    e.set_atomic_scope(scope);
    const bool exchange = std::strncmp(name, "atomicExch", 10) == 0;
    const bool compare = std::strncmp(name, "atomicCAS", 9) == 0;
    if (exchange) e.note_exchange(true);
    if (compare) e.note_compare_and_swap(true);
    e.on_memory_access(reinterpret_cast<uintptr_t>(address), sizeof(T), AccessKind::atomic, false,
                       site);
    if (exchange) e.note_exchange(false);
    if (compare) e.note_compare_and_swap(false);
    e.set_atomic_scope(MemoryScope::device);
    T old;
    std::memcpy(&old, address, sizeof(T));
    T updated = op(old);
    if (std::memcmp(&old, &updated, sizeof(T)) != 0) {
        std::memcpy(address, &updated, sizeof(T));
        e.note_progress();
    } else {
        e.poll_point(site);
    }
    return old;
}
} // namespace simt::detail

using simt::detail::atomic_update;
using simt::detail::MemoryScope;

#define SIMT_ATOMIC_SCOPED(ret, name, T, expr, suffix, scope)                                      \
    ret name##suffix(T* address, T value) {                                                        \
        return atomic_update(#name #suffix, address, __builtin_return_address(0),                  \
                             [value](T old) -> T { return expr; }, scope);                         \
    }
#define SIMT_ATOMIC(ret, name, T, expr)                                                            \
    SIMT_ATOMIC_SCOPED(ret, name, T, expr, , MemoryScope::device)                                  \
    SIMT_ATOMIC_SCOPED(ret, name, T, expr, _block, MemoryScope::block)                             \
    SIMT_ATOMIC_SCOPED(ret, name, T, expr, _system, MemoryScope::system)
SIMT_ATOMIC(int, atomicAdd, int, static_cast<int>(static_cast<unsigned>(old) + static_cast<unsigned>(value)))
SIMT_ATOMIC(unsigned, atomicAdd, unsigned, old + value)
SIMT_ATOMIC(unsigned long long, atomicAdd, unsigned long long, old + value)
SIMT_ATOMIC(float, atomicAdd, float, old + value)
SIMT_ATOMIC(double, atomicAdd, double, old + value)
SIMT_ATOMIC(int, atomicSub, int, static_cast<int>(static_cast<unsigned>(old) - static_cast<unsigned>(value)))
SIMT_ATOMIC(unsigned, atomicSub, unsigned, old - value)
SIMT_ATOMIC(int, atomicExch, int, ((void)old, value))
SIMT_ATOMIC(unsigned, atomicExch, unsigned, ((void)old, value))
SIMT_ATOMIC(unsigned long long, atomicExch, unsigned long long, ((void)old, value))
SIMT_ATOMIC(float, atomicExch, float, ((void)old, value))
SIMT_ATOMIC(int, atomicMin, int, value < old ? value : old)
SIMT_ATOMIC(unsigned, atomicMin, unsigned, value < old ? value : old)
SIMT_ATOMIC(long long, atomicMin, long long, value < old ? value : old)
SIMT_ATOMIC(unsigned long long, atomicMin, unsigned long long, value < old ? value : old)
SIMT_ATOMIC(int, atomicMax, int, value > old ? value : old)
SIMT_ATOMIC(unsigned, atomicMax, unsigned, value > old ? value : old)
SIMT_ATOMIC(long long, atomicMax, long long, value > old ? value : old)
SIMT_ATOMIC(unsigned long long, atomicMax, unsigned long long, value > old ? value : old)
SIMT_ATOMIC(unsigned, atomicInc, unsigned, old >= value ? 0u : old + 1)
SIMT_ATOMIC(unsigned, atomicDec, unsigned, (old == 0 || old > value) ? value : old - 1)
SIMT_ATOMIC(int, atomicAnd, int, old & value)
SIMT_ATOMIC(unsigned, atomicAnd, unsigned, old & value)
SIMT_ATOMIC(unsigned long long, atomicAnd, unsigned long long, old & value)
SIMT_ATOMIC(int, atomicOr, int, old | value)
SIMT_ATOMIC(unsigned, atomicOr, unsigned, old | value)
SIMT_ATOMIC(unsigned long long, atomicOr, unsigned long long, old | value)
SIMT_ATOMIC(int, atomicXor, int, old ^ value)
SIMT_ATOMIC(unsigned, atomicXor, unsigned, old ^ value)
SIMT_ATOMIC(unsigned long long, atomicXor, unsigned long long, old ^ value)
#undef SIMT_ATOMIC
#undef SIMT_ATOMIC_SCOPED

#define SIMT_ATOMIC_CAS(T, suffix, scope)                                                          \
    T atomicCAS##suffix(T* address, T compare, T value) {                                          \
        return atomic_update(                                                                      \
            "atomicCAS" #suffix, address, __builtin_return_address(0),                             \
            [compare, value](T old) -> T { return old == compare ? value : old; }, scope);         \
    }
#define SIMT_ATOMIC_CAS_SCOPES(T)                                                                  \
    SIMT_ATOMIC_CAS(T, , MemoryScope::device)                                                      \
    SIMT_ATOMIC_CAS(T, _block, MemoryScope::block)                                                 \
    SIMT_ATOMIC_CAS(T, _system, MemoryScope::system)
SIMT_ATOMIC_CAS_SCOPES(int)
SIMT_ATOMIC_CAS_SCOPES(unsigned)
SIMT_ATOMIC_CAS_SCOPES(unsigned long long)
SIMT_ATOMIC_CAS_SCOPES(unsigned short)
#undef SIMT_ATOMIC_CAS_SCOPES
#undef SIMT_ATOMIC_CAS
