#pragma once

// The fields each object of a trace document may have: the reader refuses any other. They repeat
// the "properties" of docs/trace.schema.json, the source of these rules; the ctest trace.rules
// (tests/trace/check_rules.py) compares the two and names any field on one side only.

#include <span>
#include <string_view>

namespace scanlab::trace::detail {

using FieldList = std::span<const std::string_view>;

inline constexpr std::string_view kTopLevelFields[] = {
    "format",   "version",  "launch",       "truncated",    "sources",
    "memory",   "steps",    "instructions", "block_events", "shared_totals",
    "findings", "shuffles", "expected",     "mbarriers"};
inline constexpr std::string_view kLaunchFields[] = {
    "kernel", "grid", "block", "dynamic_shared_bytes", "mode", "dispatch", "seed"};
inline constexpr std::string_view kTruncationFields[] = {"limit", "value", "message"};
inline constexpr std::string_view kSourceFields[] = {"path", "lines"};
inline constexpr std::string_view kSourceLineFields[] = {"line", "text"};
inline constexpr std::string_view kLocationFields[] = {"file", "line"};
inline constexpr std::string_view kMemoryObjectFields[] = {
    "id", "name", "space", "block", "base", "size", "element_type", "element_size"};
inline constexpr std::string_view kStepFields[] = {"index", "block", "barrier", "shared_totals"};
inline constexpr std::string_view kInstructionFields[] = {
    "index", "time",   "block", "warp",       "step",  "source",        "kind",
    "space", "memory", "width", "value_type", "lanes", "bank_conflicts"};
inline constexpr std::string_view kLaneFields[] = {"lane", "thread", "offset", "value",
                                                   "old",  "writer", "bank"};
inline constexpr std::string_view kShuffleFields[] = {
    "time", "block", "warp", "step", "source", "kind", "width", "value_type", "lanes"};
inline constexpr std::string_view kShuffleLaneFields[] = {"lane", "source", "value"};
inline constexpr std::string_view kExpectedFields[] = {"reference", "value_type", "objects",
                                                       "tiles"};
inline constexpr std::string_view kExpectedObjectFields[] = {"memory", "first", "values"};
inline constexpr std::string_view kExpectedTileFields[] = {"tile", "prefix", "inclusive"};
inline constexpr std::string_view kMbarrierEventFields[] = {
    "time",  "block", "thread", "event", "barrier",    "source",
    "count", "bytes", "parity", "phase", "destination"};
inline constexpr std::string_view kMemoryPlaceFields[] = {"memory", "offset"};
inline constexpr std::string_view kWriterFields[] = {"instruction", "thread"};
// All kinds of block event together; which kind has which is the converter's business.
inline constexpr std::string_view kBlockEventFields[] = {
    "time", "block", "event", "slot", "tile", "flag", "value_type", "value", "reads"};
inline constexpr std::string_view kFindingFields[] = {"kind", "ends_launch", "message", "source",
                                                      "accesses"};
inline constexpr std::string_view kFindingAccessFields[] = {
    "block", "thread", "role",        "memory", "offset",
    "bytes", "source", "instruction", "lane",   "step"};

} // namespace scanlab::trace::detail
