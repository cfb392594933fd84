// The checks' hints read a whole output at once ("no output was written at all"): this asks a
// question of every index of it.
#pragma once

#include <cstddef>

namespace scanlab::test {

/// True when `pred(j)` holds for every j in [0, n).
template <class Pred>
bool every_index(std::size_t n, Pred&& pred) {
    for (std::size_t j = 0; j < n; ++j)
        if (!pred(j)) return false;
    return true;
}

} // namespace scanlab::test
