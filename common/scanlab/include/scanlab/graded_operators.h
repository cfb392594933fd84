// The operators and element types the graded tests scan with, in one list: each lab's .cu file
// instantiates its templates for every one of them, and the tests make their cases from the same
// list (tests/support/scan_matrix.h).
#pragma once

#include <scanlab/operators.h>

#include <cstdint>

/// Expands X(Op) for every graded operator, in the order the test cases are listed: sum, max,
/// min and product on int32, uint32, int64, float and double, then affine on the three integer
/// types (it packs two halves of a map into one integer). X must supply its own `;`.
/// With SCANLAB_INSTANTIATE_SUMS_ONLY defined it expands for the four sums that the main job and
/// the tracer call (tools/lab_descriptors) and nothing else: their own build of the solutions
/// (lab<NN>_solution_sums_simt) compiles a fifth of the instantiations.
#ifndef SCANLAB_INSTANTIATE_SUMS_ONLY
#define SCANLAB_FOR_EACH_GRADED_OPERATOR(X)                                                        \
    X(scanlab::Sum<std::int32_t>)                                                                  \
    X(scanlab::Sum<std::uint32_t>)                                                                 \
    X(scanlab::Sum<std::int64_t>)                                                                  \
    X(scanlab::Sum<float>)                                                                         \
    X(scanlab::Sum<double>)                                                                        \
    X(scanlab::Max<std::int32_t>)                                                                  \
    X(scanlab::Max<std::uint32_t>)                                                                 \
    X(scanlab::Max<std::int64_t>)                                                                  \
    X(scanlab::Max<float>)                                                                         \
    X(scanlab::Max<double>)                                                                        \
    X(scanlab::Min<std::int32_t>)                                                                  \
    X(scanlab::Min<std::uint32_t>)                                                                 \
    X(scanlab::Min<std::int64_t>)                                                                  \
    X(scanlab::Min<float>)                                                                         \
    X(scanlab::Min<double>)                                                                        \
    X(scanlab::Product<std::int32_t>)                                                              \
    X(scanlab::Product<std::uint32_t>)                                                             \
    X(scanlab::Product<std::int64_t>)                                                              \
    X(scanlab::Product<float>)                                                                     \
    X(scanlab::Product<double>)                                                                    \
    X(scanlab::Affine<std::int32_t>)                                                               \
    X(scanlab::Affine<std::uint32_t>)                                                              \
    X(scanlab::Affine<std::int64_t>)
#else
#define SCANLAB_FOR_EACH_GRADED_OPERATOR(X)                                                        \
    X(scanlab::Sum<std::int32_t>)                                                                  \
    X(scanlab::Sum<std::int64_t>)                                                                  \
    X(scanlab::Sum<float>)                                                                         \
    X(scanlab::Sum<double>)
#endif

namespace scanlab {

/// Calls visit.template operator()<Op>() for every graded operator in the list's order, until
/// one returns false. Returns whether every one returned true. (The tests make their cases with
/// it, tests/support/scan_matrix.h, and the grader's worker its table, tools/worker.)
template <class Visit>
constexpr bool for_each_graded_operator(Visit&& visit) {
#define SCANLAB_VISIT_GRADED_OPERATOR(Op)                                                          \
    if (!visit.template operator()<Op>()) return false;
    SCANLAB_FOR_EACH_GRADED_OPERATOR(SCANLAB_VISIT_GRADED_OPERATOR)
#undef SCANLAB_VISIT_GRADED_OPERATOR
    return true;
}

} // namespace scanlab
