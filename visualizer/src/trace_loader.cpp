#include "trace_loader.h"

#include <chrono>
#include <exception>
#include <new>

#include "scanlab/trace/error.h"

namespace scanlab::view {

LoadResult load_trace_result(const std::filesystem::path& path) {
    LoadResult result;
    result.path = path;
    const auto start = std::chrono::steady_clock::now();
    try {
        result.trace = load_trace(path);
    } catch (const trace::TraceError& e) {
        result.error = e.what();
    } catch (const std::bad_alloc&) {
        result.error = "not enough memory to hold this trace";
    } catch (const std::exception& e) {
        result.error = e.what();
    }
    result.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return result;
}

void TraceLoader::start(const std::filesystem::path& path) {
    if (running_.valid()) {
        queued_ = path;
        return;
    }
    current_ = path;
    running_ = std::async(std::launch::async, [path] { return load_trace_result(path); });
}

std::optional<LoadResult> TraceLoader::poll() {
    if (!running_.valid()) return std::nullopt;
    if (running_.wait_for(std::chrono::seconds(0)) != std::future_status::ready)
        return std::nullopt;
    LoadResult result = running_.get();
    if (queued_) {
        const std::filesystem::path next = *queued_;
        queued_.reset();
        start(next);
        return std::nullopt; // superseded by the newer request
    }
    return result;
}

} // namespace scanlab::view
