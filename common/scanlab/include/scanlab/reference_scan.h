// Sequential reference scans on the host: what every parallel scan must reproduce.
#pragma once

#include "scan_kind.h"

#include <cstddef>
#include <span>
#include <type_traits>
#include <vector>

namespace scanlab {

/// Scans in[0..n) into out[0..n) with Op, one element after another.
/// `out` may equal `in` (in place): each input is read before its output is written.
template <class Op>
void reference_scan(const typename Op::value_type* in, typename Op::value_type* out, std::size_t n,
                    ScanKind kind) {
    using T = typename Op::value_type;
    T running = Op::identity(); // the combination of everything before position i
    for (std::size_t i = 0; i < n; ++i) {
        const T x = in[i];
        if (kind == ScanKind::exclusive) out[i] = running;
        running = Op::apply(running, x);
        if (kind == ScanKind::inclusive) out[i] = running;
    }
}

template <class Op>
std::vector<typename Op::value_type> reference_scan(std::span<const typename Op::value_type> in,
                                                    ScanKind kind) {
    std::vector<typename Op::value_type> out(in.size());
    reference_scan<Op>(in.data(), out.data(), in.size(), kind);
    return out;
}

/// The same scan evaluated in double precision, for float and double inputs: the value a float
/// scan approximates, whatever order it combined its elements in.
template <class Op>
requires std::is_floating_point_v<typename Op::value_type> std::vector<double>
reference_scan_double(std::span<const typename Op::value_type> in, ScanKind kind) {
    const std::vector<double> wide(in.begin(), in.end());
    return reference_scan<typename Op::template rebind<double>>(std::span<const double>(wide),
                                                                kind);
}

} // namespace scanlab
