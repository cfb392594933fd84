// Not on the simt emulator: NVIDIA's libraries are GPU binaries the emulator cannot run or link.
// Without this header g++ would find the toolkit's, if one is on its paths, and fail at length.
#pragma once
#error "<curand.h> (the cuRAND library) is not supported by the simt emulator: generate random numbers on the host and copy them with cudaMemcpy"
