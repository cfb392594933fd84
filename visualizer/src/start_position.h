#pragma once

// The block, step, instruction, object and view that the command line asks for.

#include <string>

#include "app.h"
#include "options.h"

namespace scanlab::view {

// Applies them to an app holding a trace; returns a message when one is out of range.
std::string apply_start_position(App& app, const Options& options);

} // namespace scanlab::view
