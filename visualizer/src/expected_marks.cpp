#include "expected_marks.h"

#include "scanlab/trace/value.h"

namespace scanlab::view {

ExpectedMarks::ExpectedMarks(const trace::Trace& trace)
    : has_expected_(trace.expected.has_value()), check_(trace::check_expected(trace)) {
    for (const trace::ElementDifference& d : check_.elements)
        wrong_.emplace(d.instruction, d.lane, d.element);
}

bool ExpectedMarks::wrong(std::uint64_t instruction, std::uint32_t lane,
                          std::uint64_t element) const {
    return !wrong_.empty() && wrong_.count({instruction, lane, element}) != 0;
}

std::string ExpectedMarks::summary(const trace::Trace& trace) const {
    if (!has_expected_) return {};
    const trace::Expected& expected = *trace.expected;
    const std::uint32_t size = trace::value_type_size(expected.value_type);
    const auto text = [&](const trace::ValueBytes& v) {
        return trace::format_value(expected.value_type, size, v);
    };
    std::string line;
    if (check_.elements.empty()) {
        line = "the " + std::to_string(check_.judged) + " elements the recorded blocks wrote " +
               "match the " + expected.reference;
    } else {
        const trace::ElementDifference& first = check_.elements.front();
        line = std::to_string(check_.elements.size()) + " of " + std::to_string(check_.judged) +
               " elements differ from the " + expected.reference + "; first at index " +
               std::to_string(first.element) + " of " + trace.memory[first.memory].name + ": " +
               text(first.actual) + ", expected " + text(first.expected);
    }
    if (!check_.tiles.empty()) {
        const trace::TileDifference& tile = check_.tiles.front();
        line += "; " + std::to_string(check_.tiles.size()) + " tile(s) published a wrong P, " +
                "first tile " + std::to_string(tile.tile) + ": " + text(tile.actual) +
                ", expected " + text(tile.expected);
    }
    return line;
}

} // namespace scanlab::view
