// Lab 01 interface. DO NOT EDIT: the graded tests are compiled against this declaration.
#pragma once

#include <scanlab/scan_kind.h>

namespace lab01 {

using scanlab::ScanKind;

/// The most elements one call scans: one thread per element, all in one thread block.
constexpr int kMaxN = 1024;

/// Scans d_in[0..n) into d_out[0..n) on the GPU with the double-buffered Hillis-Steele scan in a
/// single thread block, with operator Op (see scanlab/operators.h). Both pointers are device
/// pointers. Throws std::invalid_argument if n < 0, n > kMaxN, or n > 0 and a pointer is null.
/// For n == 0 it launches nothing (null pointers are then allowed).
/// Returns once the kernel is launched; a fault inside the kernel shows up at the next
/// synchronizing CUDA call (for example the cudaMemcpy that reads d_out).
template <class Op>
void naive_scan(const typename Op::value_type* d_in, typename Op::value_type* d_out, int n,
                ScanKind kind);

} // namespace lab01
