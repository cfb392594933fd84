// Lab 02: work-efficient (Blelloch) scan in one thread block, two elements per thread.
//
// Read README.md first. Fill in the parts marked TODO(student) and run the lab's tests.
#include "work_efficient_scan.h"

#include <scanlab/cuda_check.h>
#include <scanlab/operators.h>

#include <cstdint>
#include <stdexcept>
#include <string>

namespace lab02 {

// Launched as <<<1, m / 2>>>, where m is the number of leaves of the tree: the smallest power of
// two >= n, and at least 2. So blockDim.x == m / 2 and thread t owns the elements t and t + m/2.
template <class Op>
__global__ void work_efficient_scan_kernel(const typename Op::value_type* in,
                                           typename Op::value_type* out, int n, ScanKind kind) {
    // TODO(student): the Blelloch scan on a tree of m = 2 * blockDim.x leaves in shared memory
    //   (the element type is `typename Op::value_type`):
    //   1. Declare one shared array of kMaxN elements.
    //   2. Thread t loads the elements t and t + m/2. A leaf at index n or beyond gets
    //      Op::identity() and is never read from `in`. Keep both values in registers too.
    //   3. Up-sweep: for stride = 1, 2, 4, ... while stride < m, the first m / (2 * stride)
    //      threads each combine one pair: right = (2t + 2) * stride - 1, left = right - stride,
    //      tree[right] = Op::apply(tree[left], tree[right]). A barrier before every level.
    //      (Keep the number of pairs in a second loop variable, halved as stride doubles:
    //      dividing by a variable is slow on a GPU.)
    //   4. Thread 0 replaces the root, tree[m - 1], by Op::identity().
    //   5. Down-sweep: for stride = m/2, m/4, ..., 1, the same pairs, after a barrier:
    //      the left child gets the parent's value; the right child gets
    //      Op::apply(parent's value, old left value).
    //   6. After a last barrier, tree[i] is the exclusive prefix of element i. Write it to out[i]
    //      for both elements of the thread, only where i < n. The inclusive scan writes
    //      Op::apply(tree[i], own element) instead.

    // Delete these lines when you start: they only keep the empty stub free of warnings.
    (void)in;
    (void)out;
    (void)n;
    (void)kind;
}

template <class Op>
void work_efficient_scan(const typename Op::value_type* d_in, typename Op::value_type* d_out, int n,
                         ScanKind kind) {
    // TODO(student): reject bad arguments with std::invalid_argument and a message that says
    //   what is wrong: n < 0, n > kMaxN, and (when n > 0) a null d_in or d_out.
    //   n == 0 is valid: return without launching anything.

    // TODO(student): find m, the smallest power of two >= n (and at least 2), with integer
    //   arithmetic. Launch work_efficient_scan_kernel<Op> as one block of m / 2 threads, then
    //   check the launch with SCANLAB_CUDA_CHECK(cudaGetLastError()).

    // Delete these lines when you start: they only keep the empty stub free of warnings.
    (void)d_in;
    (void)d_out;
    (void)n;
    (void)kind;
}

} // namespace lab02

// ---------------------------------------------------------------------------------------------
// DO NOT EDIT BELOW THIS LINE. The tests call work_efficient_scan with these operators and
// types; since the template is defined in this .cu file, each one has to be instantiated here.
// ---------------------------------------------------------------------------------------------
#define LAB02_INSTANTIATE(Op)                                                                      \
    template void lab02::work_efficient_scan<Op>(const Op::value_type*, Op::value_type*, int,      \
                                                 lab02::ScanKind);

#include <scanlab/graded_operators.h> // the operators and types the tests use

SCANLAB_FOR_EACH_GRADED_OPERATOR(LAB02_INSTANTIATE)
