// Lab 03 interface. DO NOT EDIT: the graded tests are compiled against these declarations.
#pragma once

#include <scanlab/scan_kind.h>

namespace lab03 {

using scanlab::ScanKind;

/// The most threads the one thread block of this lab has.
constexpr int kMaxThreads = 1024;

/// The most elements one call scans: two per thread, all in one thread block.
constexpr int kMaxN = 2 * kMaxThreads;

/// Shared memory on NVIDIA GPUs since Fermi: 32 banks, each 4 bytes wide. Word w (the 4 bytes at
/// byte address 4w) lives in bank w % kNumBanks.
constexpr int kNumBanks = 32;
constexpr int kLogNumBanks = 5; // kNumBanks == 1 << kLogNumBanks
constexpr int kBankBytes = 4;

/// Scans d_in[0..n) into d_out[0..n) on the GPU with the work-efficient (Blelloch) scan of lab 02
/// in a single thread block, two elements per thread, with operator Op (see
/// scanlab/operators.h), keeping the tree in shared memory padded so that its accesses are free
/// of bank conflicts. Any n from 0 to kMaxN. Both pointers are device pointers; nothing outside
/// d_in[0..n) and d_out[0..n) is read or written.
/// Throws std::invalid_argument if n < 0, n > kMaxN, or n > 0 and a pointer is null.
/// For n == 0 it launches nothing (null pointers are then allowed).
/// Returns once the kernel is launched; a fault inside the kernel shows up at the next
/// synchronizing CUDA call (for example the cudaMemcpy that reads d_out).
template <class Op>
void conflict_free_scan(const typename Op::value_type* d_in, typename Op::value_type* d_out, int n,
                        ScanKind kind);

/// The same scan, the same contract and the same launch, with the tree stored WITHOUT padding:
/// the baseline that the bank-conflict counts of conflict_free_scan are compared with.
template <class Op>
void scan_unpadded(const typename Op::value_type* d_in, typename Op::value_type* d_out, int n,
                   ScanKind kind);

} // namespace lab03
