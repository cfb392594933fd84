#pragma once
#error "cooperative groups are not supported by the simt emulator yet: use __syncthreads, __syncwarp and the *_sync warp intrinsics"
