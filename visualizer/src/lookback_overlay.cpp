#include "lookback_overlay.h"

#include <algorithm>
#include <cfloat>

#include "palette.h"
#include "scanlab/trace/names.h"

namespace scanlab::view {

namespace {

// The row of a tile among the timeline's tile rows, or -1.
int tile_row(const LoadedTrace& loaded, std::uint32_t tile) {
    const auto& rows = loaded.timeline.tiles();
    auto it = std::lower_bound(rows.begin(), rows.end(), tile);
    return it != rows.end() && *it == tile ? static_cast<int>(it - rows.begin()) : -1;
}

std::string summary(const TileLookBack& look_back) {
    std::string text = "tile " + std::to_string(look_back.tile) + ", taken by block " +
                       std::to_string(look_back.block) + ": ";
    if (look_back.reads.empty())
        return text + (look_back.tile == 0 ? "tile 0 has no predecessors, it publishes P at once"
                                           : "no look-back reads in the trace");
    // A long look-back (a 32-lane window, several windows) is listed in full in the side panel.
    constexpr std::size_t kShownReads = 16;
    text += "read";
    for (std::size_t r = 0; r < look_back.reads.size() && r < kShownReads; ++r) {
        const LookRead& read = look_back.reads[r];
        text += (r == 0 ? " " : ", ") + std::string("tile ") + std::to_string(read.tile) + " " +
                read_label(read.look);
    }
    if (look_back.reads.size() > kShownReads)
        text +=
            " and " + std::to_string(look_back.reads.size() - kShownReads) + " more (side panel)";
    if (look_back.terms.size() > kShownReads)
        return text + ".  Its prefix is made of " + std::to_string(look_back.terms.size()) +
               " reads (side panel)";
    text += look_back.complete
                ? ".  Prefix = " + prefix_formula(look_back)
                : ".  No P reached yet: the prefix is not complete" +
                      (look_back.terms.empty() ? std::string()
                                               : " (so far " + prefix_formula(look_back) + ")");
    return text;
}

} // namespace

void draw_look_back(ImDrawList* list, const LoadedTrace& loaded, const TileLookBack& look_back,
                    const TimelineGeometry& at, bool mouse_in, ImVec2 mouse, std::string& tip) {
    const trace::Trace& trace = loaded.trace;
    const int own_row = tile_row(loaded, look_back.tile);
    if (own_row >= 0) {
        const float top = at.tiles_top + own_row * at.tile_pitch;
        list->AddRect({at.left, top - 1}, {at.right, top + at.tile_height + 1},
                      palette::kHighlight.u32(), 0.0f, 0, 2.0f);
    }
    const BlockRun* reader = loaded.timeline.run_of(look_back.block);
    if (reader) { // the block that took the tile: the reads start from its bar
        const float top = at.run_top(reader->row);
        list->AddRect(
            {at.x_of(reader->start) - 1, top - 1},
            {std::max(at.x_of(reader->end), at.x_of(reader->start) + 2), top + at.run_height + 1},
            palette::kHighlight.u32(), 0.0f, 0, 2.0f);
    }
    for (std::size_t r = 0; r < look_back.reads.size(); ++r) {
        const LookRead& read = look_back.reads[r];
        const int row = tile_row(loaded, read.tile);
        if (row < 0) continue;
        // A poll mark lasts until the block's next read of the same tile.
        std::uint64_t until = read.time;
        for (std::size_t n = r + 1; n < look_back.reads.size(); ++n)
            if (look_back.reads[n].tile == read.tile) {
                if (read.look.reads > 1) until = look_back.reads[n].time;
                break;
            }
        const float a = at.x_of(read.time);
        const float b = std::max(at.x_of(until), a + 12);
        if (b < at.left || a > at.right) continue;
        const float top = at.tiles_top + row * at.tile_pitch + 1;
        const float bottom = top + at.tile_height - 2;
        if (reader) {
            const float from = at.run_top(reader->row) + at.run_height;
            // A filled rectangle, not a line: crisp, one colour, at any zoom.
            list->AddRectFilled({a, from}, {a + 1, top}, palette::kLookLine.u32());
        }
        list->AddRectFilled({a, top}, {b, bottom}, palette::kLooks.of(read.look.flag).u32());
        const std::string letter(trace::to_string(read.look.flag));
        const ImVec2 size = ImGui::CalcTextSize(letter.c_str());
        list->AddText({a + std::max(0.0f, (b - a - size.x) / 2), (top + bottom - size.y) / 2},
                      palette::kBackground.u32(), letter.c_str());
        list->AddRect({a - 1, top - 1}, {b + 1, bottom + 1},
                      (read.used ? palette::kHighlight : palette::kLookLine).u32(), 0.0f, 0,
                      read.used ? 2.0f : 1.0f);
        if (mouse_in && mouse.x >= a - 2 && mouse.x <= b + 2 && mouse.y >= top - 2 &&
            mouse.y <= bottom + 2) {
            const auto& event = trace.block_events[read.event];
            tip = "block " + std::to_string(event.block) + " (tile " +
                  std::to_string(look_back.tile) + ") read tile " + std::to_string(read.tile) +
                  "'s descriptor at time " + std::to_string(read.time) + ": " +
                  read_label(read.look) +
                  (read.used ? "\npart of the prefix" : "\nnot part of the prefix");
        }
    }
    const float text_top =
        at.tiles_top + static_cast<float>(loaded.timeline.tiles().size()) * at.tile_pitch + 6;
    const std::string text = summary(look_back);
    const float wrap = at.right - at.left - 8;
    list->AddText(ImGui::GetFont(), ImGui::GetFontSize(), {at.left, text_top}, palette::kText.u32(),
                  text.c_str(), nullptr, wrap);
    // Under it, the tile's P against the reference (traces with expected values).
    const TileVerdict verdict = expected_tile_verdict(trace, look_back);
    if (!verdict.text.empty()) {
        const float below =
            text_top +
            ImGui::GetFont()->CalcTextSizeA(ImGui::GetFontSize(), FLT_MAX, wrap, text.c_str()).y +
            4;
        list->AddText(ImGui::GetFont(), ImGui::GetFontSize(), {at.left, below},
                      (verdict.wrong ? palette::kWrongText : palette::kDimText).u32(),
                      verdict.text.c_str(), nullptr, wrap);
    }
}

} // namespace scanlab::view
