// The device heap's state, for the runtime API (simt/device_heap.h is the kernels' side).
#pragma once

namespace simt::detail {

// A kernel has allocated from the heap since the program began or cudaDeviceReset: its size
// (cudaLimitMallocHeapSize) can no longer change.
bool device_heap_in_use();
// Frees every allocation of the heap and the heap itself (cudaDeviceReset).
void device_heap_reset();

} // namespace simt::detail
