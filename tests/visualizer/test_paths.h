#pragma once

// Where the tests find their traces and the viewer.

#include <cstdlib>
#include <filesystem>
#include <string>

#include <unistd.h>

namespace scanlab::view::test {

inline std::filesystem::path fixture(const std::string& name) {
    return std::filesystem::path(SCANLAB_VIEW_FIXTURES) / name;
}

// Recorded by the visualizer.record test from visualizer/examples.
inline std::filesystem::path recorded(const std::string& name) {
    return std::filesystem::path(SCANLAB_VIEW_RECORDED) / name;
}

// Pictures and files the tests write: $SCANLAB_VIEW_TEST_OUT (kept, to look at) or a folder of
// this process under the temporary directory.
inline std::filesystem::path scratch(const std::string& name) {
    const char* keep = std::getenv("SCANLAB_VIEW_TEST_OUT");
    const auto dir = keep && *keep ? std::filesystem::path(keep)
                                   : std::filesystem::temp_directory_path() /
                                         ("scanlab-view-tests-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    return dir / name;
}

} // namespace scanlab::view::test
