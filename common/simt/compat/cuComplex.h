// Not on the simt emulator (yet): the toolkit's cuComplex.h includes its own vector_types.h,
// which clashes with the emulator's, and g++ would fail at length.
#pragma once
#error "<cuComplex.h> (cuFloatComplex, cuDoubleComplex and their cuC* functions) is not supported by the simt emulator: keep the real and imaginary parts in a float2 or double2 and write the arithmetic out"
