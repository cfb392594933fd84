// Half precision: __half, __half2 and their arithmetic (simt/half.h says what is there).
#pragma once
#include "cuda_runtime.h"
#include "simt/half.h"
