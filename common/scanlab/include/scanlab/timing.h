// Times GPU work with CUDA events: they are stamped on the GPU's own timeline, so the result is
// the time between start() and stop() on the stream, not host time spent launching.
#pragma once

#include "cuda_check.h"

#include <cuda_runtime.h>

namespace scanlab {

/// GpuTimer t; t.start(); kernel<<<...>>>(...); t.stop(); float ms = t.elapsed_ms();
class GpuTimer {
  public:
    explicit GpuTimer(cudaStream_t stream = nullptr) : stream_(stream) {
        SCANLAB_CUDA_CHECK(cudaEventCreate(&start_));
        try {
            SCANLAB_CUDA_CHECK(cudaEventCreate(&stop_));
        } catch (...) {
            (void)cudaEventDestroy(start_);
            throw;
        }
    }
    GpuTimer(const GpuTimer&) = delete;
    GpuTimer& operator=(const GpuTimer&) = delete;
    ~GpuTimer() {
        (void)cudaEventDestroy(start_);
        (void)cudaEventDestroy(stop_);
    }

    void start() { SCANLAB_CUDA_CHECK(cudaEventRecord(start_, stream_)); }
    void stop() { SCANLAB_CUDA_CHECK(cudaEventRecord(stop_, stream_)); }

    /// Milliseconds between the last start() and stop(); waits for the stop event to complete.
    float elapsed_ms() const {
        SCANLAB_CUDA_CHECK(cudaEventSynchronize(stop_));
        float ms = 0.0f;
        SCANLAB_CUDA_CHECK(cudaEventElapsedTime(&ms, start_, stop_));
        return ms;
    }

  private:
    cudaStream_t stream_;
    cudaEvent_t start_ = nullptr;
    cudaEvent_t stop_ = nullptr;
};

} // namespace scanlab
