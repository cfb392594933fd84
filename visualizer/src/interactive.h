#pragma once

// The interactive window: the event loop around App.

#include "options.h"

namespace scanlab::view {

int run_window(const Options& options);

} // namespace scanlab::view
