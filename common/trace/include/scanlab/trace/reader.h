#pragma once

#include <filesystem>
#include <istream>
#include <string_view>

#include "scanlab/trace/limits.h"
#include "scanlab/trace/trace.h"

namespace scanlab::trace {

// Parse and validate a trace document. Throws TraceError, with the document path of the problem,
// for anything that is not a valid trace within `limits`: unreadable input, invalid JSON (with
// its byte offset), another format or version, missing or unknown fields, wrong types, values
// out of range, dangling ids, documents over the limits. Derived fields (bank analysis, totals)
// are ignored: call analyze_trace() on the result.
Trace read_trace(std::istream& in, const Limits& limits = {});
Trace read_trace_file(const std::filesystem::path& path, const Limits& limits = {});
Trace read_trace_text(std::string_view text, const Limits& limits = {});

} // namespace scanlab::trace
