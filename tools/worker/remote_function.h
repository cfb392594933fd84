// A lab function of any shape, one line each, for both programs of a graded run (README.md):
//   SCANLAB_REMOTE_FUNCTION(lab04, scan_then_propagate,
//       (const Value<Op>* d_in, Value<Op>* d_out, std::int64_t n, ScanKind kind, int threads),
//       (d_in, d_out, n, kind, threads));
// declares that lab04::scan_then_propagate<Op> with those parameters (the lab header's, spelled
// with Value<Op> for `typename Op::value_type`) is graded for every operator of
// scanlab/graded_operators.h. The arguments travel by type (remote_argument.h): a pointer is
// device memory and ships the whole allocation it lies in; a number, an enum or a small
// trivially copyable struct (an options struct) is copied.
// Compiled with SCANLAB_REMOTE_HARNESS it DEFINES the function as a proxy that ships each call
// to the worker (harness_client.h); compiled into the worker it registers the lab's own function
// under the same name for the worker's server (worker_registry.h).
#pragma once

#include "remote_argument.h"
#include "remote_scan.h"

namespace scanlab::remote {

/// The element type of an operator, as the lab headers write it (typename Op::value_type).
template <class Op>
using Value = typename Op::value_type;

} // namespace scanlab::remote

#ifdef SCANLAB_REMOTE_HARNESS

#define SCANLAB_REMOTE_FUNCTION(NS, FN, PARAMETERS, ARGUMENTS)                                     \
    template <class Op>                                                                            \
    void NS::FN PARAMETERS {                                                                       \
        ::scanlab::remote::Proxy<Op>{#NS "::" #FN} ARGUMENTS;                                      \
    }                                                                                              \
    /* Taking each instance's address makes the compiler emit it for the tests to link. */         \
    [[maybe_unused]] static const bool scanlab_remote_##NS##_##FN =                                \
        ::scanlab::remote::for_each_graded_operator(                                               \
            []<class Op>() { [[maybe_unused]] volatile auto instance = &NS::FN<Op>; })

#else

#define SCANLAB_REMOTE_FUNCTION(NS, FN, PARAMETERS, ARGUMENTS)                                     \
    [[maybe_unused]] static const bool scanlab_remote_##NS##_##FN =                                \
        ::scanlab::remote::for_each_graded_operator(                                               \
            []<class Op>() { ::scanlab::remote::register_typed<Op>(#NS "::" #FN, &NS::FN<Op>); })

#endif
