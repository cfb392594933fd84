#include "shuffle_view.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>

#include "arrow.h"
#include "palette.h"
#include "scanlab/trace/names.h"
#include "trace_text.h"

namespace scanlab::view {

namespace {
constexpr float kShuffleLabelWidth = 150.0f;
constexpr float kShuffleHeaderHeight = 20.0f;
constexpr std::uint32_t kLanes = trace::kWarpSize;

// The time up to which the block has run at the replay position; everything at its end.
std::uint64_t replay_time(const LoadedTrace& loaded, const Selection& selection) {
    const BlockIndex& block = loaded.index.block(selection.block);
    if (at_end(block, selection.cursor) || block.instructions.empty()) return UINT64_MAX;
    if (selection.cursor.done == 0) return 0;
    return loaded.trace.instructions[block.instructions[selection.cursor.done - 1]].time;
}
} // namespace

std::vector<std::size_t> warp_shuffles(const trace::Trace& trace, std::uint32_t block,
                                       std::uint32_t warp) {
    std::vector<std::size_t> found;
    for (std::size_t i = 0; i < trace.shuffles.size(); ++i)
        if (trace.shuffles[i].block == block && trace.shuffles[i].warp == warp) found.push_back(i);
    return found;
}

std::uint32_t shuffle_view_warp(const LoadedTrace& loaded, const Selection& selection) {
    const BlockIndex& block = loaded.index.block(selection.block);
    const trace::Trace& trace = loaded.trace;
    if (selection.cursor.done > 0) {
        const std::uint32_t warp =
            trace.instructions[block.instructions[selection.cursor.done - 1]].warp;
        if (!warp_shuffles(trace, block.block, warp).empty()) return warp;
    }
    for (const trace::WarpShuffle& shuffle : trace.shuffles)
        if (shuffle.block == block.block) return shuffle.warp;
    return 0;
}

void ShuffleView::draw(const LoadedTrace& loaded, Selection& selection, ImVec2 size) {
    const trace::Trace& trace = loaded.trace;
    const BlockIndex& block = loaded.index.block(selection.block);
    const std::uint32_t warp = shuffle_view_warp(loaded, selection);
    const std::vector<std::size_t> rows = warp_shuffles(trace, block.block, warp);
    const std::uint64_t now = replay_time(loaded, selection);

    canvas_.begin("##shuffles", size);
    ImDrawList* list = ImGui::GetWindowDrawList();
    list->PushClipRect(canvas_.min(), canvas_.max(), true);
    list->AddRectFilled(canvas_.min(), canvas_.max(), palette::kBackground.u32());
    if (rows.empty()) {
        list->AddText({canvas_.min().x + 12, canvas_.min().y + 12}, palette::kDimText.u32(),
                      trace.shuffles.empty()
                          ? "This trace has no warp shuffles (none ran, or it was recorded "
                            "before trace format 3)."
                          : "No warp of this block shuffles.");
        list->PopClipRect();
        return;
    }
    const float cell_w =
        std::floor(std::clamp((canvas_.size().x - kShuffleLabelWidth - 16) / kLanes, 14.0f, 80.0f) *
                   canvas_.zoom());
    const float cell_h = std::floor(std::clamp(cell_w * 0.7f, 14.0f, 26.0f));
    const float pitch = cell_h + std::clamp(cell_h * 1.8f, 26.0f, 60.0f);
    canvas_.clamp({kShuffleLabelWidth + kLanes * cell_w + 16,
                   kShuffleHeaderHeight + rows.size() * pitch + 20});
    const float x0 = canvas_.min().x + kShuffleLabelWidth + canvas_.pan().x;
    const float y0 = canvas_.min().y + kShuffleHeaderHeight + pitch - cell_h + canvas_.pan().y;
    const auto x_of = [&](std::uint32_t lane) { return x0 + lane * cell_w; };
    const auto y_of = [&](std::size_t row) { return y0 + static_cast<float>(row) * pitch; };
    const float font = ImGui::GetFontSize();

    std::string tip;
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    for (std::size_t r = 0; r < rows.size(); ++r) {
        const trace::WarpShuffle& shuffle = trace.shuffles[rows[r]];
        const float y = y_of(r);
        if (y + cell_h < canvas_.min().y || y - pitch > canvas_.max().y) continue;
        const bool reached = shuffle.time <= now;
        char label[64];
        std::snprintf(label, sizeof label, "%s  line %u",
                      std::string(trace::to_string(shuffle.kind)).c_str(), shuffle.source.line);
        list->AddText({canvas_.min().x + 8, y + (cell_h - font) / 2},
                      (reached ? palette::kText : palette::kDimText).u32(), label);
        if (!reached) {
            list->AddRect({x_of(0), y}, {x_of(kLanes) - 2, y + cell_h}, palette::kFutureRow.u32());
            continue;
        }
        // Arrows from the source lanes' registers (the row above) to the receiving lanes.
        const float head = std::clamp(cell_w * 0.3f, 4.0f, 8.0f);
        for (const trace::ShuffleLane& lane : shuffle.lanes) {
            if (lane.source == lane.lane) continue; // kept its own value
            const Rgb colour = index_colour(warp * kLanes + lane.source);
            draw_arrow(list, {x_of(lane.source) + (cell_w - 2) / 2, y - pitch + cell_h + 1},
                       {x_of(lane.lane) + (cell_w - 2) / 2, y - 1}, colour.u32(200), 1.4f, head);
        }
        for (const trace::ShuffleLane& lane : shuffle.lanes) {
            const float x = x_of(lane.lane);
            const Rgb fill = lane.source == lane.lane
                                 ? palette::kStaleCell
                                 : scaled(index_colour(warp * kLanes + lane.source), 0.62f);
            list->AddRectFilled({x, y}, {x + cell_w - 2, y + cell_h}, palette::kCellFrame.u32());
            list->AddRectFilled({x + 1, y + 1}, {x + cell_w - 3, y + cell_h - 1}, fill.u32());
            const std::string text =
                shuffle.value_type == trace::ValueType::none
                    ? "?"
                    : trace::format_value(shuffle.value_type, shuffle.width, lane.value);
            const ImVec2 text_size = ImGui::CalcTextSize(text.c_str());
            if (text_size.x + 4 <= cell_w - 2 && cell_h >= font + 2)
                list->AddText({std::floor(x + (cell_w - 2 - text_size.x) / 2),
                               std::floor(y + (cell_h - text_size.y) / 2)},
                              palette::kText.u32(), text.c_str());
            if (canvas_.hovered() && mouse.x >= x && mouse.x < x + cell_w && mouse.y >= y &&
                mouse.y < y + cell_h)
                tip = "lane " + std::to_string(lane.lane) + " (thread " +
                      std::to_string(warp * kLanes + lane.lane) + ") received " + text +
                      " from lane " + std::to_string(lane.source) + "\n__shfl_" +
                      std::string(trace::to_string(shuffle.kind)) + "_sync at time " +
                      std::to_string(shuffle.time) + ", " + location_label(trace, shuffle.source) +
                      ": " + source_line_text(trace, shuffle.source);
        }
    }
    // Lane numbers in a fixed header; the warp in the gutter.
    list->AddRectFilled(canvas_.min(), {canvas_.max().x, canvas_.min().y + kShuffleHeaderHeight},
                        palette::kBackground.u32());
    for (std::uint32_t lane = 0; lane < kLanes; lane += cell_w >= 24 ? 1 : 4) {
        const std::string text = std::to_string(lane);
        list->AddText({x_of(lane) + (cell_w - 2 - ImGui::CalcTextSize(text.c_str()).x) / 2,
                       canvas_.min().y + 2},
                      palette::kDimText.u32(), text.c_str());
    }
    const std::string title = "warp " + std::to_string(warp) + ", lane";
    list->AddText({canvas_.min().x + 8, canvas_.min().y + 2}, palette::kDimText.u32(),
                  title.c_str());
    list->PopClipRect();
    if (!tip.empty()) ImGui::SetTooltip("%s", tip.c_str());
}

} // namespace scanlab::view
