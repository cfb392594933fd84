// A lab's graded functions, described for both programs of a graded run (README.md). The lines
// stand at the end of the lab's descriptor, tools/lab_descriptors/labNN.cpp, which includes them
// through lab_remote.h: in the harness (SCANLAB_REMOTE_HARNESS) each DEFINES the function as a
// proxy that ships each call to the worker (harness_client.h); in the worker
// (SCANLAB_REMOTE_WORKER) it registers the lab's own function under the same name for the
// worker's server (worker_registry.h); in every other program it is nothing.
//
// A function templated over the operator, with its parameters as the lab header writes them
// (Value<Op> for `typename Op::value_type`) and the arguments to ship:
//   SCANLAB_REMOTE_FUNCTION(lab04, scan_then_propagate,
//       (const Value<Op>* d_in, Value<Op>* d_out, std::int64_t n, ScanKind kind, int threads),
//       (d_in, d_out, n, kind, threads));
// is graded for every operator of scanlab/graded_operators.h. The arguments travel by type
// (remote_argument.h): a pointer is device memory and ships the whole allocation it lies in; a
// number, an enum or a small trivially copyable struct (an options struct) is copied; a
// pointer to a Described object (a Workspace) ships its state. A host function's pointers are
// named as host ranges of n elements (lab 00):
//   SCANLAB_REMOTE_FUNCTION(lab00, sequential_scan,
//       (const Value<Op>* in, Value<Op>* out, int n, ScanKind kind),
//       (host_range(in, n), host_range(out, n), n, kind));
//
// A static member function of a class template over the operator, with its return type and
// parameters as the class writes them (they are looked up in the class):
//   SCANLAB_REMOTE_MEMBER(lab06::Segmented, apply, value_type, (value_type a, value_type b),
//                         (a, b));
// A value returned is copied back bit for bit.
//
// A function templated over a tile shape as well, template <class Op, int BlockThreads, int
// ItemsPerThread> (labs 05-07), is described once and then each instance the graded tests call
// is named, for an operator set: Graded (every graded operator) or Only<Op> (one):
//   SCANLAB_REMOTE_TILED_FUNCTION(lab05, scan, (const Value<Op>* d_in, ..., Workspace* ws),
//                                 (d_in, ..., ws));
//   SCANLAB_REMOTE_TILES(lab05, scan, Graded, 64, 3);
//   SCANLAB_REMOTE_TILES(lab05, scan, Only<scanlab::Sum<std::int32_t>>, 32, 1);
// The tile shape may be an expression of Op (a default that depends on its value type). An
// instance the tests call and no line names does not link into the harness (an undefined
// reference to it, in the build of the trusted programs), and the worker answers a call of an
// instance it does not have with an error that names it: neither falls back to another.
//
// A function templated over a shape type as well, template <class Op, class Shape> (lab 08's
// PipelineShape), is described once and then each shape the graded tests call is named, for an
// operator set; its calls are keyed by the shape's mangled type name (the same on both sides):
//   SCANLAB_REMOTE_SHAPED_FUNCTION(lab08, scan, (const Value<Op>* d_in, ...), (d_in, ...));
//   SCANLAB_REMOTE_SHAPES(lab08, scan, Graded, lab08::SmallShape);
//
// A function templated over the element type instead (lab 07's select_greater<T>) names the
// type where the operator goes; its calls are keyed by the type's name.
//
// A function templated over types of its own and no operator (lab 09's sort_keys<Key> and
// sort_pairs<Key, Value>) is described with its template parameters and their names, then each
// instance the tests call is named by its types; its calls are keyed by the types' names:
//   SCANLAB_REMOTE_TYPED_FUNCTION(lab09, sort_pairs, (class Key, class Value), (Key, Value),
//       (const Key* d_keys_in, ..., Workspace* workspace), (d_keys_in, ..., workspace));
//   SCANLAB_REMOTE_TYPES(lab09, sort_pairs, (float, std::uint32_t));
#pragma once

