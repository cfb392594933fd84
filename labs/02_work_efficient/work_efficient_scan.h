// Lab 02 interface. DO NOT EDIT: the graded tests are compiled against this declaration.
#pragma once

#include <scanlab/scan_kind.h>

namespace lab02 {

using scanlab::ScanKind;

/// The most threads the one thread block of this lab has.
constexpr int kMaxThreads = 1024;

/// The most elements one call scans: two per thread, all in one thread block.
constexpr int kMaxN = 2 * kMaxThreads;

/// Scans d_in[0..n) into d_out[0..n) on the GPU with the work-efficient (Blelloch) up-sweep /
/// down-sweep scan in a single thread block, two elements per thread, with operator Op (see
/// scanlab/operators.h). Any n from 0 to kMaxN, not only powers of two. Both pointers are device
/// pointers; nothing outside d_in[0..n) and d_out[0..n) is read or written.
/// Throws std::invalid_argument if n < 0, n > kMaxN, or n > 0 and a pointer is null.
/// For n == 0 it launches nothing (null pointers are then allowed).
/// Returns once the kernel is launched; a fault inside the kernel shows up at the next
/// synchronizing CUDA call (for example the cudaMemcpy that reads d_out).
template <class Op>
void work_efficient_scan(const typename Op::value_type* d_in, typename Op::value_type* d_out, int n,
                         ScanKind kind);

} // namespace lab02
