// Tells the emulator's checks that some device memory holds self-tagged words: each word carries
// its own status, and readers check it (lab 07's tagged-pair descriptors for 8-byte values). On
// the GPU (cuda backend) it does nothing. See simt/checks.h.
#pragma once

#include <cstddef>

#ifdef SCANLAB_BACKEND_SIMT
#include <simt/checks.h>
#endif

namespace scanlab {

inline void hint_self_tagged_words([[maybe_unused]] const void* device_ptr,
                                   [[maybe_unused]] std::size_t bytes) {
#ifdef SCANLAB_BACKEND_SIMT
    (void)simt::accept_self_tagged_words(device_ptr, bytes);
#endif
}

} // namespace scanlab
