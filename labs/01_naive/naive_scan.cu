// Lab 01: naive (Hillis-Steele) scan in one thread block, double-buffered.
//
// Read README.md first. Fill in the parts marked TODO(student) and run the lab's tests.
#include "naive_scan.h"

#include <scanlab/cuda_check.h>
#include <scanlab/operators.h>

#include <cstdint>
#include <stdexcept>
#include <string>

namespace lab01 {

// Launched as <<<1, n>>>: one thread per element, so threadIdx.x < n for every thread.
template <class Op>
__global__ void naive_scan_kernel(const typename Op::value_type* in, typename Op::value_type* out,
                                  int n, ScanKind kind) {
    // TODO(student): the double-buffered Hillis-Steele scan, one element per thread
    //   (the element type is `typename Op::value_type`):
    //   1. Declare shared memory for two arrays of kMaxN elements.
    //   2. Thread i loads its element into the first array. The exclusive scan instead loads
    //      the element to its left, and thread 0 loads Op::identity().
    //   3. For offset = 1, 2, 4, ... while offset < n: every thread reads the current array and
    //      writes its new value into the other one, using Op::apply(earlier, later). Then all
    //      threads wait for each other and the two arrays swap roles.
    //   4. Thread i writes its final value to out[i].

    // Delete these lines when you start: they only keep the empty stub free of warnings.
    (void)in;
    (void)out;
    (void)n;
    (void)kind;
}

template <class Op>
void naive_scan(const typename Op::value_type* d_in, typename Op::value_type* d_out, int n,
                ScanKind kind) {
    // TODO(student): reject bad arguments with std::invalid_argument and a message that says
    //   what is wrong: n < 0, n > kMaxN, and (when n > 0) a null d_in or d_out.
    //   n == 0 is valid: return without launching anything.

    // TODO(student): launch naive_scan_kernel<Op> as one block of n threads, then check the
    //   launch with SCANLAB_CUDA_CHECK(cudaGetLastError()).

    // Delete these lines when you start: they only keep the empty stub free of warnings.
    (void)d_in;
    (void)d_out;
    (void)n;
    (void)kind;
}

} // namespace lab01

// ---------------------------------------------------------------------------------------------
// DO NOT EDIT BELOW THIS LINE. The tests call naive_scan with these operators and types;
// since the template is defined in this .cu file, each one has to be instantiated here.
// ---------------------------------------------------------------------------------------------
#define LAB01_INSTANTIATE(Op)                                                                      \
    template void lab01::naive_scan<Op>(const Op::value_type*, Op::value_type*, int,               \
                                        lab01::ScanKind);

#include <scanlab/graded_operators.h> // the operators and types the tests use

SCANLAB_FOR_EACH_GRADED_OPERATOR(LAB01_INSTANTIATE)
