#pragma once

// What the viewer shows for one finding of a trace (a race, an out-of-bounds access, a
// deadlock...): where to jump (the block and the point just after the recorded instruction of
// its first access, or the end of the access's step), and which cells and lanes to mark.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cursor.h"
#include "trace_index.h"

namespace scanlab::view {

// One thread of the finding, as the viewer marks it.
struct FindingMark {
    std::uint32_t block = 0;  // linear block index
    std::uint32_t thread = 0; // in the block; warp = thread / 32, lane = thread % 32
    std::optional<std::uint32_t> memory;
    std::uint64_t first_byte = 0; // with memory: the bytes [first_byte, end_byte) of it
    std::uint64_t end_byte = 0;
    std::optional<std::uint64_t> instruction; // the recorded instruction, when there is one
    std::optional<std::uint32_t> step;        // global step index, when known
};

struct FindingTarget {
    std::uint32_t block = 0; // position in TraceIndex::blocks()
    Cursor cursor;
};

// The marks of finding `index` (every access, in the finding's order).
std::vector<FindingMark> finding_marks(const trace::Trace& trace, std::size_t index);

// Where to jump for finding `index`: its first access that has a recorded instruction or step in
// a recorded block. Empty when none of its blocks was recorded.
std::optional<FindingTarget> finding_target(const trace::Trace& trace, const TraceIndex& index,
                                            std::size_t finding);

// The cells of `memory` that the finding's accesses in `block` touched, as element indices for
// elements of `cell_bytes` bytes.
std::vector<std::uint64_t> marked_elements(const std::vector<FindingMark>& marks,
                                           std::uint32_t block, std::uint32_t memory,
                                           std::uint32_t cell_bytes);

// The list's label: the report's line that says what happened (its second), or its first line
// without the "simt: " prefix.
std::string finding_headline(const trace::Finding& finding);

} // namespace scanlab::view
