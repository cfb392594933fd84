// Device memory a scan keeps from one call to the next (labs 05, 06 and 07).
#pragma once

#include <scanlab/device_buffer.h>

#include <cstddef>

namespace scanlab {

/// Scratch device memory that grows and is never shrunk. Without one, a scan allocates and frees
/// its own on every call; a benchmark or a loop of scans passes one to skip that.
class Workspace {
  public:
    /// At least `bytes` bytes of device memory (aligned for any element type). What an earlier
    /// call left there is garbage. Reallocates only when it has to grow.
    void* reserve(std::size_t bytes) {
        if (bytes > buffer_.size()) buffer_ = DeviceBuffer<unsigned char>(bytes);
        return buffer_.data();
    }
    std::size_t capacity() const { return buffer_.size(); }

  private:
    DeviceBuffer<unsigned char> buffer_;
};

} // namespace scanlab
