// Not on the simt emulator: NCCL is a GPU library the emulator cannot run or link. Without this
// header g++ would find the toolkit's, if one is on its paths, and fail at length.
#pragma once
#error "<nccl.h> (the NCCL library) is not supported by the simt emulator"
