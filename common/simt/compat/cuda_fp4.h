// Not on the simt emulator: its formats and their rounding are not modelled (bfloat16 and the
// 8/6/4-bit floats need their own conversions and arithmetic). Without this header g++ would
// find the toolkit's, if one is installed on its paths, and fail with hundreds of errors.
#pragma once
#error "<cuda_fp4.h> (4-bit floating point, __nv_fp4_*) is not supported by the simt emulator: use float, or __half from <cuda_fp16.h>"
