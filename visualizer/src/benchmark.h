#pragma once

// Frame timing: draws the full window for each view as fast as possible while the replay moves
// one instruction a frame, and prints the mean and worst frame times.

#include "options.h"

namespace scanlab::view {

int run_benchmark(const Options& options);

} // namespace scanlab::view
