// An owning array in device memory: cudaMalloc in the constructor, cudaFree in the destructor.
#pragma once

#include "cuda_check.h"

#include <cuda_runtime.h>

#include <cstddef>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace scanlab {

/// Move-only, like std::unique_ptr: two owners would free the memory twice.
/// An empty buffer holds no allocation and data() is nullptr.
template <class T>
class DeviceBuffer {
  public:
    DeviceBuffer() = default;

    /// `count` uninitialized elements.
    explicit DeviceBuffer(std::size_t count) : size_(count) {
        if (count > 0) SCANLAB_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&data_), bytes()));
    }

    /// A copy of `host` on the device.
    explicit DeviceBuffer(std::span<const T> host) : DeviceBuffer(host.size()) { upload(host); }
    explicit DeviceBuffer(const std::vector<T>& host) : DeviceBuffer(std::span<const T>(host)) {}

    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;

    DeviceBuffer(DeviceBuffer&& other) noexcept
        : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)) {}
    DeviceBuffer& operator=(DeviceBuffer&& other) noexcept {
        if (this != &other) {
            release();
            data_ = std::exchange(other.data_, nullptr);
            size_ = std::exchange(other.size_, 0);
        }
        return *this;
    }

    ~DeviceBuffer() { release(); }

    T* data() { return data_; }
    const T* data() const { return data_; }
    std::size_t size() const { return size_; }
    std::size_t bytes() const { return size_ * sizeof(T); }
    bool empty() const { return size_ == 0; }

    /// Copies host -> device; `host` must have exactly size() elements.
    void upload(std::span<const T> host) {
        check_size(host.size(), "upload");
        if (size_ > 0)
            SCANLAB_CUDA_CHECK(cudaMemcpy(data_, host.data(), bytes(), cudaMemcpyHostToDevice));
    }
    void upload(const std::vector<T>& host) { upload(std::span<const T>(host)); }

    /// Copies device -> host; `host` must have exactly size() elements.
    void download(std::span<T> host) const {
        check_size(host.size(), "download");
        if (size_ > 0)
            SCANLAB_CUDA_CHECK(cudaMemcpy(host.data(), data_, bytes(), cudaMemcpyDeviceToHost));
    }
    std::vector<T> download() const {
        std::vector<T> host(size_);
        download(std::span<T>(host));
        return host;
    }

  private:
    void check_size(std::size_t host_size, const char* what) const {
        if (host_size != size_)
            throw std::length_error("DeviceBuffer::" + std::string(what) + ": host has " +
                                    std::to_string(host_size) + " elements, device buffer " +
                                    std::to_string(size_));
    }
    void release() noexcept {
        // A destructor must not throw; a failing cudaFree means the context is already broken.
        if (data_ != nullptr) (void)cudaFree(data_);
        data_ = nullptr;
        size_ = 0;
    }

    T* data_ = nullptr;
    std::size_t size_ = 0;
};

} // namespace scanlab
