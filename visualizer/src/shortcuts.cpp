#include "shortcuts.h"

namespace scanlab::view {

namespace {
constexpr Shortcut kShortcuts[] = {
    {"Space", "play / pause"},
    {"Right, Left", "next / previous instruction"},
    {"Shift+Right, Shift+Left", "end of the next / previous step"},
    {"Home, End", "start / end of the block"},
    {"Up, Down", "previous / next recorded block"},
    {"+, -", "zoom in / out (mouse wheel: at the pointer)"},
    {"0", "fit the view (undo zoom and pan)"},
    {"drag", "pan the view"},
    {"1, 2, 3", "array view, bank view, block timeline"},
    {"W", "colour by warp / by thread"},
    {"T, Shift+T", "timeline: next / previous tile's look-back"},
    {"F", "next finding (race, fault): jump to it, mark its cells and lanes"},
    {"[, ]", "play slower / faster"},
    {"L", "show / hide the legend"},
    {"H or F1", "show / hide this help"},
    {"Ctrl+O", "type a trace path (or drop a file on the window)"},
};
} // namespace

std::span<const Shortcut> shortcuts() {
    return kShortcuts;
}

} // namespace scanlab::view