#include "remote_argument.h"

#include <scanlab/graded_operators.h>
#include <scanlab/type_name.h>

#include <string>
#include <typeinfo>

namespace scanlab::remote {

/// The operator sets of SCANLAB_REMOTE_TILES: Set::visit(v) calls v.template operator()<Op>()
/// for each of its operators (a static initializer's call: it returns true).
struct Graded {
    template <class Visit>
    static bool visit(Visit&& visit) {
        return for_each_graded_operator([&]<class Op>() {
            visit.template operator()<Op>();
            return true;
        });
    }
};

template <class Op>
struct Only {
    template <class Visit>
    static bool visit(Visit&& visit) {
        visit.template operator()<Op>();
        return true;
    }
};

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

/// How a call names an instance of a function templated over types of its own ("float,
/// uint32"): the same on both sides.
template <class... Types>
std::string types_key() {
    std::string key;
    ((key += (key.empty() ? "" : ", ") + std::string(type_name<Types>())), ...);
    return key;
}

/// How a call names an instance of a function with a tile shape ("lab05::scan<64 threads, 3
/// items>"): the same on both sides.
inline std::string tiled_name(const char* function, int block_threads, int items_per_thread) {
    return std::string(function) + "<" + std::to_string(block_threads) + " threads, " +
           std::to_string(items_per_thread) + " items>";
}

/// How a call names an instance of a function with a shape type ("lab08::scan<N5lab0813...>"):
/// the same on both sides, which are built by one compiler.
template <class Shape>
std::string shaped_name(const char* function) {
    return std::string(function) + "<" + typeid(Shape).name() + ">";
}

/// One instance of a described function, `function` for the operator (or element type) `key`:
/// in the harness, its proxy is emitted for the tests to link (taking its address does that);
/// in the worker, the lab's own `fn` is registered (remote_argument.h, register_typed).
template <class Fn>
void provide([[maybe_unused]] const std::string& function, [[maybe_unused]] const std::string& key,
             Fn fn) {
#ifdef SCANLAB_REMOTE_HARNESS
    [[maybe_unused]] volatile Fn instance = fn;
#else
    register_typed(function, key, fn);
#endif
}

#define SCANLAB_REMOTE_CONCAT_(A, B) A##B
#define SCANLAB_REMOTE_CONCAT(A, B) SCANLAB_REMOTE_CONCAT_(A, B)
#define SCANLAB_REMOTE_UNIQUE SCANLAB_REMOTE_CONCAT(scanlab_remote_instance_, __COUNTER__)

} // namespace scanlab::remote

// The proxy's definition: in the harness only (the worker has the lab's own function). Either
// way a declaration that takes the line's `;`.
#ifdef SCANLAB_REMOTE_HARNESS
#define SCANLAB_REMOTE_PROXY_(...) __VA_ARGS__ static_assert(true)
#else
#define SCANLAB_REMOTE_PROXY_(...) static_assert(true)
#endif

// provide() of the instance `...` (an expression of Op) for each operator of OPERATORS, before
// main() runs. NAME is evaluated for each operator too.
#define SCANLAB_REMOTE_INSTANCES_(OPERATORS, NAME, ...)                                            \
    [[maybe_unused]] static const bool SCANLAB_REMOTE_UNIQUE =                                     \
        ::scanlab::remote::OPERATORS::visit([]<class Op>() {                                       \
            ::scanlab::remote::provide(NAME, ::scanlab::remote::instance_key<Op>(), __VA_ARGS__);  \
        })

