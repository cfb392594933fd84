#pragma once

// The keyboard shortcuts, listed once for the help panel and the documentation.

#include <span>

namespace scanlab::view {

struct Shortcut {
    const char* keys;
    const char* action;
};

std::span<const Shortcut> shortcuts();

} // namespace scanlab::view
