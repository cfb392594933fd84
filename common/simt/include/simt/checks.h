// What the host can tell the emulator's checks about memory it prepared in an unusual way.
#pragma once

#include <cstddef>

namespace simt {

// A kernel of an earlier launch reset [device_ptr, device_ptr + bytes) to zero for the next
// launch (e.g. a look-back scan that clears, in each call, the tile flags the next call reads):
// counts those zeros as set by the host, as a cudaMemset would have, so that the check for stale
// values from an earlier launch accepts them. Returns false and changes nothing if the range is
// not device memory or a byte in it is not zero: then the checks judge the next launch as usual,
// and a stale flag there is still reported.
bool accept_reset_by_earlier_launch(const void* device_ptr, size_t bytes);

} // namespace simt
