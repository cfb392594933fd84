#include "loaded_trace.h"

#include <chrono>
#include <utility>

#include "scanlab/trace/reader.h"

namespace scanlab::view {

namespace {
using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
}
} // namespace

LoadedTrace::LoadedTrace(std::filesystem::path file, trace::Trace document)
    : path(std::move(file)), trace(std::move(document)), index(trace) {
    auto start = Clock::now();
    analysis = trace::analyze_trace(trace);
    times.analyse = seconds_since(start);
    start = Clock::now();
    timeline = TimelineModel(trace);
    lookback = LookbackModel(trace);
    expected = ExpectedMarks(trace);
    times.index = seconds_since(start);
}

trace::Limits viewer_limits() {
    trace::Limits limits;
    limits.max_document_bytes = std::uint64_t{4} << 30;
    return limits;
}

std::unique_ptr<LoadedTrace> load_trace(const std::filesystem::path& path) {
    const auto start = Clock::now();
    trace::Trace document = trace::read_trace_file(path, viewer_limits());
    const double read = seconds_since(start);
    const auto index_start = Clock::now();
    auto loaded = std::make_unique<LoadedTrace>(path, std::move(document));
    loaded->times.read = read;
    loaded->times.index = seconds_since(index_start) - loaded->times.analyse;
    return loaded;
}

} // namespace scanlab::view
