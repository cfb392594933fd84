// Launches through cudaLaunchCooperativeKernel / cudaLaunchKernel (simt/launch_api.h), and the
// state a cooperative launch gives its kernel: the word that this_grid().sync() counts arrivals
// in (cooperative_groups.h).
#include <algorithm>
#include <string>

#include "cooperative_launch.h"
#include "device_lock.h"
#include "error_state.h"
#include "simt/launch_api.h"
#include "simt/options.h"
#include "simt/runtime_api.h"

namespace simt::detail {
namespace {
// Set by launch_by_pointer for the one launch it makes; taken (and cleared) by run_launch.
thread_local bool t_cooperative_next = false;
// The running cooperative launch's barrier word, or nullptr.
unsigned* g_grid_word = nullptr;
} // namespace

cudaError_t launch_by_pointer(bool cooperative, void (*launch)(void*), void* context) {
    const DeviceLock device_lock; // the error state read before and after is this launch's
    ErrorState& s = error_state();
    if (s.sticky != cudaSuccess) return s.sticky;
    const cudaError_t before = s.last;
    s.last = cudaSuccess;
    t_cooperative_next = cooperative;
    launch(context);
    t_cooperative_next = false;
    const cudaError_t result = s.last;
    if (result == cudaSuccess) {
        s.last = before;
        return cudaSuccess;
    }
    // A configuration the launch refused is its return value; a fault while the kernel ran is
    // asynchronous in CUDA: the launch itself succeeded, and later calls return the fault.
    return s.sticky == cudaSuccess ? result : cudaSuccess;
}

cudaError_t refuse_untyped_launch(const char* call) {
    if (!call)
        return api_error(cudaErrorInvalidValue, "cudaLaunchCooperativeKernel/cudaLaunchKernel",
                         "the kernel has parameters and args is null");
    return api_error(cudaErrorNotSupported, call,
                     "the kernel was passed as a plain pointer (void*), and the simt emulator "
                     "needs its parameter types to copy the arguments: pass the kernel function "
                     "itself (simtcc drops a (void*) cast written in the call)");
}

bool take_cooperative_request() {
    const bool cooperative = t_cooperative_next;
    t_cooperative_next = false;
    return cooperative;
}

unsigned co_resident_blocks(const LaunchRequest& r) {
    int per_sm = 0;
    simt_occupancy_max_active_blocks(&per_sm, r.kernel,
                                     static_cast<int>(r.block.x * r.block.y * r.block.z),
                                     r.dynamic_shared_bytes);
    return static_cast<unsigned>(std::max(per_sm, 1) * std::max(1, options().multiprocessors));
}

GridBarrier::GridBarrier(bool cooperative) {
    if (!cooperative) return;
    void* p = nullptr;
    if (cudaMalloc(&p, sizeof(unsigned)) != cudaSuccess) return;
    cudaMemset(p, 0, sizeof(unsigned));
    word_ = static_cast<unsigned*>(p);
    g_grid_word = word_;
}

GridBarrier::~GridBarrier() {
    if (!word_) return;
    g_grid_word = nullptr;
    cudaFree(word_);
}

unsigned* grid_barrier_word() {
    return g_grid_word;
}

} // namespace simt::detail
