#include "shortcuts.h"

namespace scanlab::view {

namespace {

constexpr Binding kPlay[] = {{Key::space, Action::play_pause}};
constexpr Binding kStep[] = {{Key::right, Action::next}, {Key::left, Action::previous}};
constexpr Binding kBlockEnds[] = {{Key::home, Action::block_start}, {Key::end, Action::block_end}};
constexpr Binding kBlocks[] = {{Key::up, Action::previous_block}, {Key::down, Action::next_block}};
constexpr Binding kZoom[] = {{Key::equal, Action::zoom_in},
                             {Key::keypad_add, Action::zoom_in},
                             {Key::minus, Action::zoom_out},
                             {Key::keypad_subtract, Action::zoom_out}};
constexpr Binding kFit[] = {{Key::digit0, Action::fit}, {Key::keypad0, Action::fit}};
constexpr Binding kViews[] = {{Key::digit1, Action::array_view},
                              {Key::digit2, Action::bank_view},
                              {Key::digit3, Action::timeline_view}};
constexpr Binding kWarp[] = {{Key::w, Action::colour_by_warp}};
constexpr Binding kTile[] = {{Key::t, Action::next_tile}};
constexpr Binding kFinding[] = {{Key::f, Action::next_finding}};
constexpr Binding kSpeed[] = {{Key::left_bracket, Action::slower},
                              {Key::right_bracket, Action::faster}};
constexpr Binding kLegend[] = {{Key::l, Action::toggle_legend}};
constexpr Binding kHelp[] = {{Key::h, Action::toggle_help}, {Key::f1, Action::toggle_help}};
constexpr Binding kOpen[] = {{Key::o, Action::open_path}};

constexpr Shortcut kShortcuts[] = {
    {"Space", "play / pause", kPlay},
    {"Right, Left", "next / previous instruction", kStep},
    {"Shift+Right, Shift+Left", "end of the next / previous step", {}},
    {"Home, End", "start / end of the block", kBlockEnds},
    {"Up, Down", "previous / next recorded block", kBlocks},
    {"+, -", "zoom in / out (mouse wheel: at the pointer)", kZoom},
    {"0", "fit the view (undo zoom and pan)", kFit},
    {"drag", "pan the view", {}},
    {"1, 2, 3", "array view, bank view, block timeline", kViews},
    {"W", "colour by warp / by thread", kWarp},
    {"T, Shift+T", "timeline: next / previous tile's look-back", kTile},
    {"F", "next finding (race, fault): jump to it, mark its cells and lanes", kFinding},
    {"[, ]", "play slower / faster", kSpeed},
    {"L", "show / hide the legend", kLegend, false},
    {"H or F1", "show / hide this help", kHelp, false},
    {"Ctrl+O", "type a trace path (or drop a file on the window)", kOpen, false, true},
};

} // namespace

std::span<const Shortcut> shortcuts() {
    return kShortcuts;
}

} // namespace scanlab::view
