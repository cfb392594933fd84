#include "trace_text.h"

#include <algorithm>
#include <cstdio>

#include "scanlab/trace/names.h"

namespace scanlab::view {

std::string object_label(const trace::MemoryObject& object) {
    const std::uint64_t count = object.size / std::max<std::uint32_t>(object.element_size, 1);
    return object.name + " (" + std::string(trace::to_string(object.space)) + ", " +
           std::to_string(count) + " x " + object.element_type + ")";
}

std::string source_line_text(const trace::Trace& trace, trace::SourceLocation location) {
    if (location.file >= trace.sources.size()) return {};
    for (const auto& line : trace.sources[location.file].lines) {
        if (line.number != location.line) continue;
        const auto first = line.text.find_first_not_of(" \t");
        return first == std::string::npos ? std::string() : line.text.substr(first);
    }
    return {};
}

std::string location_label(const trace::Trace& trace, trace::SourceLocation location) {
    if (trace.sources.size() > 1 && location.file < trace.sources.size()) {
        const std::string& path = trace.sources[location.file].path;
        const auto slash = path.find_last_of('/');
        return (slash == std::string::npos ? path : path.substr(slash + 1)) + ":" +
               std::to_string(location.line);
    }
    return "line " + std::to_string(location.line);
}

std::string instruction_label(const trace::Trace& trace, std::uint64_t instruction) {
    const auto& i = trace.instructions[instruction];
    return "#" + std::to_string(instruction) + " " + std::string(trace::to_string(i.kind)) + " " +
           trace.memory[i.memory].name + ", " + std::to_string(i.width) + " B x " +
           std::to_string(i.lanes.size()) + (i.lanes.size() == 1 ? " lane, " : " lanes, ") +
           location_label(trace, i.source);
}

std::string short_kernel_name(const std::string& kernel) {
    std::string name = kernel;
    if (name.rfind("void ", 0) == 0) name.erase(0, 5);
    int depth = 0;
    for (std::size_t i = 0; i < name.size(); ++i) {
        if (name[i] == '<') ++depth;
        if (name[i] == '>') --depth;
        if (name[i] == '(' && depth == 0) return name.substr(0, i);
    }
    return name;
}

std::string compact_count(std::uint64_t value) {
    char text[32];
    if (value >= 10'000'000)
        std::snprintf(text, sizeof text, "%.1f M", static_cast<double>(value) / 1e6);
    else if (value >= 100'000)
        std::snprintf(text, sizeof text, "%.0f k", static_cast<double>(value) / 1e3);
    else
        std::snprintf(text, sizeof text, "%llu", static_cast<unsigned long long>(value));
    return text;
}

} // namespace scanlab::view
