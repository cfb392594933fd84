// Lab 00: sequential scan on the host. SOLUTION.
#include "sequential_scan.h"

#include <scanlab/operators.h>

#include <cstdint>
#include <stdexcept>
#include <string>

namespace lab00 {

template <class Op>
void sequential_scan(const typename Op::value_type* in, typename Op::value_type* out, int n,
                     ScanKind kind) {
    using T = typename Op::value_type;

    if (n < 0)
        throw std::invalid_argument("lab00::sequential_scan: n must be >= 0, got " +
                                    std::to_string(n));
    if (n == 0) return; // an empty scan: nothing to read or write
    if (in == nullptr) throw std::invalid_argument("lab00::sequential_scan: `in` is null");
    if (out == nullptr) throw std::invalid_argument("lab00::sequential_scan: `out` is null");

    // `running` is the combination of all elements before position i. The exclusive result is
    // that value, the inclusive result is that value combined with in[i].
    T running = Op::identity();
    for (int i = 0; i < n; ++i) {
        const T x = in[i]; // read first: out may be in, and the write below would clobber it
        if (kind == ScanKind::exclusive) out[i] = running;
        running = Op::apply(running, x); // earlier elements on the left: order matters
        if (kind == ScanKind::inclusive) out[i] = running;
    }
}

} // namespace lab00

// ---------------------------------------------------------------------------------------------
// DO NOT EDIT BELOW THIS LINE. The tests call sequential_scan with these operators and types;
// since the template is defined in this .cu file, each one has to be instantiated here.
// ---------------------------------------------------------------------------------------------
#define LAB00_INSTANTIATE(Op)                                                                      \
    template void lab00::sequential_scan<Op>(const Op::value_type*, Op::value_type*, int,          \
                                             lab00::ScanKind);

#include <scanlab/graded_operators.h> // the operators and types the tests use

SCANLAB_FOR_EACH_GRADED_OPERATOR(LAB00_INSTANTIATE)
