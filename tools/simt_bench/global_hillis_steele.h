#pragma once

namespace simt_bench {

// Launches `blocks` blocks of `slice` threads; block k scans a[k*slice, (k+1)*slice) with b as
// the other buffer. The inclusive scan ends in a when log2(slice) is even, else in b.
bool run_global_hillis_steele(int* a, int* b, int blocks, int slice);

} // namespace simt_bench
