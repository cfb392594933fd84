// Tells the emulator's checks that an earlier launch reset some device memory to zero for the
// next launch, as a cudaMemset would have (lab 07 clears the next call's tile descriptors inside
// each scan). On the GPU (cuda backend) it does nothing. See simt/checks.h.
#pragma once

#include <cstddef>

#ifdef SCANLAB_BACKEND_SIMT
#include <simt/checks.h>
#endif

namespace scanlab {

inline void hint_reset_by_earlier_launch([[maybe_unused]] const void* device_ptr,
                                         [[maybe_unused]] std::size_t bytes) {
#ifdef SCANLAB_BACKEND_SIMT
    (void)simt::accept_reset_by_earlier_launch(device_ptr, bytes);
#endif
}

} // namespace scanlab
