#pragma once

#include <stdexcept>
#include <string>
#include <utility>

namespace scanlab::trace {

// Every problem with a trace, read or written, is a TraceError. path() says where it is inside the
// document ("instructions[12].lanes[3].lane"); it is empty for whole-document problems.
class TraceError : public std::runtime_error {
  public:
    TraceError(std::string path, const std::string& detail)
        : std::runtime_error(path.empty() ? detail : path + ": " + detail), path_(std::move(path)),
          detail_(detail) {}

    const std::string& path() const noexcept { return path_; }
    const std::string& detail() const noexcept { return detail_; }

  private:
    std::string path_;
    std::string detail_;
};

} // namespace scanlab::trace
