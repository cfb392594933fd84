// The graded tests' matrix of operators, element types and scan kinds, in one place: each lab's
// test file says what one case runs, and these make the cases, named and ordered as the lessons
// list them ("inclusive sum int32", ..., "exclusive affine int64").
//
// The operators come from scanlab/graded_operators.h, the list each lab's .cu file instantiates.
#pragma once

#include <scanlab/graded_operators.h>
#include <scanlab/operators.h>
#include <scanlab/scan_kind.h>
#include <scanlab/type_name.h>

#include <doctest/doctest.h>

#include <cstddef>
#include <type_traits>
#include <utility>

namespace scanlab::test {

/// Whether two operators are the same family (Sum<int> and Sum<double>, not Sum and Max).
template <class A, class B>
inline constexpr bool same_family = false;
template <template <class> class Family, class T, class U>
inline constexpr bool same_family<Family<T>, Family<U>> = true;

/// check.template operator()<Op>() for every graded type of Op's family (Sum<int32>, Sum<uint32>,
/// ... for any Sum), in turn, until one returns false: a case that covers a whole family stops at
/// its first failing type.
template <class FamilyMember, class Check>
bool for_each_type_of(Check&& check) {
    return for_each_graded_operator([&]<class Op>() {
        if constexpr (same_family<Op, FamilyMember>)
            return check.template operator()<Op>();
        else
            return true;
    });
}

namespace detail {

// Where the cases are registered: the test file's line that makes them.
struct CaseSite {
    const char* file;
    int line;
    const doctest::detail::TestSuite& suite;
};

// Registers one doctest case named prefix + kind + " " + op (+ " " + type, unless type is null),
// exactly as TEST_CASE would, but with `place` as doctest's template id: doctest orders cases by
// file, line and then that id, so the cases one line registers run and list in the order they
// are added (scan_matrix.cpp: out of line, so that the test files compile none of it).
void add_case(const CaseSite& site, int place, void (*body)(), const char* prefix, const char* kind,
              const char* op, const char* type);

// A case's body: Run{}<Op>(kind), or Run{}<Op>(kind, variant) when the cases come in variants.
template <class Run, class Op, ScanKind Kind, int Variant>
void run_case() {
    if constexpr (Variant < 0)
        Run{}.template operator()<Op>(Kind);
    else
        Run{}.template operator()<Op>(Kind, Variant);
}

template <bool PerType, class Run, class Op, ScanKind Kind, std::size_t... Variants>
void add_variants(const CaseSite& site, int& place, const char* const* prefixes,
                  std::index_sequence<Variants...>) {
    (add_case(site, place++, &run_case<Run, Op, Kind, static_cast<int>(Variants)>,
              prefixes[Variants], to_string(Kind), Op::name,
              PerType ? type_name<typename Op::value_type>() : nullptr),
     ...);
}

// Whether Op is the first graded operator of its family (Sum<int32> for the sums).
template <class Op>
constexpr bool first_of_its_family() {
    bool first = true;
    for_each_graded_operator([&]<class Earlier>() {
        if constexpr (std::is_same_v<Earlier, Op>) {
            return false; // only the operators before Op count
        } else {
            if (same_family<Earlier, Op>) first = false;
            return true;
        }
    });
    return first;
}

// Family by family (in the list's order), inclusive then exclusive; within those, every type of
// the family (PerType) or the family once, its first type standing for it; within those, every
// variant. Returns the number of cases.
template <bool PerType, int Variants, class Run>
int add_matrix(const CaseSite& site, const char* const* prefixes) {
    int place = 0;
    const auto add = [&]<class Op, ScanKind Kind>() {
        if constexpr (Variants < 0)
            add_case(site, place++, &run_case<Run, Op, Kind, -1>, prefixes[0], to_string(Kind),
                     Op::name, PerType ? type_name<typename Op::value_type>() : nullptr);
        else
            add_variants<PerType, Run, Op, Kind>(site, place, prefixes,
                                                 std::make_index_sequence<Variants>{});
        return true;
    };
    for_each_graded_operator([&]<class Family>() {
        if constexpr (first_of_its_family<Family>()) {
            const auto add_kind = [&]<ScanKind Kind>() {
                if constexpr (PerType)
                    for_each_type_of<Family>(
                        [&]<class Op>() { return add.template operator()<Op, Kind>(); });
                else
                    add.template operator()<Family, Kind>();
            };
            add_kind.template operator()<ScanKind::inclusive>();
            add_kind.template operator()<ScanKind::exclusive>();
        }
        return true;
    });
    return place;
}

} // namespace detail

/// One test case per graded operator and kind, named "<prefix>inclusive sum int32" and so on;
/// each runs run.template operator()<Op>(kind). The last argument is a lambda with no captures:
///     SCANLAB_CASE_PER_OPERATOR_AND_KIND("scan ", []<class Op>(ScanKind kind) { ... });
/// PREFIX may instead be an array of prefixes (const char* const[N]): then each operator and kind
/// gets N cases in a row, one per prefix, and run receives the prefix's index as a second
/// argument, (kind, variant).
#define SCANLAB_CASE_PER_OPERATOR_AND_KIND(PREFIX, ...)                                            \
    static const int DOCTEST_ANONYMOUS(SCANLAB_MATRIX_CASES_) =                                    \
        ::scanlab::test::detail::add_operator_cases<true>(                                         \
            {__FILE__, __LINE__, doctest_detail_test_suite_ns::getCurrentTestSuite()}, PREFIX,     \
            __VA_ARGS__)

/// One test case per operator family and kind, named "<prefix>inclusive sum" and so on; each
/// runs run.template operator()<Op>(kind) with the family's first graded type (for_each_type_of
/// walks the rest).
#define SCANLAB_CASE_PER_FAMILY_AND_KIND(PREFIX, ...)                                              \
    static const int DOCTEST_ANONYMOUS(SCANLAB_MATRIX_CASES_) =                                    \
        ::scanlab::test::detail::add_operator_cases<false>(                                        \
            {__FILE__, __LINE__, doctest_detail_test_suite_ns::getCurrentTestSuite()}, PREFIX,     \
            __VA_ARGS__)

namespace detail {

template <bool PerType, class Run>
int add_operator_cases(const CaseSite& site, const char* prefix, Run) {
    const char* const prefixes[] = {prefix};
    return add_matrix<PerType, -1, Run>(site, prefixes);
}

template <bool PerType, std::size_t N, class Run>
int add_operator_cases(const CaseSite& site, const char* const (&prefixes)[N], Run) {
    return add_matrix<PerType, static_cast<int>(N), Run>(site, prefixes);
}

} // namespace detail

} // namespace scanlab::test
