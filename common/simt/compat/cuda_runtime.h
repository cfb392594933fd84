// cuda_runtime.h of the simt backend: the CUDA runtime API and device builtins, implemented by the
// Scan Lab SIMT emulator on the CPU. Rewritten .cu files get it as a forced include, as nvcc does.
#pragma once

#include <cmath>
#include <cstdio>

#include "simt/types.h"
#include "simt/runtime_api.h"
#include "simt/launch.h"
#include "simt/shared.h"
#include "simt/device.h"
