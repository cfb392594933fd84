// Not on the simt emulator: the pipeline primitives (__pipeline_memcpy_async, __pipeline_commit,
// __pipeline_wait_prior), like <cuda/pipeline>, are not modelled. Without this header g++ would
// find the toolkit's, if one is on its paths, and fail at length.
#pragma once
#error "<cuda_pipeline.h> (__pipeline_memcpy_async, __pipeline_commit, __pipeline_wait_prior) is not supported by the simt emulator: copy with plain loads and stores (the emulator models Hopper's bulk copies with mbarriers, <cuda/barrier> and cuda::ptx, as lab 08 uses them)"
