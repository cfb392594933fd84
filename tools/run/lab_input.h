// The fresh random input the main job and the tracer give a lab, and what its scan must give
// (the benchmark makes its own, sized for its pool: bench/main.cpp).
#pragma once

#include "lab_descriptor.h"

#include <scanlab/operators.h>
#include <scanlab/reference_scan.h>
#include <scanlab/scan_kind.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

namespace scanlab::run {

/// n values uniform in [lo, hi]: [-1000, 1000] for a checked run, [0, 9] for a trace (readable
/// in the viewer).
inline std::vector<int> random_ints(long long n, std::uint64_t seed, int lo = -1000,
                                    int hi = 1000) {
    std::mt19937_64 rng(seed);
    std::uniform_int_distribution<int> value(lo, hi);
    std::vector<int> v(static_cast<size_t>(n));
    for (int& x : v) x = value(rng);
    return v;
}

/// Head flags with segments of random length (mean 64), so that many cross warps and tiles.
inline std::vector<std::uint8_t> random_heads(long long n, std::uint64_t seed) {
    std::mt19937_64 rng(seed ^ 0x5e65e6u);
    std::bernoulli_distribution head(1.0 / 64);
    std::vector<std::uint8_t> flags(static_cast<size_t>(n));
    for (auto& f : flags) f = head(rng) ? 1 : 0;
    return flags;
}

/// The sum scan of `in` as the host reference computes it, restarting at element 0 of each
/// slice of `slice` elements and at every head (where `heads` is not empty).
inline std::vector<int> expected_sums(const std::vector<int>& in,
                                      const std::vector<std::uint8_t>& heads, ScanKind kind,
                                      size_t slice) {
    std::vector<int> out(in.size());
    for (size_t start = 0; start < in.size();) {
        size_t end = start + 1;
        while (end < in.size() && end % slice != 0 && (heads.empty() || !heads[end])) ++end;
        reference_scan<Sum<int>>(in.data() + start, out.data() + start, end - start, kind);
        start = end;
    }
    return out;
}

/// What a call of a lab with `input` must give for `in`: the sum scan of expected_sums, or, for a
/// sort (Input::keys), each slice of `slice` elements sorted ascending.
inline std::vector<int> expected_output(labs::Input input, const std::vector<int>& in,
                                        const std::vector<std::uint8_t>& heads, ScanKind kind,
                                        size_t slice) {
    if (input != labs::Input::keys) return expected_sums(in, heads, kind, slice);
    std::vector<int> out = in;
    for (size_t start = 0; start < out.size(); start += slice)
        std::sort(out.begin() + static_cast<std::ptrdiff_t>(start),
                  out.begin() + static_cast<std::ptrdiff_t>(std::min(out.size(), start + slice)));
    return out;
}

} // namespace scanlab::run
