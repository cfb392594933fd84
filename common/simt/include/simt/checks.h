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

// [device_ptr, device_ptr + bytes) holds self-tagged words: every aligned word there is read and
// written whole (volatile or atomic) and carries its own status beside its data, and a reader
// checks the status of each word it uses (e.g. a look-back descriptor split in two 64-bit words,
// each with the flag: a reader that finds the two flags different reads again). Reading such a
// word after another word of the same writer is then not a read of data that the other word
// announced, and is not reported as a missing fence. Relaxed visibility still applies, so a
// reader can see one word new and the other old, as on a GPU. Kept until the memory is freed.
// Returns false and changes nothing if the range is not inside one device allocation.
bool accept_self_tagged_words(const void* device_ptr, size_t bytes);

} // namespace simt
