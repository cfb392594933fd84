// Which code tokens lie in the body of a __global__ or __device__ (not __host__ __device__)
// function: code that only ever runs on the device, where the passes turn what runs differently
// there into the emulator's (the device heap) or refuse it (inline PTX), and host code may do as it
// likes.
#pragma once

#include <vector>

#include "source_file.h"

namespace simt::rewrite {

// One entry per code token: inside a device-only function's body (nested braces included).
std::vector<bool> device_body_tokens(Tokens code);

} // namespace simt::rewrite
