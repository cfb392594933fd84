// Not on the simt emulator: warp matrix operations (tensor cores) and their fragment layouts are
// not modelled. Without this header g++ would find the toolkit's, if one is on its paths.
#pragma once
#error "<mma.h> (nvcuda::wmma, warp matrix multiply-accumulate on tensor cores) is not supported by the simt emulator: write the matrix product with plain loads, stores and arithmetic"
