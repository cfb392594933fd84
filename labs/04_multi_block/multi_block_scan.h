// Lab 04 interface. DO NOT EDIT: the graded tests are compiled against these declarations.
#pragma once

#include <scanlab/scan_kind.h>

#include <cstdint>

namespace lab04 {

using scanlab::ScanKind;

/// Threads per block: a power of two from kMinBlockThreads to kMaxBlockThreads. Each block scans
/// one tile of 2 * block_threads consecutive elements (two per thread, as in labs 02 and 03).
constexpr int kMinBlockThreads = 32;
constexpr int kMaxBlockThreads = 1024;
constexpr int kDefaultBlockThreads = 512;

/// The most elements one tile holds.
constexpr int kMaxTile = 2 * kMaxBlockThreads;

/// Scans d_in[0..n) into d_out[0..n) on the GPU, for any n >= 0, with operator Op (see
/// scanlab/operators.h), by SCAN-THEN-PROPAGATE:
///   1. every block scans its tile and writes the tile's total to a temporary array;
///   2. the array of tile totals is scanned (exclusive), by this same algorithm, recursively,
///      until it fits in one tile;
///   3. every block combines the scanned total of the tiles before it with each of its outputs.
/// Both pointers are device pointers; nothing outside d_in[0..n) and d_out[0..n) is read or
/// written. The temporary device memory of all levels is allocated and freed inside the call.
/// Throws std::invalid_argument if n < 0, if block_threads is not a power of two in
/// [kMinBlockThreads, kMaxBlockThreads], if the tiles of n would not fit in one grid, or if
/// n > 0 and a pointer is null. For n == 0 it launches nothing (null pointers are then allowed).
/// Throws std::runtime_error (from SCANLAB_CUDA_CHECK) if a CUDA call fails.
template <class Op>
void scan_then_propagate(const typename Op::value_type* d_in, typename Op::value_type* d_out,
                         std::int64_t n, ScanKind kind, int block_threads = kDefaultBlockThreads);

/// The same scan, with the same contract, by REDUCE-THEN-SCAN:
///   1. every block reduces its tile to one total (it writes no element);
///   2. the array of tile totals is scanned (exclusive), by this same algorithm, recursively;
///   3. every block scans its tile again, starting from the scanned total of the tiles before it,
///      and writes the result.
template <class Op>
void reduce_then_scan(const typename Op::value_type* d_in, typename Op::value_type* d_out,
                      std::int64_t n, ScanKind kind, int block_threads = kDefaultBlockThreads);

} // namespace lab04
