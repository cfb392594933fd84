#pragma once

// The command line of scanlab-view.

#include <cstdint>
#include <optional>
#include <string>

#include "selection.h"

namespace scanlab::view {

struct Options {
    std::string trace; // empty: start with no trace
    // Headless picture (--png): render one frame offscreen, write it, exit.
    std::string png;
    ViewKind view = ViewKind::array;
    std::optional<std::uint32_t> step;        // block-relative step: the end of it
    std::optional<std::uint64_t> instruction; // global instruction index: just after it
    std::optional<std::uint32_t> block;       // linear block index
    std::optional<std::string> object;        // memory object name (array view)
    std::optional<std::uint32_t> tile;        // timeline: the tile whose look-back is shown
    std::optional<std::uint32_t> finding;     // a finding to select: jump there and mark it
    std::optional<std::uint32_t> digit;       // radix view: the digit whose look-back is shown
    int width = 1200;
    int height = 700;
    bool by_warp = false;
    bool all_steps = false;
    bool no_fold = false;
    // Frame timing (--benchmark-frames N): draw N frames of each view, print mean and max.
    int benchmark_frames = 0;
};

// Parses argv. Returns an exit code when the program should stop (0 for --help, 2 for a usage
// error, with the message printed), nothing to go on.
std::optional<int> parse_options(int argc, char** argv, Options& options);

} // namespace scanlab::view
