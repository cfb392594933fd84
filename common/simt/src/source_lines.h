// Maps code addresses in kernel code to "file:line (function)" for reports, through the platform's
// symbolizer on the running executable (addr2line on Linux: platform.h; kernel objects are
// compiled with line tables, -g1). Results are cached.
#pragma once

#include <string>
#include <vector>

namespace simt::detail {

struct SourceLocation {
    std::string file; // empty if unknown
    int line = 0;
    std::string function;
    // The lines of the user's frames the code position sits in, outermost (the kernel's line of
    // the call) to innermost (`line`), through inlined functions: what orders two positions in
    // different functions (the lockstep scheduler's code order).
    std::vector<int> frame_lines;
    std::string to_string() const; // "file:line" (basename) or "unknown location"
};

// `pc` is a return address or instruction address inside kernel code.
SourceLocation resolve_source(const void* pc);
// resolve_source(pc).to_string(): the "file:line" a report quotes.
std::string source_line(const void* pc);
// Batch form (one symbolizer request per module for all of them).
std::vector<SourceLocation> resolve_sources(const std::vector<const void*>& pcs);

} // namespace simt::detail
