#include "finding_marks.h"

#include <algorithm>

namespace scanlab::view {

std::vector<FindingMark> finding_marks(const trace::Trace& trace, std::size_t index) {
    std::vector<FindingMark> marks;
    if (index >= trace.findings.size()) return marks;
    for (const trace::FindingAccess& access : trace.findings[index].accesses) {
        FindingMark mark;
        mark.block = access.block;
        mark.thread = access.thread;
        if (access.memory) {
            mark.memory = access.memory;
            mark.first_byte = access.offset;
            mark.end_byte = access.offset + std::max<std::uint32_t>(1, access.bytes);
        }
        if (access.recorded) mark.instruction = access.recorded->instruction;
        mark.step = access.step;
        marks.push_back(mark);
    }
    return marks;
}

std::optional<FindingTarget> finding_target(const trace::Trace& trace, const TraceIndex& index,
                                            std::size_t finding) {
    if (finding >= trace.findings.size()) return std::nullopt;
    // An access with its recorded instruction first: the view then shows that very instruction.
    for (const trace::FindingAccess& access : trace.findings[finding].accesses)
        if (access.recorded) {
            const Place place = index.instruction_place(access.recorded->instruction);
            return FindingTarget{
                place.block, cursor_after_instruction(index.block(place.block), place.position)};
        }
    for (const trace::FindingAccess& access : trace.findings[finding].accesses)
        if (access.step) {
            const Place place = index.step_place(*access.step);
            return FindingTarget{place.block,
                                 cursor_at_step_end(index.block(place.block), place.position)};
        }
    return std::nullopt;
}

std::vector<std::uint64_t> marked_elements(const std::vector<FindingMark>& marks,
                                           std::uint32_t block, std::uint32_t memory,
                                           std::uint32_t cell_bytes) {
    std::vector<std::uint64_t> elements;
    const std::uint64_t size = std::max<std::uint32_t>(1, cell_bytes);
    for (const FindingMark& mark : marks) {
        if (mark.block != block || mark.memory != memory) continue;
        for (std::uint64_t e = mark.first_byte / size; e * size < mark.end_byte; ++e)
            elements.push_back(e);
    }
    std::sort(elements.begin(), elements.end());
    elements.erase(std::unique(elements.begin(), elements.end()), elements.end());
    return elements;
}

std::string finding_headline(const trace::Finding& finding) {
    // The report's second line says what happened ("shared memory race (write after read):
    // buffer[0][1] ..."); the first only names the kind and the kernel.
    const std::string& m = finding.message;
    const std::size_t second = m.find('\n');
    if (second != std::string::npos && second + 1 < m.size()) {
        std::string line = m.substr(second + 1, m.find('\n', second + 1) - second - 1);
        line.erase(0, line.find_first_not_of(' '));
        if (!line.empty()) return line;
    }
    std::string line = m.substr(0, second);
    if (line.rfind("simt: ", 0) == 0) line.erase(0, 6);
    return line;
}

} // namespace scanlab::view
