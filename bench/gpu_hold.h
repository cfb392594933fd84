// GpuHold: keeps the GPU waiting while the host enqueues a timed batch, so that the events around
// the batch measure GPU time, not how fast the host issues launches.
//
// Without it, a batch of short calls runs as fast as the host enqueues them: at small n the GPU
// idles between kernels and a "time per call" is host launch overhead. With it, the stream holds
// a one-thread kernel that spins on a flag in mapped host memory; the host enqueues the start
// event, the calls and the end event behind it, then raises the flag, and the GPU runs the whole
// batch back to back from its queue.
#pragma once

#include <cstdint>

namespace scanlab::bench {

class GpuHold {
  public:
    GpuHold();
    ~GpuHold();
    GpuHold(const GpuHold&) = delete;
    GpuHold& operator=(const GpuHold&) = delete;

    /// Enqueues the spinning kernel on the legacy default stream; returns its ticket.
    std::uint32_t hold();
    /// Lets every kernel enqueued by hold() up to `ticket` finish.
    void release(std::uint32_t ticket);
    /// True if a held kernel gave up waiting (the host did not release it within the time limit,
    /// e.g. because the batch's calls waited for the GPU themselves): that batch's time is
    /// not GPU time. Reading it clears it; call after the stream has synchronized.
    bool timed_out();

  private:
    volatile std::uint32_t* release_host_ = nullptr; // mapped, written by the host
    std::uint32_t* release_device_ = nullptr;        // the same memory as the GPU sees it
    std::uint32_t* timed_out_host_ = nullptr;
    std::uint32_t* timed_out_device_ = nullptr;
    std::uint32_t next_ticket_ = 0;
};

} // namespace scanlab::bench
