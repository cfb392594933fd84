// Lab 00: sequential scan on the host.
//
// Read README.md first. Fill in the parts marked TODO(student) and run the lab's tests.
// This lab is plain host C++ (no kernel yet); it lives in a .cu file like every later lab.
#include "sequential_scan.h"

#include <scanlab/operators.h>

#include <cstdint>
#include <stdexcept>
#include <string>

namespace lab00 {

template <class Op>
void sequential_scan(const typename Op::value_type* in, typename Op::value_type* out, int n,
                     ScanKind kind) {
    // TODO(student): reject bad arguments with std::invalid_argument and a message that says
    //   what is wrong: n < 0; n > 0 with a null `in` or `out`. n == 0 is valid and does nothing.

    // TODO(student): the scan itself, for both kinds:
    //   inclusive: out[i] = in[0] op in[1] op ... op in[i]
    //   exclusive: out[i] = identity op in[0] op ... op in[i-1]
    //   Use only Op::identity() and Op::apply(earlier, later); never `+`.
    //   The element type is `typename Op::value_type`.
    //   `out` may be the same array as `in`: read in[i] before you overwrite out[i].

    // Delete these lines when you start: they only keep the empty stub free of warnings.
    (void)in;
    (void)out;
    (void)n;
    (void)kind;
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
