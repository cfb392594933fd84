// The grader's description of a lab's graded functions, at the end of the lab's descriptor
// (tools/worker/README.md; the macros are documented in tools/worker/remote_function.h). In the
// grader's two programs of a graded run they define the proxies (the harness, compiled with
// SCANLAB_REMOTE_HARNESS) or register the lab's functions (the worker, SCANLAB_REMOTE_WORKER);
// in every other program that compiles the descriptor (the main job, the tracer, the
// benchmarks, the speed harness) they are nothing, and their arguments are not compiled.
#pragma once

/// The element type of an operator, as the lab headers write it (typename Op::value_type): the
/// descriptions' parameter lists say Value<Op>.
namespace scanlab::remote {
template <class Op>
using Value = typename Op::value_type;
} // namespace scanlab::remote

#if defined(SCANLAB_REMOTE_HARNESS) || defined(SCANLAB_REMOTE_WORKER)
#define SCANLAB_REMOTE 1
#include "remote_function.h"
#include "remote_workspace.h"
#else
#define SCANLAB_REMOTE_FUNCTION(NS, FN, PARAMETERS, ARGUMENTS) static_assert(true)
#define SCANLAB_REMOTE_MEMBER(CLASS, FN, RETURN, PARAMETERS, ARGUMENTS) static_assert(true)
#define SCANLAB_REMOTE_TILED_FUNCTION(NS, FN, PARAMETERS, ARGUMENTS) static_assert(true)
#define SCANLAB_REMOTE_TILES(NS, FN, OPERATORS, BLOCK_THREADS, ITEMS) static_assert(true)
#define SCANLAB_REMOTE_TYPED_FUNCTION(NS, FN, TEMPLATE, TYPES, PARAMETERS, ARGUMENTS)              \
    static_assert(true)
#define SCANLAB_REMOTE_TYPES(NS, FN, TYPES) static_assert(true)
#define SCANLAB_REMOTE_SHAPED_FUNCTION(NS, FN, PARAMETERS, ARGUMENTS) static_assert(true)
#define SCANLAB_REMOTE_SHAPES(NS, FN, OPERATORS, SHAPE) static_assert(true)
#endif
