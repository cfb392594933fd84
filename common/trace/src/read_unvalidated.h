#pragma once

// The reader's first stage alone: parse and convert a document, which checks its structure
// (fields, types, enums, which field goes with which), without validate_trace()'s rules across
// sections. tests/trace/check_rules.py holds this stage to docs/trace.schema.json, which states
// the same structure.

#include <string_view>

#include "scanlab/trace/limits.h"
#include "scanlab/trace/trace.h"

namespace scanlab::trace::detail {

Trace read_trace_unvalidated(std::string_view text, const Limits& limits = {});

} // namespace scanlab::trace::detail
