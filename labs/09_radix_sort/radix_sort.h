// Lab 09 interface. DO NOT EDIT: the graded tests are compiled against these declarations.
#pragma once

#include <scanlab/workspace.h>

#include <cstddef>
#include <cstdint>

namespace lab09 {

inline constexpr int kWarpSize = 32;

/// A key is sorted by 8-bit digits, least significant first: four passes for 32-bit keys.
inline constexpr int kDigitBits = 8;
inline constexpr int kDigits = 1 << kDigitBits; // 256 possible values of a digit
inline constexpr int kPasses = 32 / kDigitBits;

/// A tile is what one thread block ranks and scatters in a pass: 256 threads (one per digit in
/// the look-back) with 32 keys each.
inline constexpr int kBlockThreads = 256;
inline constexpr int kItemsPerThread = 32;
inline constexpr int kTileKeys = kBlockThreads * kItemsPerThread;

/// The most keys one call sorts: a tile descriptor holds a count in 30 bits beside its 2-bit
/// status (X, A or P, as in lab 07).
inline constexpr std::int64_t kMaxKeys = (std::int64_t{1} << 30) - 1;

/// Device memory a sort needs besides its input and output: the other buffer of each pass, the
/// histograms, the tile counters and the descriptors. Without one each call allocates its own.
using Workspace = scanlab::Workspace;

/// Sorts d_in[0..n) into d_out[0..n), ascending and stable (equal keys keep their order).
/// Key is std::uint32_t, std::int32_t or float. Signed and float keys are sorted through the
/// order-preserving bit flip (README.md, Part 0): for floats -0.0 comes before +0.0, and NaNs
/// with the sign bit clear after +infinity (by their bits). d_out may equal d_in (in place).
/// Throws std::invalid_argument if n < 0, n > kMaxKeys, or n > 0 and a pointer is null. For
/// n == 0 it launches nothing. Throws std::runtime_error (SCANLAB_CUDA_CHECK) if a CUDA call
/// fails. Returns once the kernels are launched.
template <class Key>
void sort_keys(const Key* d_in, Key* d_out, std::int64_t n, Workspace* workspace = nullptr);

/// Like sort_keys, and moves d_values_in[i] along with d_keys_in[i] into d_values_out. Value is a
/// 4-byte type (std::uint32_t, std::int32_t or float). d_keys_out may equal d_keys_in and
/// d_values_out may equal d_values_in.
template <class Key, class Value>
void sort_pairs(const Key* d_keys_in, Key* d_keys_out, const Value* d_values_in,
                Value* d_values_out, std::int64_t n, Workspace* workspace = nullptr);

} // namespace lab09
