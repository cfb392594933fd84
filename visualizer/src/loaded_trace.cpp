#include "loaded_trace.h"

#include <utility>

#include "scanlab/trace/reader.h"

namespace scanlab::view {

LoadedTrace::LoadedTrace(std::filesystem::path file, trace::Trace document)
    : path(std::move(file)), trace(std::move(document)), analysis(trace::analyze_trace(trace)),
      index(trace), timeline(trace) {}

trace::Limits viewer_limits() {
    trace::Limits limits;
    limits.max_document_bytes = std::uint64_t{4} << 30;
    return limits;
}

std::unique_ptr<LoadedTrace> load_trace(const std::filesystem::path& path) {
    return std::make_unique<LoadedTrace>(path, trace::read_trace_file(path, viewer_limits()));
}

} // namespace scanlab::view
