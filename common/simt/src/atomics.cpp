// Device atomics on global or shared memory. The access is checked and announced like any other
// (a scheduling point), then done in one step. A change of memory counts as progress; an atomic
// that leaves memory as it was (a failed CAS, atomicAdd(p, 0)) counts as polling, so that a
// spin-wait nobody will end is reported instead of hanging.
#include <cstring>
#include <type_traits>

#include "engine.h"
#include "simt/device.h"

namespace simt::detail {

template <class T, class Op>
T atomic_update(const char* name, T* address, const void* site, Op op) {
    Engine& e = engine_for(name);
    e.on_memory_access(reinterpret_cast<uintptr_t>(address), sizeof(T), AccessKind::atomic, false,
                       site);
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

#define SIMT_ATOMIC(ret, name, T, expr)                                                            \
    ret name(T* address, T value) {                                                                \
        return atomic_update(#name, address, __builtin_return_address(0),                          \
                             [value](T old) -> T { return expr; });                                \
    }
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

#define SIMT_ATOMIC_CAS(T)                                                                         \
    T atomicCAS(T* address, T compare, T value) {                                                  \
        return atomic_update("atomicCAS", address, __builtin_return_address(0),                    \
                             [compare, value](T old) -> T { return old == compare ? value : old; }); \
    }
SIMT_ATOMIC_CAS(int)
SIMT_ATOMIC_CAS(unsigned)
SIMT_ATOMIC_CAS(unsigned long long)
SIMT_ATOMIC_CAS(unsigned short)
#undef SIMT_ATOMIC_CAS
