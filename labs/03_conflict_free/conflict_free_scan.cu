// Lab 03: the work-efficient scan of lab 02 with shared memory padded against bank conflicts.
//
// Read README.md first. Fill in the parts marked TODO(student) and run the lab's tests.
#include "conflict_free_scan.h"

#include <scanlab/cuda_check.h>
#include <scanlab/operators.h>

#include <cstdint>
#include <stdexcept>
#include <string>

namespace lab03 {

// ---- Where element i of the tree lives in shared memory -------------------------------------

// One row of the banks is kNumBanks * kBankBytes = 128 bytes. This returns log2 of how many
// elements of T fill it: 32 four-byte elements, or 16 eight-byte ones (an 8-byte element spans
// two banks, and the hardware serves a warp's 8-byte accesses half a warp at a time).
template <class T>
__host__ __device__ constexpr int log2_elements_per_row() {
    static_assert(sizeof(T) == 4 || sizeof(T) == 8, "the labs scan 4- and 8-byte types");
    return sizeof(T) == 8 ? kLogNumBanks - 1 : kLogNumBanks;
}

// The padded slot of element i.
template <class T>
__host__ __device__ constexpr int padded_index(int i) {
    // TODO(student): return i plus the padding before it (README: "The padding formula"):
    //   one unused slot after every row of elements (a row has 1 << log2_elements_per_row<T>()
    //   elements), and one more after every row of rows. Shifts, not divisions.
    return i; // placeholder: no padding at all
}

// The kernel reaches shared memory only through slot(): the padded slot, or i itself.
template <class T, bool kPadded>
__host__ __device__ constexpr int slot(int i) {
    if constexpr (kPadded)
        return padded_index<T>(i);
    else
        return i;
}

// How many slots the tree of kMaxN elements occupies: the slot of the last element, plus one.
template <class T, bool kPadded>
__host__ __device__ constexpr int shared_slots() {
    return slot<T, kPadded>(kMaxN - 1) + 1;
}

// ---- The scan ------------------------------------------------------------------------------

// Launched as <<<1, m / 2>>>, where m is the smallest power of two >= n, and at least 2.
// Thread t owns elements t and t + m/2.
template <class Op, bool kPadded>
__global__ void block_scan_kernel(const typename Op::value_type* in, typename Op::value_type* out,
                                  int n, ScanKind kind) {
    // TODO(student): your kernel from lab 02, with two changes:
    //   1. The shared array has shared_slots<T, kPadded>() elements instead of kMaxN
    //      (T is `typename Op::value_type`).
    //   2. Every shared-memory index i becomes slot<T, kPadded>(i): in the loads, in both sweeps,
    //      for the root, and when you read the results. Global indices (in[i], out[i]) do not
    //      change: padding is a layout of shared memory only.
    //   Load the elements t and t + m/2, not 2t and 2t + 1 (README: "The loads").

    // Delete these lines when you start: they only keep the empty stub free of warnings.
    (void)in;
    (void)out;
    (void)n;
    (void)kind;
}

// Checks the arguments and launches the kernel; `name` is for the error messages.
template <class Op, bool kPadded>
void run_scan(const char* name, const typename Op::value_type* d_in, typename Op::value_type* d_out,
              int n, ScanKind kind) {
    // TODO(student): as in lab 02: reject n < 0, n > kMaxN and (when n > 0) null pointers with
    //   std::invalid_argument, starting the message with `name`; return for n == 0; launch
    //   block_scan_kernel<Op, kPadded> as one block of m / 2 threads and check the launch.

    // Delete these lines when you start: they only keep the empty stub free of warnings.
    (void)name;
    (void)d_in;
    (void)d_out;
    (void)n;
    (void)kind;
}

template <class Op>
void conflict_free_scan(const typename Op::value_type* d_in, typename Op::value_type* d_out, int n,
                        ScanKind kind) {
    run_scan<Op, true>("lab03::conflict_free_scan", d_in, d_out, n, kind);
}

template <class Op>
void scan_unpadded(const typename Op::value_type* d_in, typename Op::value_type* d_out, int n,
                   ScanKind kind) {
    run_scan<Op, false>("lab03::scan_unpadded", d_in, d_out, n, kind);
}

} // namespace lab03

// ---------------------------------------------------------------------------------------------
// DO NOT EDIT BELOW THIS LINE. The tests call both scans with these operators and types; since
// the templates are defined in this .cu file, each one has to be instantiated here.
// ---------------------------------------------------------------------------------------------
#define LAB03_INSTANTIATE(Op)                                                                      \
    template void lab03::conflict_free_scan<Op>(const Op::value_type*, Op::value_type*, int,       \
                                                lab03::ScanKind);                                  \
    template void lab03::scan_unpadded<Op>(const Op::value_type*, Op::value_type*, int,            \
                                           lab03::ScanKind);

#include <scanlab/graded_operators.h> // the operators and types the tests use

SCANLAB_FOR_EACH_GRADED_OPERATOR(LAB03_INSTANTIATE)
