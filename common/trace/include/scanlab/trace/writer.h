#pragma once

#include <filesystem>
#include <ostream>

#include "scanlab/trace/limits.h"
#include "scanlab/trace/trace.h"

namespace scanlab::trace {

// Validate `trace` (TraceError if invalid) and write it as a trace document, with the derived bank
// analysis and totals. Deterministic: the same Trace always gives the same bytes (fixed key order,
// shortest round-trip numbers, one instruction per line).
void write_trace(const Trace& trace, std::ostream& out, const Limits& limits = {});

// The same into a file, written next to it first and renamed, so a reader never sees half a trace.
void write_trace_file(const Trace& trace, const std::filesystem::path& path,
                      const Limits& limits = {});

} // namespace scanlab::trace
