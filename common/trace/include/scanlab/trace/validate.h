#pragma once

#include "scanlab/trace/limits.h"
#include "scanlab/trace/trace.h"

namespace scanlab::trace {

// Checks every rule of docs/trace-format.md ("Validity") that the types do not already enforce:
// ranges, references between sections, ordering, alignment, limits. Throws TraceError naming the
// first offending field by its document path. read_trace() and write_trace() both call it.
void validate_trace(const Trace& trace, const Limits& limits = {});

} // namespace scanlab::trace
