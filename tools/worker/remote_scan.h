// A lab's scan functions, one line each, for both programs of a graded run (README.md):
//   SCANLAB_REMOTE_SCAN(lab01, naive_scan, device)
// declares that lab01::naive_scan<Op>(const T* in, T* out, int n, ScanKind kind) is graded for
// every operator of scanlab/graded_operators.h, with `in` and `out` in device (or host) memory.
// Compiled with SCANLAB_REMOTE_HARNESS it DEFINES the function as a proxy that ships each call
// to the worker (harness_client.h); compiled into the worker it registers the lab's own function
// under the same name, for the worker's server to call (worker_registry.h).
#pragma once

#include <scanlab/graded_operators.h>
#include <scanlab/scan_kind.h>
#include <scanlab/type_name.h>

#include <string>

namespace scanlab::remote {

/// visit.template operator()<Op>() for every graded operator.
template <class Visit>
bool for_each_graded_operator(Visit&& visit) {
#define SCANLAB_REMOTE_VISIT(Op) visit.template operator()<Op>();
    SCANLAB_FOR_EACH_GRADED_OPERATOR(SCANLAB_REMOTE_VISIT)
#undef SCANLAB_REMOTE_VISIT
    return true;
}

/// visit.template operator()<Op>() for one operator (a static initializer's call, as above).
template <class Op, class Visit>
bool for_operator(Visit&& visit) {
    visit.template operator()<Op>();
    return true;
}

/// How a call names its operator ("sum int32"): the same on both sides.
template <class Op>
std::string operator_key() {
    return std::string(Op::name) + " " + type_name<typename Op::value_type>();
}

/// How a call names what a function's first template parameter is: an operator ("sum int32"),
/// or an element type ("int32") for a function templated over the type itself.
template <class X>
std::string instance_key() {
    if constexpr (requires {
                      X::name;
                      typename X::value_type;
                  })
        return operator_key<X>();
    else
        return type_name<X>();
}

} // namespace scanlab::remote

#ifdef SCANLAB_REMOTE_HARNESS

#include "harness_client.h"

#define SCANLAB_REMOTE_SCAN(NS, FN, MEMORY)                                                        \
    template <class Op>                                                                            \
    void NS::FN(const typename Op::value_type* in, typename Op::value_type* out, int n,            \
                ::scanlab::ScanKind kind) {                                                        \
        ::scanlab::remote::scan_call<Op>(#NS "::" #FN, ::scanlab::remote::Memory::MEMORY, in, out, \
                                         n, kind);                                                 \
    }                                                                                              \
    /* Taking each instance's address makes the compiler emit it for the tests to link. */         \
    [[maybe_unused]] static const bool scanlab_remote_##NS##_##FN =                                \
        ::scanlab::remote::for_each_graded_operator(                                               \
            []<class Op>() { [[maybe_unused]] volatile auto instance = &NS::FN<Op>; })

#else

#include "worker_registry.h"

#define SCANLAB_REMOTE_SCAN(NS, FN, MEMORY)                                                        \
    [[maybe_unused]] static const bool scanlab_remote_##NS##_##FN =                                \
        ::scanlab::remote::for_each_graded_operator(                                               \
            []<class Op>() { ::scanlab::remote::register_scan<Op>(#NS "::" #FN, &NS::FN<Op>); })

#endif
