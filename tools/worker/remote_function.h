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
//
// A static member function of a class template over the operator, with its return type and
// parameters as the class writes them (they are looked up in the class):
//   SCANLAB_REMOTE_MEMBER(lab06::Segmented, apply, value_type, (value_type a, value_type b),
//                         (a, b));
// A value returned is copied back bit for bit.
//
// A function templated over a tile shape as well, template <class Op, int BlockThreads, int
// ItemsPerThread> (labs 05-07), is described once and then each instance the graded tests call
// is named, for every graded operator or for one:
//   SCANLAB_REMOTE_TILED_FUNCTION(lab05, scan, (const Value<Op>* d_in, ..., Workspace* ws),
//                                 (d_in, ..., ws));
//   SCANLAB_REMOTE_TILES(lab05, scan, 64, 3);
//   SCANLAB_REMOTE_TILES_OF(lab05, scan, scanlab::Sum<std::int32_t>, 32, 1);
// The tile shape may be an expression of Op (a default that depends on its value type). An
// instance the tests call and no line names does not link into the harness (an undefined
// reference to it, in the build of the trusted programs), and the worker answers a call of an
// instance it does not have with an error that names it: neither falls back to another.
#pragma once

#include "remote_argument.h"
#include "remote_scan.h"

#include <string>

namespace scanlab::remote {

/// The element type of an operator, as the lab headers write it (typename Op::value_type).
template <class Op>
using Value = typename Op::value_type;

/// How a call names an instance of a function with a tile shape ("lab05::scan<64 threads, 3
/// items>"): the same on both sides.
inline std::string tiled_name(const char* function, int block_threads, int items_per_thread) {
    return std::string(function) + "<" + std::to_string(block_threads) + " threads, " +
           std::to_string(items_per_thread) + " items>";
}

#define SCANLAB_REMOTE_CONCAT_(A, B) A##B
#define SCANLAB_REMOTE_CONCAT(A, B) SCANLAB_REMOTE_CONCAT_(A, B)
#define SCANLAB_REMOTE_UNIQUE SCANLAB_REMOTE_CONCAT(scanlab_remote_instance_, __COUNTER__)

} // namespace scanlab::remote

#ifdef SCANLAB_REMOTE_HARNESS

#define SCANLAB_REMOTE_FUNCTION(NS, FN, PARAMETERS, ARGUMENTS)                                     \
    template <class Op>                                                                            \
    void NS::FN PARAMETERS {                                                                       \
        ::scanlab::remote::Proxy<>{#NS "::" #FN, ::scanlab::remote::instance_key<Op>()} ARGUMENTS; \
    }                                                                                              \
    /* Taking each instance's address makes the compiler emit it for the tests to link. */         \
    [[maybe_unused]] static const bool scanlab_remote_##NS##_##FN =                                \
        ::scanlab::remote::for_each_graded_operator(                                               \
            []<class Op>() { [[maybe_unused]] volatile auto instance = &NS::FN<Op>; })

#define SCANLAB_REMOTE_MEMBER(CLASS, FN, RETURN, PARAMETERS, ARGUMENTS)                            \
    template <class Op>                                                                            \
    auto CLASS<Op>::FN PARAMETERS->RETURN {                                                        \
        return ::scanlab::remote::Proxy<RETURN>{#CLASS "::" #FN,                                   \
                                                ::scanlab::remote::instance_key<Op>()} ARGUMENTS;  \
    }                                                                                              \
    [[maybe_unused]] static const bool SCANLAB_REMOTE_UNIQUE =                                     \
        ::scanlab::remote::for_each_graded_operator(                                               \
            []<class Op>() { [[maybe_unused]] volatile auto instance = &CLASS<Op>::FN; })

#define SCANLAB_REMOTE_TILED_FUNCTION(NS, FN, PARAMETERS, ARGUMENTS)                               \
    template <class Op, int BlockThreads, int ItemsPerThread>                                      \
    void NS::FN PARAMETERS {                                                                       \
        ::scanlab::remote::Proxy<>{                                                                \
            ::scanlab::remote::tiled_name(#NS "::" #FN, BlockThreads, ItemsPerThread),             \
            ::scanlab::remote::instance_key<Op>()} ARGUMENTS;                                      \
    }                                                                                              \
    static_assert(true)

#define SCANLAB_REMOTE_TILES(NS, FN, BLOCK_THREADS, ITEMS)                                         \
    [[maybe_unused]] static const bool SCANLAB_REMOTE_UNIQUE =                                     \
        ::scanlab::remote::for_each_graded_operator([]<class Op>() {                               \
            [[maybe_unused]] volatile auto instance = &NS::FN<Op, BLOCK_THREADS, ITEMS>;           \
        })

#define SCANLAB_REMOTE_TILES_OF(NS, FN, OP, BLOCK_THREADS, ITEMS)                                  \
    [[maybe_unused]] static const bool SCANLAB_REMOTE_UNIQUE =                                     \
        ::scanlab::remote::for_operator<OP>([]<class Op>() {                                       \
            [[maybe_unused]] volatile auto instance = &NS::FN<Op, BLOCK_THREADS, ITEMS>;           \
        })

#else

#define SCANLAB_REMOTE_FUNCTION(NS, FN, PARAMETERS, ARGUMENTS)                                     \
    [[maybe_unused]] static const bool scanlab_remote_##NS##_##FN =                                \
        ::scanlab::remote::for_each_graded_operator([]<class Op>() {                               \
            ::scanlab::remote::register_typed(#NS "::" #FN, ::scanlab::remote::instance_key<Op>(), \
                                              &NS::FN<Op>);                                        \
        })

#define SCANLAB_REMOTE_MEMBER(CLASS, FN, RETURN, PARAMETERS, ARGUMENTS)                            \
    [[maybe_unused]] static const bool SCANLAB_REMOTE_UNIQUE =                                     \
        ::scanlab::remote::for_each_graded_operator([]<class Op>() {                               \
            ::scanlab::remote::register_typed(                                                     \
                #CLASS "::" #FN, ::scanlab::remote::instance_key<Op>(), &CLASS<Op>::FN);           \
        })

#define SCANLAB_REMOTE_TILED_FUNCTION(NS, FN, PARAMETERS, ARGUMENTS) static_assert(true)

#define SCANLAB_REMOTE_TILES(NS, FN, BLOCK_THREADS, ITEMS)                                         \
    [[maybe_unused]] static const bool SCANLAB_REMOTE_UNIQUE =                                     \
        ::scanlab::remote::for_each_graded_operator([]<class Op>() {                               \
            ::scanlab::remote::register_typed(                                                     \
                ::scanlab::remote::tiled_name(#NS "::" #FN, BLOCK_THREADS, ITEMS),                 \
                ::scanlab::remote::instance_key<Op>(), &NS::FN<Op, BLOCK_THREADS, ITEMS>);         \
        })

#define SCANLAB_REMOTE_TILES_OF(NS, FN, OP, BLOCK_THREADS, ITEMS)                                  \
    [[maybe_unused]] static const bool SCANLAB_REMOTE_UNIQUE =                                     \
        ::scanlab::remote::for_operator<OP>([]<class Op>() {                                       \
            ::scanlab::remote::register_typed(                                                     \
                ::scanlab::remote::tiled_name(#NS "::" #FN, BLOCK_THREADS, ITEMS),                 \
                ::scanlab::remote::instance_key<Op>(), &NS::FN<Op, BLOCK_THREADS, ITEMS>);         \
        })

#endif
