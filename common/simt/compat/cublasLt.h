// Not on the simt emulator: NVIDIA's libraries are GPU binaries the emulator cannot run or link.
// Without this header g++ would find the toolkit's, if one is on its paths, and fail at length.
#pragma once
#error "<cublasLt.h> (the cuBLAS library) is not supported by the simt emulator"
