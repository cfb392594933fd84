// Device builtins: thread coordinates, barriers, warp intrinsics, fences. Each one that
// synchronizes is a scheduling point. __builtin_return_address(0) is the call site in the kernel.
#include <chrono>
#include <stdexcept>

#include "engine.h"
#include "simt/device.h"
#include "simt/shared.h"

namespace simt::detail {

[[noreturn]] void outside_kernel(const char* what) {
    throw std::logic_error(std::string(what) +
                           " used outside a kernel: it only exists in device code");
}

bool loop_points_on = false;

void loop_point(int end_line, int end_order) {
    Engine* e = active_engine();
    if (e && e->current()) e->loop_point(__builtin_return_address(0), end_line, end_order);
}

uint3 thread_idx() {
    return engine_for("threadIdx").current()->idx;
}
uint3 block_idx() {
    return engine_for("blockIdx").current()->block->idx;
}
dim3 block_dim() {
    return engine_for("blockDim").request().block;
}
dim3 grid_dim() {
    return engine_for("gridDim").request().grid;
}

uint64_t shuffle(ShuffleKind kind, unsigned mask, uint64_t bits, int arg, int width,
                 int value_code) {
    Engine& engine = engine_for("__shfl*_sync");
    engine.current()->coll_value_code = value_code; // for a trace's shuffles
    return engine.collective(CollectiveKind::shuffle, mask, bits, arg, kind, width,
                             __builtin_return_address(0));
}

void* shared_variable_storage(const SharedSite& site, size_t bytes, size_t align,
                              ElementInfo element, const SharedExtents& extents) {
    return engine_for("__shared__").shared_variable(site, bytes, align, element, extents);
}
void* dynamic_shared_base(ElementInfo element) {
    return engine_for("extern __shared__").dynamic_shared_base(element);
}
void carve_shared(uintptr_t start, const char* name) {
    engine_for("extern __shared__").carve(start, name, __builtin_return_address(0));
}
void check_carved_shared(uintptr_t pointer, long long index, size_t element_bytes,
                         const char* name) {
    engine_for("extern __shared__")
        .check_carved(pointer, index, element_bytes, name, __builtin_return_address(0));
}

} // namespace simt::detail

using simt::detail::CollectiveKind;
using simt::detail::engine_for;
using simt::detail::ShuffleKind;

void __syncthreads() {
    engine_for("__syncthreads").syncthreads(__builtin_return_address(0), 0, 0, nullptr);
}
int __syncthreads_count(int predicate) {
    int r = 0;
    engine_for("__syncthreads_count").syncthreads(__builtin_return_address(0), 1, predicate, &r);
    return r;
}
int __syncthreads_and(int predicate) {
    int r = 0;
    engine_for("__syncthreads_and").syncthreads(__builtin_return_address(0), 2, predicate, &r);
    return r;
}
int __syncthreads_or(int predicate) {
    int r = 0;
    engine_for("__syncthreads_or").syncthreads(__builtin_return_address(0), 3, predicate, &r);
    return r;
}
void __syncwarp(unsigned mask) {
    engine_for("__syncwarp")
        .collective(CollectiveKind::syncwarp, mask, 0, 0, ShuffleKind::index, 32,
                    __builtin_return_address(0));
}
unsigned __ballot_sync(unsigned mask, int predicate) {
    return static_cast<unsigned>(engine_for("__ballot_sync")
                                     .collective(CollectiveKind::ballot, mask, predicate != 0, 0,
                                                 ShuffleKind::index, 32,
                                                 __builtin_return_address(0)));
}
int __any_sync(unsigned mask, int predicate) {
    return static_cast<int>(engine_for("__any_sync")
                                .collective(CollectiveKind::any, mask, predicate != 0, 0,
                                            ShuffleKind::index, 32, __builtin_return_address(0)));
}
int __all_sync(unsigned mask, int predicate) {
    return static_cast<int>(engine_for("__all_sync")
                                .collective(CollectiveKind::all, mask, predicate != 0, 0,
                                            ShuffleKind::index, 32, __builtin_return_address(0)));
}
unsigned __activemask() {
    return engine_for("__activemask").activemask(__builtin_return_address(0));
}

// Fences order memory for the global-memory checks (and relaxed visibility), by scope.
using simt::detail::MemoryScope;
void __threadfence() {
    engine_for("__threadfence").fence_point(__builtin_return_address(0), MemoryScope::device);
}
void __threadfence_block() {
    engine_for("__threadfence_block").fence_point(__builtin_return_address(0), MemoryScope::block);
}
void __threadfence_system() {
    engine_for("__threadfence_system")
        .fence_point(__builtin_return_address(0), MemoryScope::system);
}
void __nanosleep(unsigned) {
    engine_for("__nanosleep").sleep_point(__builtin_return_address(0));
}

long long clock64() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

void __trap() {
    simt::detail::Engine& engine = engine_for("__trap");
    simt::detail::RuntimeScope scope(
        engine.current()); // the message's std::string is runtime work (below)
    engine.fault(simt::FaultKind::trap, cudaErrorLaunchFailure, "__trap() was called",
                 __builtin_return_address(0));
}

void simt::detail::unsupported(const char* feature) {
    Engine& engine = engine_for(feature);
    // The message is built as runtime work: the std::string code it runs may be the copy the
    // linker took from an instrumented kernel file, whose accesses the checks must not see.
    RuntimeScope scope(engine.current());
    std::string what = feature;
    what += " is not supported by the simt emulator";
    engine.fault(simt::FaultKind::unsupported, cudaErrorNotSupported, what,
                 __builtin_return_address(0));
}
