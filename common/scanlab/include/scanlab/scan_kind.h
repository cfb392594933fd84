// Which prefix a scan produces at each position.
#pragma once

#include <cuda_runtime.h> // defines __host__ / __device__ on both backends

namespace scanlab {

/// inclusive: out[i] = in[0] op ... op in[i]
/// exclusive: out[i] = identity op in[0] op ... op in[i-1]   (so out[0] is the identity)
enum class ScanKind { inclusive, exclusive };

__host__ __device__ constexpr const char* to_string(ScanKind kind) {
    return kind == ScanKind::inclusive ? "inclusive" : "exclusive";
}

} // namespace scanlab
