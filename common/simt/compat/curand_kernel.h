// Not on the simt emulator: NVIDIA's libraries are GPU binaries the emulator cannot run or link.
// Without this header g++ would find the toolkit's, if one is on its paths, and fail at length.
#pragma once
#error "<curand_kernel.h> (the cuRAND device API: curandState, curand_init, curand_uniform, ...) is not supported by the simt emulator: generate random numbers on the host, or hash the thread index in the kernel"
