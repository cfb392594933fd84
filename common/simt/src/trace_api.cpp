// Turning trace recording on and off, from code (simt::start_tracing) or from the environment
// (SIMT_TRACE=file.json), and a recorder for each recorded launch (launch_recorder.h).
#include <scanlab/trace/trace.h>
#include <scanlab/trace/writer.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "launch_recorder.h"
#include "simt/trace.h"
#include "trace_recorder.h"
#include "trace_session.h"

namespace simt {

namespace detail {

TraceSession& trace_session() {
    static TraceSession session;
    return session;
}

void TraceSession::finished(scanlab::trace::Trace&& trace) {
    if (!file_pattern.empty()) {
        std::string path = file_pattern;
        if (files_written > 0) {
            auto dot = path.rfind(".json");
            std::string suffix = "." + std::to_string(files_written);
            path = dot == std::string::npos ? path + suffix : path.insert(dot, suffix);
        }
        // A trace that cannot be written is said, and the program goes on (SIMT_TRACE is a
        // request for a picture, not part of what the program computes).
        try {
            scanlab::trace::write_trace_file(trace, path);
            std::fprintf(stderr, "simt: trace of %s written to %s (%zu warp instructions)\n",
                         trace.launch.kernel.c_str(), path.c_str(), trace.instructions.size());
        } catch (const std::exception& e) {
            std::fprintf(stderr, "simt: SIMT_TRACE: %s\n", e.what());
        }
        ++files_written;
        return;
    }
    traces.push_back(std::move(trace));
}

RecordingStart start_recording(const LaunchRequest& request, Options& options) {
    trace_from_environment();
    TraceSession& session = trace_session();
    if (!session.active) return {};
    // Recorded in lockstep: one step of a warp's lanes is one warp instruction. The race checks
    // stay as they are (pre-Volta trust only when asked for).
    if (options.mode == Mode::its) options.mode = Mode::lockstep;
    return {std::make_unique<TraceRecorder>(session.settings, request, options), {}};
}

} // namespace detail

void start_tracing(const TraceSettings& settings) {
    auto& s = detail::trace_session();
    s.active = true;
    s.settings = settings;
    s.traces.clear();
}

std::vector<scanlab::trace::Trace> stop_tracing() {
    auto& s = detail::trace_session();
    s.active = false;
    return std::move(s.traces);
}

bool tracing() {
    return detail::trace_session().active;
}

namespace {
// The size of value_code's type; refuses codes that name none, and an empty reference.
size_t expected_value_size(const char* function, int value_code, const std::string& reference) {
    if (value_code <= 0 || value_code > 10)
        throw std::invalid_argument(std::string("simt::") + function + ": value code " +
                                    std::to_string(value_code) +
                                    " is not a scanlab::trace::ValueType (1..10)");
    if (reference.empty())
        throw std::invalid_argument(std::string("simt::") + function +
                                    ": say what computed the values (reference)");
    return scanlab::trace::value_type_size(static_cast<scanlab::trace::ValueType>(value_code));
}
} // namespace

void trace_expected(const void* device_pointer, size_t count, int value_code, const void* values,
                    const std::string& reference) {
    const size_t size = expected_value_size("trace_expected", value_code, reference);
    const auto* bytes = static_cast<const unsigned char*>(values);
    auto& list = detail::trace_session().expected;
    const auto base = reinterpret_cast<uintptr_t>(device_pointer);
    std::erase_if(list, [base](const auto& e) { return e.base == base; });
    list.push_back({base, count, value_code, {bytes, bytes + count * size}, reference});
}

void trace_expected_tiles(size_t tiles, int value_code, const void* prefixes,
                          const void* inclusives, const std::string& reference) {
    const size_t size = expected_value_size("trace_expected_tiles", value_code, reference);
    const auto* p = static_cast<const unsigned char*>(prefixes);
    const auto* i = static_cast<const unsigned char*>(inclusives);
    detail::trace_session().expected_tiles =
        detail::ExpectedTiles{value_code, {p, p + tiles * size}, {i, i + tiles * size}, reference};
}

void clear_trace_expected() {
    detail::trace_session().expected.clear();
    detail::trace_session().expected_tiles.reset();
}

void trace_from_environment() {
    auto& s = detail::trace_session();
    if (s.environment_read) return;
    s.environment_read = true;
    const char* path = std::getenv("SIMT_TRACE");
    if (!path || !*path) return;
    TraceSettings settings;
    if (const char* blocks = std::getenv("SIMT_TRACE_BLOCKS")) {
        std::string text = blocks;
        settings.blocks.clear();
        if (text != "all") {
            std::stringstream list(text);
            for (std::string item; std::getline(list, item, ',');) {
                char* end = nullptr;
                unsigned long v = std::strtoul(item.c_str(), &end, 10);
                if (item.empty() || *end != '\0')
                    throw std::invalid_argument("SIMT_TRACE_BLOCKS: '" + text +
                                                "' is not a list of block indices or 'all'");
                settings.blocks.push_back(static_cast<unsigned>(v));
            }
        }
    }
    if (const char* max = std::getenv("SIMT_TRACE_MAX")) {
        char* end = nullptr;
        unsigned long long v = std::strtoull(max, &end, 10);
        if (!*max || *end != '\0' || v == 0)
            throw std::invalid_argument(std::string("SIMT_TRACE_MAX: '") + max +
                                        "' is not a positive number");
        settings.max_instructions = v;
    }
    start_tracing(settings);
    s.file_pattern = path;
}

} // namespace simt
