// Lab 00 interface. DO NOT EDIT: the graded tests are compiled against this declaration.
#pragma once

#include <scanlab/scan_kind.h>

namespace lab00 {

using scanlab::ScanKind;

/// Scans in[0..n) into out[0..n) on the host, one element after another, with operator Op
/// (see scanlab/operators.h). `in` and `out` are host pointers and may be equal (in place).
/// Throws std::invalid_argument if n < 0, or if n > 0 and a pointer is null.
/// For n == 0 it does nothing (null pointers are then allowed).
template <class Op>
void sequential_scan(const typename Op::value_type* in, typename Op::value_type* out, int n,
                     ScanKind kind);

} // namespace lab00
