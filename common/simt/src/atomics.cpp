// Device atomics on global or shared memory. The access is checked and announced like any other
// (a scheduling point), then done in one step. A change of memory counts as progress; an atomic
// that leaves memory as it was (a failed CAS, atomicAdd(p, 0)) counts as polling, so that a
// spin-wait nobody will end is reported instead of hanging.
#include <cstring>
#include <sstream>
#include <type_traits>

#include "engine.h"
#include "simt/device.h"
#include "simt/half.h"

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

// Half precision (cuda_fp16.h): one atomic of the 2 or 4 bytes; __hadd/__hadd2 round each half.
__half atomicAdd(__half* address, __half value) {
    return atomic_update("atomicAdd", address, __builtin_return_address(0),
                         [value](__half old) { return __hadd(old, value); });
}
__half2 atomicAdd(__half2* address, __half2 value) {
    return atomic_update("atomicAdd", address, __builtin_return_address(0),
                         [value](__half2 old) { return __hadd2(old, value); });
}

namespace simt::detail {
// float2/float4 atomicAdd (compute capability 9.0). CUDA makes the add atomic for each float on
// its own, not for the vector: another thread may see x added and y not yet. So each float is
// an atomic of its own here, in the order x, y, z, w, with a scheduling point before each, and
// the race checks see 4-byte atomics. As on a GPU the vector must be aligned to its size and lie
// in global memory: shared memory, or a thread's local variable, ends the launch with a report
// (an H200 ends it with cudaErrorLaunchFailure).
template <class V>
V vector_atomic_add(const char* name, V* address, V value, const void* site, MemoryScope scope) {
    constexpr int kFloats = sizeof(V) / sizeof(float);
    Engine& e = engine_for(name);
    Thread* me = e.current();
    const uintptr_t at = reinterpret_cast<uintptr_t>(address);
    const bool shared = at - me->block->shared_base() < me->block->shared_capacity;
    const bool local = at - me->stack_lo < me->stack_size;
    if (shared || local) [[unlikely]] {
        RuntimeScope runtime(me); // (the message's std::string work is the emulator's)
        std::ostringstream what;
        what << name << " on a float" << kFloats << " in "
             << (shared ? "shared memory (" + e.describe_shared_address(at) + ")"
                        : std::string("a local variable of the thread"))
             << ": CUDA's float2 and float4 atomicAdd work on global memory only";
        e.fault(FaultKind::illegal_address, cudaErrorLaunchFailure, what.str(), site);
    }
    if (at % sizeof(V) != 0) [[unlikely]] {
        RuntimeScope runtime(me);
        std::ostringstream what;
        what << name << " on a float" << kFloats << " at misaligned address 0x" << std::hex << at
             << std::dec << ": the vector must be aligned to its " << sizeof(V) << " bytes";
        e.fault(FaultKind::misaligned_address, cudaErrorMisalignedAddress, what.str(), site);
    }
    float* floats = reinterpret_cast<float*>(address);
    const float* add = reinterpret_cast<const float*>(&value);
    V old;
    float* olds = reinterpret_cast<float*>(&old);
    for (int i = 0; i < kFloats; ++i) {
        const float v = add[i];
        olds[i] = atomic_update(
            name, floats + i, site, [v](float f) { return f + v; }, scope);
    }
    return old;
}
} // namespace simt::detail

using simt::detail::vector_atomic_add;

#define SIMT_VECTOR_ATOMIC_ADD(V, suffix, scope)                                                   \
    V atomicAdd##suffix(V* address, V value) {                                                     \
        return vector_atomic_add("atomicAdd" #suffix, address, value, __builtin_return_address(0), \
                                 scope);                                                           \
    }
SIMT_VECTOR_ATOMIC_ADD(float2, , MemoryScope::device)
SIMT_VECTOR_ATOMIC_ADD(float2, _block, MemoryScope::block)
SIMT_VECTOR_ATOMIC_ADD(float2, _system, MemoryScope::system)
SIMT_VECTOR_ATOMIC_ADD(float4, , MemoryScope::device)
SIMT_VECTOR_ATOMIC_ADD(float4, _block, MemoryScope::block)
SIMT_VECTOR_ATOMIC_ADD(float4, _system, MemoryScope::system)
#undef SIMT_VECTOR_ATOMIC_ADD
