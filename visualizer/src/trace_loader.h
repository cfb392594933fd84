#pragma once

// Reads a trace on a background thread, so that the window stays responsive while a large file
// (hundreds of MB) is parsed and indexed. The UI polls it once a frame.

#include <filesystem>
#include <future>
#include <memory>
#include <optional>
#include <string>

#include "loaded_trace.h"

namespace scanlab::view {

struct LoadResult {
    std::filesystem::path path;
    std::unique_ptr<LoadedTrace> trace; // null when it failed
    std::string error;                  // why it failed
    double seconds = 0;                 // time taken to read and index it
};

// Reads and indexes a trace now, on this thread; failures become LoadResult::error.
LoadResult load_trace_result(const std::filesystem::path& path);

class TraceLoader {
  public:
    // Starts reading `path`; a request made while another is running waits for it.
    void start(const std::filesystem::path& path);
    bool busy() const { return running_.valid() || queued_.has_value(); }
    const std::filesystem::path& current_path() const { return current_; }
    // The result of a finished request, once.
    std::optional<LoadResult> poll();

  private:
    std::future<LoadResult> running_;
    std::filesystem::path current_;
    std::optional<std::filesystem::path> queued_;
};

} // namespace scanlab::view