#define SCANLAB_REMOTE_FUNCTION(NS, FN, PARAMETERS, ARGUMENTS)                                     \
    SCANLAB_REMOTE_PROXY_(template <class Op> void NS::FN PARAMETERS {                             \
        using ::scanlab::remote::host_range;                                                       \
        ::scanlab::remote::Proxy<>{#NS "::" #FN, ::scanlab::remote::instance_key<Op>()} ARGUMENTS; \
    });                                                                                            \
    SCANLAB_REMOTE_INSTANCES_(Graded, #NS "::" #FN, &NS::FN<Op>)

#define SCANLAB_REMOTE_MEMBER(CLASS, FN, RETURN, PARAMETERS, ARGUMENTS)                            \
    SCANLAB_REMOTE_PROXY_(template <class Op> auto CLASS<Op>::FN PARAMETERS->RETURN {              \
        using ::scanlab::remote::host_range;                                                       \
        return ::scanlab::remote::Proxy<RETURN>{#CLASS "::" #FN,                                   \
                                                ::scanlab::remote::instance_key<Op>()} ARGUMENTS;  \
    });                                                                                            \
    SCANLAB_REMOTE_INSTANCES_(Graded, #CLASS "::" #FN, &CLASS<Op>::FN)

#define SCANLAB_REMOTE_TILED_FUNCTION(NS, FN, PARAMETERS, ARGUMENTS)                               \
    SCANLAB_REMOTE_PROXY_(                                                                         \
        template <class Op, int BlockThreads, int ItemsPerThread> void NS::FN PARAMETERS {         \
            using ::scanlab::remote::host_range;                                                   \
            ::scanlab::remote::Proxy<>{                                                            \
                ::scanlab::remote::tiled_name(#NS "::" #FN, BlockThreads, ItemsPerThread),         \
                ::scanlab::remote::instance_key<Op>()} ARGUMENTS;                                  \
        })

#define SCANLAB_REMOTE_TILES(NS, FN, OPERATORS, BLOCK_THREADS, ITEMS)                              \
    SCANLAB_REMOTE_INSTANCES_(OPERATORS,                                                           \
                              ::scanlab::remote::tiled_name(#NS "::" #FN, BLOCK_THREADS, ITEMS),   \
                              &NS::FN<Op, BLOCK_THREADS, ITEMS>)

#define SCANLAB_REMOTE_SHAPED_FUNCTION(NS, FN, PARAMETERS, ARGUMENTS)                              \
    SCANLAB_REMOTE_PROXY_(template <class Op, class Shape> void NS::FN PARAMETERS {                \
        using ::scanlab::remote::host_range;                                                       \
        ::scanlab::remote::Proxy<>{::scanlab::remote::shaped_name<Shape>(#NS "::" #FN),            \
                                   ::scanlab::remote::instance_key<Op>()} ARGUMENTS;               \
    })

#define SCANLAB_REMOTE_SHAPES(NS, FN, OPERATORS, SHAPE)                                            \
    SCANLAB_REMOTE_INSTANCES_(OPERATORS, ::scanlab::remote::shaped_name<SHAPE>(#NS "::" #FN),      \
                              &NS::FN<Op, SHAPE>)

#define SCANLAB_REMOTE_UNPAREN_(...) __VA_ARGS__

#define SCANLAB_REMOTE_TYPED_FUNCTION(NS, FN, TEMPLATE, TYPES, PARAMETERS, ARGUMENTS)              \
    SCANLAB_REMOTE_PROXY_(template <SCANLAB_REMOTE_UNPAREN_ TEMPLATE> void NS::FN PARAMETERS {     \
        using ::scanlab::remote::host_range;                                                       \
        ::scanlab::remote::Proxy<>{                                                                \
            #NS "::" #FN,                                                                          \
            ::scanlab::remote::types_key<SCANLAB_REMOTE_UNPAREN_ TYPES>()} ARGUMENTS;              \
    })

#define SCANLAB_REMOTE_TYPES(NS, FN, TYPES)                                                        \
    [[maybe_unused]] static const bool SCANLAB_REMOTE_UNIQUE = [] {                                \
        ::scanlab::remote::provide(#NS "::" #FN,                                                   \
                                   ::scanlab::remote::types_key<SCANLAB_REMOTE_UNPAREN_ TYPES>(),  \
                                   &NS::FN<SCANLAB_REMOTE_UNPAREN_ TYPES>);                        \
        return true;                                                                               \
    }()
