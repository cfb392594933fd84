// libcu++'s cuda::std on the simt emulator. Device code is host code here, so where libcu++'s
// headers are the C++ standard library made usable in device code, the standard library itself
// serves: cuda::std names look up in ::std. Each cuda/std/<name> header includes <name> and this.
#pragma once

namespace cuda::std {
using namespace ::std;
} // namespace cuda::std
