#include "timeline_view.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "lookback_overlay.h"
#include "palette.h"
#include "scanlab/trace/names.h"
#include "tile_selection.h"
#include "trace_text.h"

namespace scanlab::view {

namespace {

constexpr float kTimelineLabelWidth = 100.0f;
constexpr float kAxisHeight = 22.0f;
constexpr float kRunHeight = 24.0f;
constexpr float kTileHeight = 16.0f;
constexpr float kRowGap = 4.0f;
constexpr float kSectionGap = 22.0f;
constexpr float kLookBackText = 64.0f; // under the tile rows: the selected tile's look-back

bool inside(ImVec2 p, ImVec2 a, ImVec2 b) {
    return p.x >= a.x && p.x < b.x && p.y >= a.y && p.y < b.y;
}

void centred_text(ImDrawList* list, ImVec2 a, ImVec2 b, ImU32 colour, const char* text) {
    const ImVec2 size = ImGui::CalcTextSize(text);
    if (size.x + 4 > b.x - a.x || size.y > b.y - a.y + 2) return;
    list->AddText({std::floor((a.x + b.x - size.x) / 2), std::floor((a.y + b.y - size.y) / 2)},
                  colour, text);
}

} // namespace

void TimelineView::draw(const LoadedTrace& loaded, Selection& selection, ImVec2 size) {
    const trace::Trace& trace = loaded.trace;
    const TimelineModel& model = loaded.timeline;
    const BlockIndex& block = loaded.index.block(selection.block);

    canvas_.begin("##timeline", size, false);
    ImDrawList* list = ImGui::GetWindowDrawList();
    list->PushClipRect(canvas_.min(), canvas_.max(), true);
    list->AddRectFilled(canvas_.min(), canvas_.max(), palette::kBackground.u32());
    if (model.runs().empty()) {
        list->AddText({canvas_.min().x + 12, canvas_.min().y + 12}, palette::kDimText.u32(),
                      "The trace has no block events.");
        list->PopClipRect();
        return;
    }
    const std::uint64_t first = model.first_time();
    const std::uint64_t last = std::max(model.last_time(), first + 1);
    if (canvas_.needs_fit()) {
        base_pixels_per_tick_ = std::max(1e-6, (canvas_.size().x - kTimelineLabelWidth - 16.0) /
                                                   static_cast<double>(last - first));
        canvas_.fitted();
    }
    const double scale = base_pixels_per_tick_ * canvas_.zoom();
    const float tiles_top = kAxisHeight + model.row_count() * (kRunHeight + kRowGap) + kSectionGap;
    const LookbackModel& tiles = loaded.lookback;
    const TileLookBack* chosen_tile = selection.tile ? tiles.look_back(*selection.tile) : nullptr;
    const float content_height =
        tiles_top + (model.tiles().empty() ? 0.0f : model.tiles().size() * (kTileHeight + 2)) +
        (chosen_tile ? kLookBackText : 0.0f);
    canvas_.clamp(
        {kTimelineLabelWidth + static_cast<float>((last - first) * scale) + 16, content_height});
    const double x0 = canvas_.min().x + kTimelineLabelWidth + canvas_.pan().x;
    const float y0 = canvas_.min().y + canvas_.pan().y;
    auto x_of = [&](std::uint64_t t) {
        return static_cast<float>(std::floor(x0 + static_cast<double>(t - first) * scale));
    };
    auto run_top = [&](std::uint32_t row) {
        return y0 + kAxisHeight + row * (kRunHeight + kRowGap);
    };
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    const bool mouse_in = canvas_.hovered() && mouse.x >= canvas_.min().x + kTimelineLabelWidth;
    std::string tip;

    // Runs and waits.
    const float left = canvas_.min().x + kTimelineLabelWidth;
    const float right = canvas_.max().x;
    for (const BlockRun& run : model.runs()) {
        const float a = x_of(run.start);
        const float b = std::max(x_of(run.end), a + 2);
        if (b < left || a > right) continue;
        const float top = run_top(run.row);
        const bool chosen = run.block == block.block;
        list->AddRectFilled({a, top}, {b - 1, top + kRunHeight},
                            (chosen ? palette::kBlockSelected : palette::kBlockRun).u32());
        const auto& taken = tiles.tiles_of(run.block);
        std::string took; // ": tile 5" (", 9" for a block that took several)
        for (std::size_t t = 0; t < taken.size(); ++t)
            took += (t == 0 ? ": tile " : ", ") + std::to_string(taken[t]);
        // The longest label that fits: "block 3: tile 5", "B3: T5", "B3".
        const std::string labels[3] = {
            "block " + std::to_string(run.block) + took,
            "B" + std::to_string(run.block) +
                (taken.empty() ? std::string() : ": T" + std::to_string(taken.front())),
            "B" + std::to_string(run.block)};
        for (const std::string& label : labels)
            if (ImGui::CalcTextSize(label.c_str()).x + 4 <= b - 1 - a) {
                centred_text(list, {a, top}, {b - 1, top + kRunHeight - 6},
                             IM_COL32(255, 255, 255, 255), label.c_str());
                break;
            }
        if (mouse_in && inside(mouse, {a, top}, {b, top + kRunHeight})) {
            tip = "block " + std::to_string(run.block) +
                  (taken.empty() ? std::string() : " took tile" + took.substr(6)) +
                  (run.slot ? ", slot " + std::to_string(*run.slot) : std::string()) +
                  "\nresident from time " + std::to_string(run.start) + " to " +
                  std::to_string(run.end) + (run.ended ? "" : " (still running at the cut)") +
                  "\nclick: select this block at this time";
            if (canvas_.clicked()) {
                const int position = loaded.index.block_position(run.block);
                if (position >= 0) {
                    selection.block = static_cast<std::uint32_t>(position);
                    const BlockIndex& chosen_block = loaded.index.block(selection.block);
                    const auto time = static_cast<std::uint64_t>(
                        std::max(0.0, (mouse.x - x0) / scale) + static_cast<double>(first));
                    std::uint32_t done = 0;
                    while (done < chosen_block.instruction_count() &&
                           trace.instructions[chosen_block.instructions[done]].time <= time)
                        ++done;
                    selection.cursor = cursor_with_done(chosen_block, done);
                }
                if (!taken.empty()) selection.tile = taken.front();
            }
        }
    }
    for (const WaitSpan& wait : model.waits()) {
        const BlockRun* run = model.run_of(wait.block);
        if (!run) continue;
        const float a = x_of(wait.from);
        const float b = std::max(x_of(wait.to), a + 2);
        if (b < left || a > right) continue;
        const float top = run_top(run->row) + kRunHeight - 6;
        list->AddRectFilled({a, top}, {b, top + 5}, palette::kWaiting.u32());
        if (mouse_in && inside(mouse, {a, top - 2}, {b, top + 6})) {
            const auto& poll = trace.instructions[wait.first_instruction];
            tip = "block " + std::to_string(wait.block) + ", warp " + std::to_string(wait.warp) +
                  " waiting: " + std::to_string(wait.polls) + " polls of " +
                  trace.memory[poll.memory].name + " that kept its value\nfrom time " +
                  std::to_string(wait.from) + " to " + std::to_string(wait.to) + "\n" +
                  location_label(trace, poll.source) + ": " + source_line_text(trace, poll.source);
        }
    }

    // Tile flags.
    if (!model.tiles().empty()) {
        list->AddText({left, y0 + tiles_top - 18}, palette::kDimText.u32(),
                      "tile flags: X no value yet, A aggregate, P inclusive prefix");
        for (const FlagSpan& span : model.flags()) {
            const auto row = static_cast<std::uint32_t>(
                std::lower_bound(model.tiles().begin(), model.tiles().end(), span.tile) -
                model.tiles().begin());
            const float a = x_of(span.from);
            const float b = std::max(x_of(span.to), a + 1);
            if (b < left || a > right) continue;
            const float top = y0 + tiles_top + row * (kTileHeight + 2);
            list->AddRectFilled({a, top}, {b, top + kTileHeight},
                                palette::kFlags.of(span.flag).u32());
            const std::string letter(trace::to_string(span.flag));
            centred_text(list, {a, top}, {b, top + kTileHeight}, IM_COL32(255, 255, 255, 255),
                         letter.c_str());
            if (mouse_in && inside(mouse, {a, top}, {b, top + kTileHeight})) {
                tip = "tile " + std::to_string(span.tile) + ": " + letter + " from time " +
                      std::to_string(span.from) + " to " + std::to_string(span.to) +
                      "\nclick: show this tile's look-back";
                if (canvas_.clicked()) select_tile(loaded, selection, span.tile);
                if (span.event) {
                    const auto& event = trace.block_events[*span.event];
                    const auto& change = std::get<trace::TileFlagChange>(event.what);
                    tip += "\nset by block " + std::to_string(event.block);
                    if (change.value_type != trace::ValueType::none)
                        tip += ", value " +
                               trace::format_value(change.value_type,
                                                   trace::value_type_size(change.value_type),
                                                   change.value);
                }
            }
        }
    }

    if (chosen_tile)
        draw_look_back(list, loaded, *chosen_tile,
                       TimelineGeometry{x_of, run_top, kRunHeight, y0 + tiles_top, kTileHeight + 2,
                                        kTileHeight, left, right},
                       mouse_in, mouse, tip);

    // The replay cursor's time.
    {
        std::uint64_t time = 0;
        if (selection.cursor.instruction() >= 0)
            time = trace
                       .instructions[block.instructions[static_cast<std::size_t>(
                           selection.cursor.instruction())]]
                       .time;
        else if (const BlockRun* run = model.run_of(block.block))
            time = run->start;
        const float x = x_of(std::max(time, first));
        list->AddLine({x, y0 + kAxisHeight - 4}, {x, canvas_.max().y}, palette::kTimeCursor.u32(),
                      2.0f);
    }

    // Gutter labels and the time axis.
    list->AddRectFilled(canvas_.min(), {left - 4, canvas_.max().y}, palette::kBackground.u32());
    std::vector<std::uint32_t> row_block(model.row_count(), 0);
    if (!model.rows_are_slots())
        for (const BlockRun& run : model.runs()) row_block[run.row] = run.block;
    for (std::uint32_t row = 0; row < model.row_count(); ++row) {
        const float top = run_top(row);
        if (top + kRunHeight < canvas_.min().y || top > canvas_.max().y) continue;
        char label[32];
        if (model.rows_are_slots())
            std::snprintf(label, sizeof label, "slot %u", row);
        else
            std::snprintf(label, sizeof label, "block %u", row_block[row]);
        list->AddText({canvas_.min().x + 8, top + 4}, palette::kText.u32(), label);
    }
    for (std::size_t t = 0; t < model.tiles().size(); ++t) {
        const std::uint32_t tile = model.tiles()[t];
        std::string label = "tile " + std::to_string(tile);
        if (const auto owner = tiles.owner_of(tile)) label += " (B" + std::to_string(*owner) + ")";
        const bool chosen = selection.tile == tile;
        list->AddText({canvas_.min().x + 8, y0 + tiles_top + t * (kTileHeight + 2)},
                      (chosen ? palette::kHighlight : palette::kText).u32(), label.c_str());
    }
    list->AddRectFilled({left - 4, canvas_.min().y}, {right, canvas_.min().y + kAxisHeight},
                        palette::kBackground.u32());
    {
        double every = 1; // 1, 2, 5, 10, 20, 50...
        const double factors[3] = {2.0, 2.5, 2.0};
        for (int k = 0; every * scale < 70.0 && every < 1e18; ++k) every *= factors[k % 3];
        const auto step = static_cast<std::uint64_t>(std::max(1.0, std::round(every)));
        const double t_left = std::max(0.0, (left - x0) / scale);
        for (std::uint64_t t = static_cast<std::uint64_t>(t_left) / step * step; first + t <= last;
             t += step) {
            const float x = x_of(first + t);
            if (x > right) break;
            if (x < left) continue;
            const std::string label = std::to_string(first + t);
            list->AddLine({x, canvas_.min().y + kAxisHeight - 5},
                          {x, canvas_.min().y + kAxisHeight}, palette::kDimText.u32());
            list->AddText({x + 2, canvas_.min().y + 2}, palette::kDimText.u32(), label.c_str());
        }
    }
    list->PopClipRect();
    if (!tip.empty()) ImGui::SetTooltip("%s", tip.c_str());
}

} // namespace scanlab::view
