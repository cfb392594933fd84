#pragma once
#error "half precision (cuda_fp16.h) is not supported by the simt emulator"
