#include "radix_view.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "palette.h"

namespace scanlab::view {

namespace {
constexpr std::uint32_t kGridColumns = 128; // a tile of 8192 keys as 128 x 64 cells
constexpr std::uint32_t kGridRows = kRadixTileKeys / kGridColumns;
constexpr float kRadixMargin = 12.0f;
constexpr float kGap = 28.0f;
constexpr float kPanelWidth = 330.0f;
constexpr float kRadixStripHeight = 16.0f;
constexpr float kReadRowHeight = 10.0f;
constexpr std::uint32_t kMostReadRows = 8; // look-back rows drawn: the nearest tiles

const char* flag_name(trace::TileFlag flag) {
    return flag == trace::TileFlag::P ? "P" : flag == trace::TileFlag::A ? "A" : "X";
}

std::string hex(std::uint32_t bits) {
    char text[16];
    std::snprintf(text, sizeof text, "0x%08x", bits);
    return text;
}
} // namespace

Rgb digit_colour(std::uint32_t digit) {
    return hsv_colour(static_cast<float>(digit % kRadixDigits) / kRadixDigits * 0.9f, 0.62f, 0.92f);
}

const RadixPassModel* RadixView::model(const LoadedTrace& loaded, const Selection& selection) {
    return cache_.get<RadixPassError>(loaded, selection, build_radix_pass_model);
}

void RadixView::draw(const LoadedTrace& loaded, Selection& selection, ImVec2 size) {
    const RadixPassModel* m = model(loaded, selection);
    canvas_.begin("##radix", size);
    ImDrawList* list = ImGui::GetWindowDrawList();
    list->PushClipRect(canvas_.min(), canvas_.max(), true);
    list->AddRectFilled(canvas_.min(), canvas_.max(), palette::kBackground.u32());
    if (!m) {
        const float wrap = canvas_.size().x - 24;
        list->AddText(nullptr, 0.0f, {canvas_.min().x + 12, canvas_.min().y + 12},
                      palette::kWrongText.u32(), error().c_str(), nullptr, wrap);
        list->PopClipRect();
        return;
    }
    const std::uint32_t digit = selection.digit && *selection.digit < kRadixDigits
                                    ? *selection.digit
                                    : m->longest_look_back();
    const float font = ImGui::GetFontSize();
    const float zoom = canvas_.zoom();
    // The layout at zoom 1 fits the canvas: two grids, the look-back panel beside them, the
    // reads strip and the scatter below.
    const float fit_cell = std::floor(
        std::min((canvas_.size().x - 2 * kRadixMargin - kGap - kPanelWidth) / (2.0f * kGridColumns),
                 (canvas_.size().y - 5 * font - 2 * kRadixStripHeight - 150.0f) /
                     static_cast<float>(kGridRows)));
    const float cell = std::max(2.0f, fit_cell) * zoom;
    const float grid = cell * kGridColumns; // a grid's width
    const float grid_height = cell * kGridRows;
    const ImVec2 origin{canvas_.min().x + kRadixMargin + canvas_.pan().x,
                        canvas_.min().y + kRadixMargin + canvas_.pan().y};
    const float grids_top = origin.y + font + 4;
    const float second_x = origin.x + grid + kGap * zoom;
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    std::string tip;
    std::optional<std::uint32_t> clicked_digit;

    const auto key_tip = [&](std::uint32_t k) {
        const RadixKey& key = m->keys[k];
        const std::uint32_t warp = k / (kRadixItemsPerThread * 32);
        const std::uint32_t item = k / 32 % kRadixItemsPerThread;
        tip = "key " + std::to_string(k) + " of the tile (warp " + std::to_string(warp) +
              ", item " + std::to_string(item) + ", lane " + std::to_string(k % 32) + ")\nbits " +
              hex(key.bits) + ", digit " + std::to_string(key.digit) + " (bits " +
              std::to_string(m->shift) + ".." + std::to_string(m->shift + 7) +
              ")\nplace after the rank: " + std::to_string(key.place) +
              (key.position ? "\nscattered to element " + std::to_string(*key.position) +
                                  " of the pass's output"
                            : "\nnot scattered (past the input's end)");
        if (canvas_.clicked()) clicked_digit = key.digit;
    };
    // A grid of the tile: cell (row, col) shows the key at index row * 128 + col of `order`.
    const auto draw_grid = [&](float x0, const char* title, bool ranked) {
        list->AddText({x0, origin.y}, palette::kText.u32(), title);
        const std::vector<std::uint32_t> order =
            ranked ? m->by_place() : std::vector<std::uint32_t>{};
        for (std::uint32_t i = 0; i < kRadixTileKeys; ++i) {
            const std::uint32_t k = ranked ? order[i] : i;
            const float x = x0 + (i % kGridColumns) * cell;
            const float y = grids_top + (i / kGridColumns) * cell;
            if (x > canvas_.max().x || y > canvas_.max().y || x + cell < canvas_.min().x ||
                y + cell < canvas_.min().y)
                continue;
            const RadixKey& key = m->keys[k];
            list->AddRectFilled({x, y}, {x + cell, y + cell}, digit_colour(key.digit).u32());
            if (key.digit == digit && cell >= 3) // a frame needs a cell of 3 pixels
                list->AddRect({x, y}, {x + cell, y + cell}, palette::kHighlight.u32());
            if (canvas_.hovered() && mouse.x >= x && mouse.x < x + cell && mouse.y >= y &&
                mouse.y < y + cell)
                key_tip(k);
        }
    };
    draw_grid(origin.x, "loaded: in load order", false);
    draw_grid(second_x, "ranked: by digit, stable", true);

    // The selected digit's look-back, beside the grids.
    const DigitLookBack& look = m->digits[digit];
    float y = origin.y;
    const float panel_x = second_x + grid + kGap * zoom;
    const auto line = [&](const std::string& text, Rgb colour = palette::kText) {
        list->AddText({panel_x, y}, colour.u32(), text.c_str());
        y += font + 3;
    };
    char text[160];
    std::snprintf(text, sizeof text, "block %u took tile %u; digit bits %u..%u", m->block, m->tile,
                  m->shift, m->shift + 7);
    line(text);
    std::snprintf(text, sizeof text, "digit %u: %u key%s in this tile", digit, look.keys,
                  look.keys == 1 ? "" : "s");
    list->AddRectFilled({panel_x, y + 2}, {panel_x + font - 4, y + font - 2},
                        digit_colour(digit).u32());
    list->AddText({panel_x + font, y}, palette::kText.u32(), text);
    y += font + 3;
    if (look.aggregate) line("published A = " + std::to_string(*look.aggregate));
    if (m->tile == 0) {
        line("tile 0: no look-back, P at once", palette::kDimText);
    } else {
        line("look-back (descriptor of tile, digit " + std::to_string(digit) + "):",
             palette::kDimText);
        for (const DescriptorRead& read : look.reads) {
            const Rgb colour = palette::kLooks.of(read.flag);
            list->AddRectFilled({panel_x + 8, y + 1}, {panel_x + 8 + font + 6, y + font},
                                colour.u32());
            list->AddText({panel_x + 11, y}, palette::kBackground.u32(), flag_name(read.flag));
            std::snprintf(text, sizeof text, "tile %u: %s%s", read.tile,
                          read.flag == trace::TileFlag::X ? "no value yet"
                                                          : std::to_string(read.count).c_str(),
                          read.reads > 1 ? (" (" + std::to_string(read.reads) + " reads)").c_str()
                                         : "");
            list->AddText({panel_x + 16 + font, y}, palette::kText.u32(), text);
            y += font + 3;
        }
        line("prefix found: " + std::to_string(look.prefix()) + " (tiles 0.." +
             std::to_string(m->tile - 1) + ")");
    }
    if (look.inclusive)
        line("published P = " + std::to_string(*look.inclusive) + " (the inclusive prefix)",
             palette::kLookP);
    else
        line("published no P", palette::kWrongText);

    // Every digit's reads: a column per digit, a row per tile looked at (nearest on top).
    const float strip_width = grid * 2 + kGap * zoom;
    float strip_y = grids_top + grid_height + kGap * zoom * 0.6f;
    const std::uint32_t rows = std::min(m->tile, kMostReadRows);
    if (rows > 0) {
        list->AddText({origin.x, strip_y}, palette::kDimText.u32(),
                      "each digit's look-back: the last read of each earlier tile (nearest on "
                      "top), X grey, A orange, P green");
        strip_y += font + 2;
        const float column = strip_width / kRadixDigits;
        const float row_h = kReadRowHeight * zoom;
        for (std::uint32_t d = 0; d < kRadixDigits; ++d) {
            const float x = origin.x + d * column;
            for (const DescriptorRead& read : m->digits[d].reads) {
                const std::uint32_t row = m->tile - 1 - read.tile;
                if (row >= rows) continue;
                const float ry = strip_y + row * row_h;
                list->AddRectFilled({x, ry}, {x + std::max(1.0f, column - 1), ry + row_h - 1},
                                    palette::kLooks.of(read.flag).u32());
            }
            if (d == digit)
                list->AddRect({x - 1, strip_y - 1}, {x + column, strip_y + rows * row_h},
                              palette::kHighlight.u32());
            if (canvas_.hovered() && mouse.x >= x && mouse.x < x + column && mouse.y >= strip_y &&
                mouse.y < strip_y + rows * row_h) {
                tip = "digit " + std::to_string(d) + ": " +
                      std::to_string(m->digits[d].reads.size()) + " descriptor read(s), prefix " +
                      std::to_string(m->digits[d].prefix()) + " (click to show its look-back)";
                if (canvas_.clicked()) clicked_digit = d;
            }
        }
        strip_y += rows * row_h;
    }

    // The scatter: the ranked tile (a strip of its places) and lines from each digit's run to
    // where its keys landed in the pass's output.
    const float tile_y = strip_y + kGap * zoom * 0.6f + font + 2;
    list->AddText({origin.x, tile_y - font - 2}, palette::kDimText.u32(),
                  "scatter: the ranked tile (top) to its keys' elements of the pass's output "
                  "(bottom)");
    const float out_y = tile_y + kRadixStripHeight * zoom + 70.0f * zoom;
    const float out_width = std::max(strip_width, canvas_.size().x * zoom - 2 * kRadixMargin);
    const float place_width = strip_width / kRadixTileKeys;
    const double out_scale =
        out_width / static_cast<double>(std::max<std::uint64_t>(m->output_length, 1));
    list->AddRectFilled({origin.x, out_y}, {origin.x + out_width, out_y + kRadixStripHeight * zoom},
                        palette::kStaleCell.u32());
    const std::vector<std::uint32_t> order = m->by_place();
    std::uint32_t run_start = 0;
    for (std::uint32_t place = 0; place < kRadixTileKeys; ++place) {
        const RadixKey& key = m->keys[order[place]];
        const float x = origin.x + place * place_width;
        list->AddRectFilled({x, tile_y},
                            {x + std::max(place_width, 1.0f), tile_y + kRadixStripHeight * zoom},
                            digit_colour(key.digit).u32());
        if (key.position) {
            const auto ox = static_cast<float>(origin.x + *key.position * out_scale);
            list->AddRectFilled({ox, out_y}, {ox + 1, out_y + kRadixStripHeight * zoom},
                                digit_colour(key.digit).u32());
        }
        const bool run_ends =
            place + 1 == kRadixTileKeys || m->keys[order[place + 1]].digit != key.digit;
        if (!run_ends) continue;
        const RadixKey& first = m->keys[order[run_start]];
        if (first.position) {
            const float from = origin.x + (run_start + place + 1) * 0.5f * place_width;
            const auto to = static_cast<float>(origin.x + *first.position * out_scale);
            list->AddLine({from, tile_y + kRadixStripHeight * zoom}, {to, out_y},
                          digit_colour(key.digit).u32(key.digit == digit ? 255 : 110),
                          key.digit == digit ? 2.5f : 1.0f);
        }
        run_start = place + 1;
    }
    std::snprintf(text, sizeof text, "0 .. %llu: %s, from element %llu",
                  static_cast<unsigned long long>(m->output_length), m->output_object.c_str(),
                  static_cast<unsigned long long>(m->output_start));
    list->AddText({origin.x, out_y + kRadixStripHeight * zoom + 3}, palette::kDimText.u32(), text);
    canvas_.clamp({panel_x - origin.x + kPanelWidth, out_y - origin.y + 60});
    list->PopClipRect();
    if (clicked_digit) selection.digit = clicked_digit;
    if (!tip.empty()) ImGui::SetTooltip("%s", tip.c_str());
}

} // namespace scanlab::view
