// The C++ side of the trace.rules test (tests/trace/check_rules.py), which holds the reader to
// docs/trace.schema.json, the format's structural rules.
//
//   trace_rules_probe --rules   prints the reader's own tables (field lists, enum spellings,
//                               CUDA launch limits, access widths, versions) as one JSON object
//   trace_rules_probe --read    reads one JSON document per line of stdin and prints, per line,
//                               the verdicts of the whole reader and of its first stage alone
//                               (read_unvalidated.h): {"reader": V, "structure": V}, where V is
//                               {"ok": true} or {"ok": false, "path": ..., "message": ...}

#include <iostream>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "field_lists.h"
#include "read_unvalidated.h"
#include "rules.h"
#include "scanlab/trace/error.h"
#include "scanlab/trace/names.h"
#include "scanlab/trace/reader.h"
#include "scanlab/trace/trace.h"

namespace {

using nlohmann::json;
using namespace scanlab::trace;

template <class E>
json names_of() {
    json names = json::array();
    for (const std::string_view name : EnumNames<E>::names) names.push_back(std::string(name));
    return names;
}

json names_of(detail::FieldList fields) {
    json names = json::array();
    for (const std::string_view name : fields) names.push_back(std::string(name));
    return names;
}

json reader_rules() {
    json widths = json::array();
    for (std::uint32_t width = 0; width <= 64; ++width)
        if (detail::access_width_problem(width).empty()) widths.push_back(width);
    json versions = json::array();
    for (std::uint32_t version = kOldestFormatVersion; version <= kFormatVersion; ++version)
        versions.push_back(version);
    return {
        {"format", std::string(kFormatName)},
        {"versions", versions},
        {"fields",
         {{"kTopLevelFields", names_of(detail::kTopLevelFields)},
          {"kLaunchFields", names_of(detail::kLaunchFields)},
          {"kTruncationFields", names_of(detail::kTruncationFields)},
          {"kSourceFields", names_of(detail::kSourceFields)},
          {"kSourceLineFields", names_of(detail::kSourceLineFields)},
          {"kLocationFields", names_of(detail::kLocationFields)},
          {"kMemoryObjectFields", names_of(detail::kMemoryObjectFields)},
          {"kStepFields", names_of(detail::kStepFields)},
          {"kInstructionFields", names_of(detail::kInstructionFields)},
          {"kLaneFields", names_of(detail::kLaneFields)},
          {"kWriterFields", names_of(detail::kWriterFields)},
          {"kBlockEventFields", names_of(detail::kBlockEventFields)},
          {"kFindingFields", names_of(detail::kFindingFields)},
          {"kFindingAccessFields", names_of(detail::kFindingAccessFields)},
          {"kShuffleFields", names_of(detail::kShuffleFields)},
          {"kShuffleLaneFields", names_of(detail::kShuffleLaneFields)},
          {"kExpectedFields", names_of(detail::kExpectedFields)},
          {"kExpectedObjectFields", names_of(detail::kExpectedObjectFields)},
          {"kExpectedTileFields", names_of(detail::kExpectedTileFields)},
          {"kMbarrierEventFields", names_of(detail::kMbarrierEventFields)},
          {"kMemoryPlaceFields", names_of(detail::kMemoryPlaceFields)}}},
        {"enums",
         {{"EmulatorMode", names_of<EmulatorMode>()},
          {"DispatchOrder", names_of<DispatchOrder>()},
          {"MemorySpace", names_of<MemorySpace>()},
          {"AccessKind", names_of<AccessKind>()},
          {"ShuffleKind", names_of<ShuffleKind>()},
          {"TileFlag", names_of<TileFlag>()},
          {"TruncationLimit", names_of<TruncationLimit>()},
          {"MbarrierOp", names_of<MbarrierOp>()},
          {"FindingKind", names_of<FindingKind>()},
          {"FindingRole", names_of<FindingRole>()},
          {"ValueType", names_of<ValueType>()}}},
        {"access_widths", widths},
        {"constants",
         {{"kWarpSize", kWarpSize},
          {"kMaxGridX", kMaxGridX},
          {"kMaxGridYZ", kMaxGridYZ},
          {"kMaxBlockXY", kMaxBlockXY},
          {"kMaxBlockZ", kMaxBlockZ},
          {"kMaxBlockThreads", kMaxBlockThreads},
          {"kMaxFindingAccesses", kMaxFindingAccesses}}},
    };
}

template <class Read>
json verdict(Read read) {
    try {
        read();
        return {{"ok", true}};
    } catch (const TraceError& error) {
        return {{"ok", false}, {"path", error.path()}, {"message", error.detail()}};
    }
}

json read_verdicts(const std::string& document) {
    return {{"reader", verdict([&] { read_trace_text(document); })},
            {"structure", verdict([&] { detail::read_trace_unvalidated(document); })}};
}

} // namespace

int main(int argc, char** argv) {
    const std::string_view mode = argc == 2 ? argv[1] : "";
    if (mode == "--rules") {
        std::cout << reader_rules().dump(2) << '\n';
        return 0;
    }
    if (mode == "--read") {
        for (std::string line; std::getline(std::cin, line);)
            std::cout << read_verdicts(line).dump() << '\n';
        return 0;
    }
    std::cerr << "usage: trace_rules_probe --rules | --read  (documents on stdin, one a line)\n";
    return 2;
}
