// GpuHold (gpu_hold.h): the spinning kernel and the mapped flags it reads.
#include "gpu_hold.h"

#include <scanlab/cuda_check.h>

#include <cuda_runtime.h>

#include <atomic>
#include <cstdint>

namespace scanlab::bench {

namespace {

// Long enough for the host to enqueue any batch (64 calls of a few launches each take well under
// a millisecond); short enough that a batch whose calls block the host costs little.
constexpr unsigned long long kHoldLimitNs = 200'000'000;

__device__ unsigned long long global_ns() {
    unsigned long long ns;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(ns));
    return ns;
}

__global__ void hold_kernel(const volatile std::uint32_t* release, std::uint32_t ticket,
                            std::uint32_t* timed_out) {
    const unsigned long long start = global_ns();
    // Ticket arithmetic modulo 2^32: "released" is release - ticket < 2^31.
    while (static_cast<std::int32_t>(*release - ticket) < 0) {
        if (global_ns() - start > kHoldLimitNs) {
            *timed_out = 1;
            return;
        }
        __nanosleep(2000);
    }
}

} // namespace

GpuHold::GpuHold() {
    void* release = nullptr;
    void* timed_out = nullptr;
    SCANLAB_CUDA_CHECK(cudaHostAlloc(&release, 2 * sizeof(std::uint32_t), cudaHostAllocMapped));
    release_host_ = static_cast<volatile std::uint32_t*>(release);
    timed_out = static_cast<std::uint32_t*>(release) + 1;
    timed_out_host_ = static_cast<std::uint32_t*>(timed_out);
    *release_host_ = 0;
    *timed_out_host_ = 0;
    SCANLAB_CUDA_CHECK(
        cudaHostGetDevicePointer(reinterpret_cast<void**>(&release_device_), release, 0));
    timed_out_device_ = release_device_ + 1;
}

GpuHold::~GpuHold() {
    (void)cudaFreeHost(const_cast<std::uint32_t*>(release_host_));
}

std::uint32_t GpuHold::hold() {
    const std::uint32_t ticket = ++next_ticket_;
    hold_kernel<<<1, 1>>>(release_device_, ticket, timed_out_device_);
    SCANLAB_CUDA_CHECK(cudaGetLastError());
    return ticket;
}

void GpuHold::release(std::uint32_t ticket) {
    std::atomic_thread_fence(std::memory_order_seq_cst); // every enqueue happens before this
    *release_host_ = ticket;
}

bool GpuHold::timed_out() {
    const bool out = *const_cast<volatile std::uint32_t*>(timed_out_host_) != 0;
    *timed_out_host_ = 0;
    return out;
}

} // namespace scanlab::bench
