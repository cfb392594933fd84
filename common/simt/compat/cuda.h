#pragma once
// The driver API is not emulated; the runtime API covers what labs need.
#include "cuda_runtime.h"
