#pragma once

// One section element of a parsed document -> its model struct. Checks shape and types (and
// what decoding needs); references between sections are left to validate_trace().

#include <cstddef>
#include <optional>

#include "json_path.h"
#include "json_read.h"
#include "scanlab/trace/trace.h"

namespace scanlab::trace::detail {

LaunchInfo read_launch(const Json& json, const Path& path);
std::optional<Truncation> read_truncation(const Json& json, const Path& path);
SourceFile read_source(const Json& json, const Path& path);
// `position` is the element's index in its array, which its "id"/"index" must repeat.
MemoryObject read_memory_object(const Json& json, const Path& path, std::size_t position);
Step read_step(const Json& json, const Path& path, std::size_t position);
WarpInstruction read_instruction(const Json& json, const Path& path, std::size_t position);
BlockEvent read_block_event(const Json& json, const Path& path);
// Version 2: one element of "findings".
Finding read_finding(const Json& json, const Path& path);
// Version 3: one element of "shuffles", and the "expected" object (null: none).
WarpShuffle read_shuffle(const Json& json, const Path& path);
std::optional<Expected> read_expected(const Json& json, const Path& path);
// Version 4: one element of "mbarriers".
MbarrierEvent read_mbarrier_event(const Json& json, const Path& path);

} // namespace scanlab::trace::detail
