// Read-only data of the loaded program (string literals, static const tables): kernels may read it,
// as nvcc would have placed such constants in device memory.
#pragma once

#include <cstddef>
#include <cstdint>

namespace simt::detail {
bool readonly_image_contains(uintptr_t address, size_t bytes);
}
