#pragma once

// Short texts about parts of a trace, shared by the views, tooltips and panels.

#include <cstdint>
#include <string>

#include "scanlab/trace/trace.h"

namespace scanlab::view {

// "temp (shared, 264 x int)"
std::string object_label(const trace::MemoryObject& object);
// The text of a source line, without leading blanks; empty when the trace lacks it.
std::string source_line_text(const trace::Trace& trace, trace::SourceLocation location);
// "line 36" (or "file.cu:36" when the trace has several files)
std::string location_label(const trace::Trace& trace, trace::SourceLocation location);
// "#34 load temp, 4 B x 32 lanes, line 36"
std::string instruction_label(const trace::Trace& trace, std::uint64_t instruction);
// The kernel's name without its return type and parameters:
// "lab01::naive_scan_kernel<scanlab::Sum<int> >".
std::string short_kernel_name(const std::string& kernel);
// "1.2 M" style counts for large numbers.
std::string compact_count(std::uint64_t value);

} // namespace scanlab::view
