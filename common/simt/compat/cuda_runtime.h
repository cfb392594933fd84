// cuda_runtime.h of the simt backend: the CUDA runtime API and device builtins, implemented by the
// Scan Lab SIMT emulator on the CPU. Rewritten .cu files get it as a forced include, as nvcc does.
#pragma once

#include <cmath>
#include <cstdio>

#include "simt/types.h"
#include "simt/runtime_api.h"
#include "simt/launch.h"
#include "simt/programmatic_launch.h"
#include "simt/launch_api.h"
#include "simt/graphs.h"
#include "simt/limits_and_hints.h"
#include "simt/shared.h"
#include "simt/device.h"
#include "simt/device_heap.h"
#include "simt/rounding.h"
#include "sm_80_rt.h"

// The toolkit's header guards, which code tests to see whether the runtime API is there (NVIDIA's
// samples' helper_cuda.h defines its runtime helpers under `#ifdef __CUDA_RUNTIME_H__`).
#define __CUDA_RUNTIME_H__
#define __DRIVER_TYPES_H__
#define CUDART_VERSION 13000
// The calling convention of host callbacks (empty on Linux).
#define CUDART_CB
