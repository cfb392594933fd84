#include "array_view.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <unordered_set>

#include "arrow.h"
#include "finding_marks.h"
#include "palette.h"
#include "scanlab/trace/bank_conflicts.h"
#include "scanlab/trace/expected_check.h"
#include "scanlab/trace/names.h"
#include "trace_text.h"

namespace scanlab::view {

namespace {

constexpr float kArrayLabelWidth = 74.0f;
constexpr float kHeaderHeight = 20.0f;
constexpr std::size_t kMaxArrowsPerFrame = 40000;
constexpr float kFramedCellWidth = 7.0f; // narrower cells are drawn without a frame

Rgb actor_colour(std::uint32_t thread, bool by_warp) {
    return index_colour(by_warp ? thread / trace::kWarpSize : thread);
}

// Block-relative step of a global instruction.
std::uint32_t step_of(const LoadedTrace& loaded, std::uint64_t instruction) {
    return loaded.index.step_place(loaded.trace.instructions[instruction].step).position;
}

struct Geometry {
    float cell_w = 1;
    float cell_h = 1;
    float pitch = 1;
    float gap = 0;
    float x0 = 0;
    float y0 = 0;

    float x(std::uint32_t column) const { return std::floor(x0 + column * cell_w); }
    float y(std::uint32_t row) const { return std::floor(y0 + row * pitch); }
};

} // namespace

std::uint32_t default_array_object(const trace::Trace& trace, const BlockIndex& block) {
    std::vector<std::uint64_t> lanes(trace.memory.size(), 0);
    for (std::uint64_t i : block.instructions)
        lanes[trace.instructions[i].memory] += trace.instructions[i].lanes.size();
    std::uint32_t best = block.objects.empty() ? 0 : block.objects.front();
    bool best_shared = false;
    for (std::uint32_t object : block.objects) {
        const bool shared = trace.memory[object].space == trace::MemorySpace::shared;
        if ((shared && !best_shared) || (shared == best_shared && lanes[object] > lanes[best])) {
            best = object;
            best_shared = shared;
        }
    }
    return best;
}

const ArrayModel& ArrayView::model_for(const LoadedTrace& loaded, Selection& selection) {
    const BlockIndex& block = loaded.index.block(selection.block);
    if (!selection.object ||
        !std::binary_search(block.objects.begin(), block.objects.end(), *selection.object))
        selection.object = default_array_object(loaded.trace, block);
    const Key key{&loaded, selection.block, *selection.object, selection.array.fold,
                  selection.array.all_steps};
    if (!model_ || !(key == key_)) {
        const bool same_shape = model_ && key_.trace == key.trace && key_.object == key.object;
        model_ = std::make_unique<ArrayModel>(loaded.trace, block, key.object, selection.array);
        key_ = key;
        if (!same_shape) canvas_.reset();
        followed_row_ = -1;
        widest_value_ = 0;
        for (const CellEvent& event : model_->sample_value_events(256))
            widest_value_ = std::max(
                widest_value_,
                ImGui::CalcTextSize(
                    cell_value_text(loaded.trace, block, event, model_->cell_bytes()).c_str())
                    .x);
    }
    return *model_;
}

void ArrayView::draw_controls(const LoadedTrace& loaded, Selection& selection) {
    const BlockIndex& block = loaded.index.block(selection.block);
    model_for(loaded, selection);
    ImGui::SetNextItemWidth(260);
    const std::string current = object_label(loaded.trace.memory[*selection.object]);
    if (ImGui::BeginCombo("Object", current.c_str())) {
        for (std::uint32_t object : block.objects) {
            const bool chosen = object == *selection.object;
            if (ImGui::Selectable(object_label(loaded.trace.memory[object]).c_str(), chosen))
                selection.object = object;
            if (chosen) ImGui::SetItemDefaultFocus();
        }
        ImGui::EndCombo();
    }
    ImGui::SameLine();
    ImGui::Checkbox("Fold double buffers", &selection.array.fold);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("Windows of the object written in turn (buffer[2][n]) share columns");
    ImGui::SameLine();
    ImGui::Checkbox("All steps", &selection.array.all_steps);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("One row per step, also for steps that do not write the object");
}

void ArrayView::draw(const LoadedTrace& loaded, Selection& selection, ImVec2 size) {
    const trace::Trace& trace = loaded.trace;
    const BlockIndex& block = loaded.index.block(selection.block);
    const ArrayModel& model = model_for(loaded, selection);
    const Cursor cursor = selection.cursor;

    canvas_.begin("##array", size);
    ImDrawList* list = ImGui::GetWindowDrawList();
    list->PushClipRect(canvas_.min(), canvas_.max(), true);
    list->AddRectFilled(canvas_.min(), canvas_.max(), palette::kBackground.u32());
    if (model.column_count() == 0 || model.row_count() == 0) {
        list->AddText({canvas_.min().x + 12, canvas_.min().y + 12}, palette::kDimText.u32(),
                      "This block does not access the chosen object.");
        list->PopClipRect();
        return;
    }

    const ImVec2 area = canvas_.size();
    auto cell_height = [](float cell_w) {
        return std::floor(std::clamp(cell_w * 0.8f, 10.0f, 30.0f));
    };
    if (canvas_.needs_fit()) {
        // All columns across the width (wide enough for the values when there are few), and
        // the rows spread down the height, with room for the arrows.
        const float widest = std::min(std::max(56.0f, widest_value_ + 10.0f), 240.0f);
        base_cell_width_ =
            std::clamp((area.x - kArrayLabelWidth - 16.0f) / model.column_count(), 0.5f, widest);
        const float rows = static_cast<float>(model.row_count());
        base_row_gap_ =
            std::clamp((area.y - kHeaderHeight - 16.0f) / rows - cell_height(base_cell_width_),
                       14.0f, std::max(40.0f, cell_height(base_cell_width_) * 2.5f));
        canvas_.fitted();
    }
    Geometry g;
    g.cell_w = base_cell_width_ * canvas_.zoom();
    g.cell_h = cell_height(g.cell_w);
    g.pitch = std::floor(g.cell_h + std::clamp(base_row_gap_ * canvas_.zoom(), 8.0f, 240.0f));
    g.gap = g.cell_w >= 8 ? 2.0f : (g.cell_w >= 3 ? 1.0f : 0.0f);
    canvas_.clamp({kArrayLabelWidth + model.column_count() * g.cell_w + 16,
                   kHeaderHeight + model.row_count() * g.pitch});

    const int current_row = model.row_at_or_before(cursor.step);
    if (current_row != followed_row_) {
        followed_row_ = current_row;
        if (current_row >= 0)
            canvas_.reveal_y(kHeaderHeight + current_row * g.pitch,
                             kHeaderHeight + current_row * g.pitch + g.cell_h, 8.0f);
    }
    g.x0 = canvas_.min().x + kArrayLabelWidth + canvas_.pan().x;
    g.y0 = canvas_.min().y + kHeaderHeight + 6.0f + canvas_.pan().y;

    const auto columns = static_cast<std::int64_t>(model.column_count());
    const auto rows = static_cast<std::int64_t>(model.row_count());
    const std::int64_t c0 =
        std::clamp<std::int64_t>(static_cast<std::int64_t>(std::floor(
                                     (canvas_.min().x + kArrayLabelWidth - g.x0) / g.cell_w)),
                                 0, columns - 1);
    const std::int64_t c1 = std::clamp<std::int64_t>(
        static_cast<std::int64_t>(std::ceil((canvas_.max().x - g.x0) / g.cell_w)), 0, columns - 1);
    const std::int64_t r0 = std::clamp<std::int64_t>(
        static_cast<std::int64_t>(std::floor((canvas_.min().y - g.y0) / g.pitch)), 0, rows - 1);
    const std::int64_t r1 = std::clamp<std::int64_t>(
        static_cast<std::int64_t>(std::ceil((canvas_.max().y - g.y0) / g.pitch)), 0, rows - 1);
    auto reached = [&](std::uint32_t r) {
        return !model.row(r).step || *model.row(r).step <= cursor.step;
    };

    // The selected instruction's cells: where it wrote, or where what it read was shown.
    std::unordered_set<std::uint64_t> highlighted;
    std::uint32_t current_position = 0;
    const bool has_current = cursor.instruction() >= 0;
    if (has_current) {
        current_position = static_cast<std::uint32_t>(cursor.instruction());
        const std::uint64_t global = block.instructions[current_position];
        const auto& instruction = trace.instructions[global];
        if (instruction.memory == model.object()) {
            const std::uint32_t step = step_of(loaded, global);
            int row = model.row_at_or_before(step);
            if (model.written() && instruction.kind == trace::AccessKind::load)
                row = step > 0 ? model.row_at_or_before(step - 1) : (!model.row(0).step ? 0 : -1);
            const std::uint32_t parts =
                std::max<std::uint32_t>(1, instruction.width / model.cell_bytes());
            for (const auto& lane : instruction.lanes) {
                for (std::uint32_t k = 0; k < parts; ++k) {
                    const std::int64_t column =
                        model.column_of_element(lane.offset / model.cell_bytes() + k);
                    if (row >= 0 && column >= 0)
                        highlighted.insert((std::uint64_t(row) << 32) | std::uint64_t(column));
                }
            }
        }
    }

    // The selected finding's cells, in the rows of their steps (the current row when the step is
    // not known).
    std::unordered_set<std::uint64_t> marked;
    if (selection.finding) {
        const std::vector<FindingMark> marks = finding_marks(trace, *selection.finding);
        for (const FindingMark& mark : marks) {
            if (mark.block != block.block || mark.memory != model.object()) continue;
            int row = current_row;
            if (mark.step) {
                const std::uint32_t step = loaded.index.step_place(*mark.step).position;
                row = model.row_at_or_before(step);
                const bool load = mark.instruction && trace.instructions[*mark.instruction].kind ==
                                                          trace::AccessKind::load;
                if (model.written() && load)
                    row =
                        step > 0 ? model.row_at_or_before(step - 1) : (!model.row(0).step ? 0 : -1);
            }
            if (row < 0) continue;
            for (const std::uint64_t element :
                 marked_elements({mark}, block.block, model.object(), model.cell_bytes())) {
                const std::int64_t column = model.column_of_element(element);
                if (column >= 0) marked.insert((std::uint64_t(row) << 32) | std::uint64_t(column));
            }
        }
    }

    // Arrows first, so that cells cover their ends.
    if (g.cell_w >= 3.0f) {
        std::size_t drawn = 0;
        const float head = std::clamp(g.cell_w * 0.3f, 4.0f, 8.0f);
        for (std::int64_t r = r0; r <= r1 && drawn < kMaxArrowsPerFrame; ++r) {
            const auto row = static_cast<std::uint32_t>(r);
            if (!reached(row)) continue;
            const auto span = static_cast<std::int64_t>(model.arrow_span(row));
            const Arrow* begin = model.arrows_begin(row);
            const Arrow* end = model.arrows_end(row);
            const Arrow* it =
                std::lower_bound(begin, end, c0 - span, [](const Arrow& a, std::int64_t v) {
                    return static_cast<std::int64_t>(a.column) < v;
                });
            for (; it != end && static_cast<std::int64_t>(it->column) <= c1 + span; ++it) {
                if (it->position >= cursor.done) continue;
                const bool current = has_current && it->position == current_position;
                const Rgb colour = actor_colour(it->thread, selection.colour_by_warp);
                const ImVec2 from{g.x(it->source_column) + (g.cell_w - g.gap) / 2,
                                  g.y(it->source_row) + g.cell_h + 1};
                const ImVec2 to{g.x(it->column) + (g.cell_w - g.gap) / 2, g.y(row) - 1};
                draw_arrow(list, from, to, colour.u32(current ? 255 : 190), current ? 2.5f : 1.2f,
                           head);
                ++drawn;
            }
        }
    }

    // Cells.
    const float font_height = ImGui::GetFontSize();
    for (std::int64_t r = r0; r <= r1; ++r) {
        const auto row = static_cast<std::uint32_t>(r);
        const float y = g.y(row);
        if (!reached(row)) {
            list->AddRect({g.x(static_cast<std::uint32_t>(c0)), y},
                          {g.x(static_cast<std::uint32_t>(c1)) + g.cell_w - g.gap, y + g.cell_h},
                          palette::kFutureRow.u32());
            continue;
        }
        if (g.cell_w < 2.0f) {
            // Less than two pixels a cell: one sample per pixel column, no frames.
            const float left = std::max(canvas_.min().x + kArrayLabelWidth, g.x0);
            const float right = std::min(canvas_.max().x, g.x0 + columns * g.cell_w);
            for (float px = std::floor(left); px < right; px += 1.0f) {
                const auto column = static_cast<std::uint32_t>(std::clamp<std::int64_t>(
                    static_cast<std::int64_t>((px - g.x0) / g.cell_w), 0, columns - 1));
                const CellState state = model.cell(row, column, cursor.done);
                Rgb fill = palette::kUnknownCell;
                if (state.event) {
                    const auto& lane = trace.instructions[block.instructions[state.event->position]]
                                           .lanes[state.event->lane];
                    fill = state.active
                               ? scaled(actor_colour(lane.thread, selection.colour_by_warp), 0.7f)
                               : palette::kStaleCell;
                    if (state.event->write &&
                        loaded.expected.wrong(block.instructions[state.event->position],
                                              state.event->lane, model.element_of(*state.event)))
                        fill = palette::kWrong;
                }
                list->AddRectFilled({px, y}, {px + 1, y + g.cell_h}, fill.u32());
            }
            continue;
        }
        for (std::int64_t c = c0; c <= c1; ++c) {
            const auto column = static_cast<std::uint32_t>(c);
            const float x = g.x(column);
            const float x_end = std::max(x + 1.0f, std::floor(g.x0 + (c + 1) * g.cell_w) - g.gap);
            const CellState state = model.cell(row, column, cursor.done);
            Rgb fill = palette::kUnknownCell;
            Rgb text_colour = palette::kDimText;
            if (state.event) {
                const auto& lane = trace.instructions[block.instructions[state.event->position]]
                                       .lanes[state.event->lane];
                if (state.active) {
                    fill = scaled(actor_colour(lane.thread, selection.colour_by_warp), 0.62f);
                    text_colour = {255, 255, 255};
                } else {
                    fill = palette::kStaleCell;
                }
            }
            const bool lit = highlighted.count((std::uint64_t(row) << 32) | column) != 0;
            const bool flagged = marked.count((std::uint64_t(row) << 32) | column) != 0;
            const bool wrong =
                state.event && state.event->write &&
                loaded.expected.wrong(block.instructions[state.event->position], state.event->lane,
                                      model.element_of(*state.event));
            if (g.cell_w >= kFramedCellWidth) {
                // A finding's cell and a wrong value get a frame twice as thick, in their own
                // colours.
                const Rgb frame = flagged ? palette::kFinding
                                  : wrong ? palette::kWrong
                                  : lit   ? palette::kHighlight
                                          : palette::kCellFrame;
                const float inset = flagged || wrong ? 2.0f : 1.0f;
                list->AddRectFilled({x, y}, {x_end, y + g.cell_h}, frame.u32());
                list->AddRectFilled({x + inset, y + inset}, {x_end - inset, y + g.cell_h - inset},
                                    fill.u32());
                // A wrong value also gets a corner, seen even where frames are yellow around it.
                if (wrong && !flagged) {
                    const float corner = std::min(8.0f, (x_end - x) / 3);
                    list->AddTriangleFilled({x_end - corner, y}, {x_end, y}, {x_end, y + corner},
                                            palette::kWrong.u32());
                }
            } else {
                // Too narrow for a frame: the fill alone, lifted a little when it is stale.
                if (!state.active && state.event) fill = scaled(palette::kStaleCell, 1.35f);
                list->AddRectFilled({x, y}, {x_end, y + g.cell_h},
                                    (flagged ? palette::kFinding
                                     : wrong ? palette::kWrong
                                     : lit   ? palette::kHighlight
                                             : fill)
                                        .u32());
            }
            if (state.event && g.cell_h >= font_height + 2) {
                const std::string text =
                    cell_value_text(trace, block, *state.event, model.cell_bytes());
                const ImVec2 text_size = ImGui::CalcTextSize(text.c_str());
                if (text_size.x + 4 <= x_end - x)
                    list->AddText({std::floor(x + (x_end - x - text_size.x) / 2),
                                   std::floor(y + (g.cell_h - text_size.y) / 2)},
                                  text_colour.u32(), text.c_str());
            }
        }
    }

    // Row labels in a fixed gutter, column numbers in a fixed header.
    list->AddRectFilled(canvas_.min(), {canvas_.min().x + kArrayLabelWidth - 4, canvas_.max().y},
                        palette::kBackground.u32());
    for (std::int64_t r = r0; r <= r1; ++r) {
        const auto row = static_cast<std::uint32_t>(r);
        const ArrayRow& info = model.row(row);
        char label[48];
        if (info.step)
            std::snprintf(label, sizeof label, "step %u", *info.step);
        else
            std::snprintf(label, sizeof label, "initial");
        const Rgb colour = static_cast<int>(row) == current_row ? palette::kHighlight
                           : reached(row)                       ? palette::kText
                                                                : palette::kDimText;
        list->AddText({canvas_.min().x + 8, g.y(row) + (g.cell_h - font_height) / 2}, colour.u32(),
                      label);
    }
    list->AddRectFilled({canvas_.min().x, canvas_.min().y},
                        {canvas_.max().x, canvas_.min().y + kHeaderHeight},
                        palette::kBackground.u32());
    {
        std::uint32_t every = 1;
        while (every * g.cell_w < 34.0f && every < (1u << 30)) every *= 2;
        const std::uint32_t first = static_cast<std::uint32_t>(c0) / every * every;
        for (std::uint64_t c = first; c <= static_cast<std::uint64_t>(c1); c += every) {
            const auto column = static_cast<std::uint32_t>(c);
            const std::uint64_t label_value =
                model.folded() ? column : model.column_element(column);
            const std::string text = std::to_string(label_value);
            const float x =
                g.x(column) + (g.cell_w - g.gap) / 2 - ImGui::CalcTextSize(text.c_str()).x / 2;
            if (x < canvas_.min().x + kArrayLabelWidth - 8) continue;
            list->AddText({x, canvas_.min().y + 2}, palette::kDimText.u32(), text.c_str());
        }
    }
    list->PopClipRect();

    // Hover and click.
    if (canvas_.hovered()) {
        const ImVec2 mouse = ImGui::GetIO().MousePos;
        const float fx = (mouse.x - g.x0) / g.cell_w;
        const float fy = (mouse.y - g.y0) / g.pitch;
        if (mouse.x > canvas_.min().x + kArrayLabelWidth && fx >= 0 && fy >= 0 && fx < columns &&
            fy < rows && (mouse.y - g.y0 - std::floor(fy) * g.pitch) <= g.cell_h) {
            const auto row = static_cast<std::uint32_t>(fy);
            const auto column = static_cast<std::uint32_t>(fx);
            if (reached(row)) {
                tooltip(loaded, selection, row, column);
                const CellState state = model.cell(row, column, cursor.done);
                if (canvas_.clicked() && state.event)
                    selection.cursor = cursor_after_instruction(block, state.event->position);
            }
        }
    }
}

void ArrayView::tooltip(const LoadedTrace& loaded, const Selection& selection, std::uint32_t row,
                        std::uint32_t column) const {
    const trace::Trace& trace = loaded.trace;
    const BlockIndex& block = loaded.index.block(selection.block);
    const ArrayModel& model = *model_;
    const trace::MemoryObject& object = trace.memory[model.object()];
    const CellState state = model.cell(row, column, selection.cursor.done);
    const std::uint64_t element =
        state.event ? model.element_of(*state.event) : model.column_element(column);
    const std::uint64_t byte_offset = element * model.cell_bytes();

    ImGui::BeginTooltip();
    ImGui::Text("%s[%llu]", object.name.c_str(), static_cast<unsigned long long>(element));
    if (model.folded())
        ImGui::TextDisabled("window %llu, index %u of the folded buffer",
                            static_cast<unsigned long long>(element / model.fold_period()), column);
    if (object.space == trace::MemorySpace::shared) {
        const std::uint64_t address = object.base + byte_offset;
        ImGui::Text("shared address 0x%llx, bank %u", static_cast<unsigned long long>(address),
                    trace::bank_of(address));
    } else {
        ImGui::Text("global, byte offset %llu", static_cast<unsigned long long>(byte_offset));
    }
    if (!state.event) {
        ImGui::TextDisabled("value not known at this point");
        ImGui::EndTooltip();
        return;
    }
    const std::uint64_t global = block.instructions[state.event->position];
    const auto& instruction = trace.instructions[global];
    const auto& lane = instruction.lanes[state.event->lane];
    ImGui::Text("value %s",
                cell_value_text(trace, block, *state.event, model.cell_bytes()).c_str());
    if (const auto expected = trace::expected_value(trace, model.object(), element);
        expected && trace.expected &&
        trace::value_type_size(trace.expected->value_type) == model.cell_bytes()) {
        const std::string text =
            trace::format_value(trace.expected->value_type, model.cell_bytes(), *expected);
        if (state.event->write && loaded.expected.wrong(global, state.event->lane, element))
            ImGui::TextColored(ImColor(palette::kWrongText.u32()),
                               "expected %s: this final value is wrong (%s)", text.c_str(),
                               trace.expected->reference.c_str());
        else
            ImGui::TextDisabled("expected at the end: %s", text.c_str());
    }
    const std::uint32_t step = step_of(loaded, global);
    if (state.event->write) {
        ImGui::Text("written by thread %u (warp %u, lane %u)", lane.thread, instruction.warp,
                    lane.lane);
        ImGui::Text("at instruction #%llu, step %u, time %llu",
                    static_cast<unsigned long long>(global), step,
                    static_cast<unsigned long long>(instruction.time));
    } else {
        ImGui::Text("read by thread %u at instruction #%llu, step %u", lane.thread,
                    static_cast<unsigned long long>(global), step);
        if (lane.writer) {
            const auto& writer = trace.instructions[lane.writer->instruction];
            ImGui::Text("written by thread %u at instruction #%llu, step %u, time %llu",
                        lane.writer->thread,
                        static_cast<unsigned long long>(lane.writer->instruction),
                        step_of(loaded, lane.writer->instruction),
                        static_cast<unsigned long long>(writer.time));
        } else {
            ImGui::TextDisabled("written before the kernel (or by an unrecorded block)");
        }
    }
    ImGui::TextDisabled("%s: %s", location_label(trace, instruction.source).c_str(),
                        source_line_text(trace, instruction.source).c_str());
    ImGui::EndTooltip();
}

} // namespace scanlab::view
