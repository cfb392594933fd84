// What lab code tells the emulator's checks about device memory they cannot infer. On the GPU
// (cuda backend) each hint does nothing. See simt/checks.h.
#pragma once

#include <cstddef>

#ifdef SCANLAB_BACKEND_SIMT
#include <simt/checks.h>
#endif

namespace scanlab {

// An earlier launch reset [device_ptr, device_ptr + bytes) to zero for the next launch, as a
// cudaMemset would have (lab 07 clears the next call's tile descriptors inside each scan).
inline void hint_reset_by_earlier_launch([[maybe_unused]] const void* device_ptr,
                                         [[maybe_unused]] std::size_t bytes) {
#ifdef SCANLAB_BACKEND_SIMT
    (void)simt::accept_reset_by_earlier_launch(device_ptr, bytes);
#endif
}

// [device_ptr, device_ptr + bytes) holds self-tagged words: each word carries its own status,
// and readers check it (lab 07's tagged-pair descriptors for 8-byte values).
inline void hint_self_tagged_words([[maybe_unused]] const void* device_ptr,
                                   [[maybe_unused]] std::size_t bytes) {
#ifdef SCANLAB_BACKEND_SIMT
    (void)simt::accept_self_tagged_words(device_ptr, bytes);
#endif
}

} // namespace scanlab
