// The checks' hints read a whole output at once ("no output was written at all"): this asks a
// question of every index of it.
#pragma once

#include <algorithm>
#include <cstddef>
#include <ranges>

namespace scanlab::test {

/// True when `pred(j)` holds for every j in [0, n).
template <class Pred>
bool every_index(std::size_t n, Pred&& pred) {
    return std::ranges::all_of(std::views::iota(std::size_t{0}, n), pred);
}

} // namespace scanlab::test
