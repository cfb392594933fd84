#include "bank_view.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "palette.h"
#include "scanlab/trace/names.h"
#include "trace_text.h"

namespace scanlab::view {

namespace {

constexpr float kBankStripHeight = 18.0f;
constexpr float kPhaseLabelHeight = 20.0f;
constexpr float kBankHeaderHeight = 16.0f;
constexpr float kGutter = 8.0f;

bool is_shared(const trace::Trace& trace, std::uint64_t instruction) {
    return trace.instructions[instruction].space == trace::MemorySpace::shared;
}

std::uint64_t step_conflicts(const LoadedTrace& loaded, std::uint32_t global_step) {
    return loaded.analysis.steps[global_step].all().conflicts;
}

std::uint32_t instruction_conflicts(const LoadedTrace& loaded, std::uint64_t instruction) {
    const auto& analysis = loaded.analysis.instructions[instruction];
    return analysis ? analysis->conflicts : 0;
}

void outline(ImDrawList* list, ImVec2 a, ImVec2 b) {
    list->AddRect({a.x - 1, a.y - 1}, {b.x + 1, b.y + 1}, palette::kHighlight.u32(), 0, 0, 2.0f);
}

} // namespace

std::optional<std::uint64_t> bank_instruction(const LoadedTrace& loaded,
                                              const Selection& selection) {
    const BlockIndex& block = loaded.index.block(selection.block);
    for (std::int64_t p = selection.cursor.instruction(); p >= 0; --p)
        if (is_shared(loaded.trace, block.instructions[static_cast<std::size_t>(p)]))
            return block.instructions[static_cast<std::size_t>(p)];
    for (std::uint64_t global : block.instructions)
        if (is_shared(loaded.trace, global)) return global;
    return std::nullopt;
}

std::optional<std::uint32_t> worst_instruction_in_step(const LoadedTrace& loaded,
                                                       std::uint32_t block_position,
                                                       std::uint32_t step) {
    const BlockIndex& block = loaded.index.block(block_position);
    std::optional<std::uint32_t> worst;
    std::uint32_t worst_conflicts = 0;
    for (std::uint32_t p = block.step_begin[step]; p < block.step_end(step); ++p) {
        const std::uint64_t global = block.instructions[p];
        if (!is_shared(loaded.trace, global)) continue;
        const std::uint32_t conflicts = instruction_conflicts(loaded, global);
        if (!worst || conflicts > worst_conflicts) {
            worst = p;
            worst_conflicts = conflicts;
        }
    }
    return worst;
}

void BankView::draw(const LoadedTrace& loaded, Selection& selection, ImVec2 size) {
    const trace::Trace& trace = loaded.trace;
    const ImVec2 start = ImGui::GetCursorScreenPos();
    const std::optional<std::uint64_t> shown = bank_instruction(loaded, selection);
    if (!shown) {
        ImGui::TextDisabled("Block %u has no shared-memory instructions.",
                            loaded.index.block(selection.block).block);
        return;
    }
    const trace::WarpInstruction& instruction = trace.instructions[*shown];
    if (layout_trace_ != &loaded || layout_instruction_ != shown) {
        layout_ = bank_layout(trace, instruction);
        layout_trace_ = &loaded;
        layout_instruction_ = shown;
    }
    const trace::BankConflicts& counts = layout_.conflicts;
    const std::uint32_t step = loaded.index.step_place(instruction.step).position;

    ImGui::Text("Instruction #%llu (block %u, warp %u, step %u): %s %s, %u B x %zu lanes",
                static_cast<unsigned long long>(*shown), instruction.block, instruction.warp, step,
                std::string(trace::to_string(instruction.kind)).c_str(),
                trace.memory[instruction.memory].name.c_str(), instruction.width,
                instruction.lanes.size());
    ImGui::TextDisabled("%s: %s", location_label(trace, instruction.source).c_str(),
                        source_line_text(trace, instruction.source).c_str());
    std::uint32_t degree = 1;
    for (const auto& phase : layout_.phases) degree = std::max(degree, phase.deepest);
    if (counts.conflicts == 0)
        ImGui::Text("%u wavefront%s (ideal %u): no bank conflict", counts.wavefronts,
                    counts.wavefronts == 1 ? "" : "s", counts.ideal_wavefronts);
    else
        ImGui::TextColored(ImColor(palette::kHeatHot.u32()),
                           "%u wavefronts (ideal %u): %u conflict%s, %u-way", counts.wavefronts,
                           counts.ideal_wavefronts, counts.conflicts,
                           counts.conflicts == 1 ? "" : "s", degree);

    const float width = std::max(size.x, 100.0f);
    draw_step_strip(loaded, selection, width);
    draw_instruction_strip(loaded, selection, width, shown);
    const float used = ImGui::GetCursorScreenPos().y - start.y;
    draw_banks(loaded, instruction, {width, std::max(size.y - used, 40.0f)});
}

void BankView::draw_step_strip(const LoadedTrace& loaded, Selection& selection, float width) {
    const BlockIndex& block = loaded.index.block(selection.block);
    std::uint64_t worst = 0;
    std::uint32_t worst_step = 0;
    for (std::uint32_t s = 0; s < block.step_count(); ++s) {
        const std::uint64_t c = step_conflicts(loaded, block.steps[s]);
        if (c > worst) {
            worst = c;
            worst_step = s;
        }
    }
    if (worst == 0)
        ImGui::TextDisabled("Conflicts per step: none in this block");
    else
        ImGui::Text("Conflicts per step (worst: step %u, %llu)", worst_step,
                    static_cast<unsigned long long>(worst));
    const ImVec2 a = ImGui::GetCursorScreenPos();
    ImGui::InvisibleButton("##step-strip", {width, kBankStripHeight});
    const bool hovered = ImGui::IsItemHovered();
    const bool clicked = ImGui::IsItemClicked();
    ImDrawList* list = ImGui::GetWindowDrawList();
    const std::uint32_t n = std::max<std::uint32_t>(block.step_count(), 1);
    const float cell = width / n;
    if (cell >= 1.0f) {
        for (std::uint32_t s = 0; s < block.step_count(); ++s) {
            const float x = a.x + std::floor(s * cell);
            const float x_end = a.x + std::floor((s + 1) * cell) - (cell >= 4 ? 1.0f : 0.0f);
            list->AddRectFilled({x, a.y}, {std::max(x_end, x + 1), a.y + kBankStripHeight},
                                heat_colour(step_conflicts(loaded, block.steps[s]), worst).u32());
        }
    } else {
        for (float px = 0; px < width; px += 1.0f) {
            const auto s0 = static_cast<std::uint32_t>(px / cell);
            const auto s1 = std::min(static_cast<std::uint32_t>((px + 1) / cell), n);
            std::uint64_t hot = 0;
            for (std::uint32_t s = s0; s < std::max(s1, s0 + 1) && s < block.step_count(); ++s)
                hot = std::max(hot, step_conflicts(loaded, block.steps[s]));
            list->AddRectFilled({a.x + px, a.y}, {a.x + px + 1, a.y + kBankStripHeight},
                                heat_colour(hot, worst).u32());
        }
    }
    if (block.step_count() > 0) {
        const std::uint32_t s = selection.cursor.step;
        outline(list, {a.x + std::floor(s * cell), a.y},
                {a.x + std::max(std::floor((s + 1) * cell) - 1, std::floor(s * cell) + 1),
                 a.y + kBankStripHeight});
    }
    if (hovered && block.step_count() > 0) {
        const float mx = ImGui::GetIO().MousePos.x - a.x;
        const auto s =
            std::min(static_cast<std::uint32_t>(std::max(mx, 0.0f) / cell), block.step_count() - 1);
        const auto& totals = loaded.analysis.steps[block.steps[s]];
        ImGui::SetTooltip("step %u: %llu conflicts in %llu shared instructions\n"
                          "loads %llu, stores %llu, atomics %llu\nclick: its worst instruction",
                          s, static_cast<unsigned long long>(totals.all().conflicts),
                          static_cast<unsigned long long>(totals.all().instructions),
                          static_cast<unsigned long long>(totals.load.conflicts),
                          static_cast<unsigned long long>(totals.store.conflicts),
                          static_cast<unsigned long long>(totals.atomic.conflicts));
        if (clicked) {
            const auto w = worst_instruction_in_step(loaded, selection.block, s);
            selection.cursor =
                w ? cursor_after_instruction(block, *w) : cursor_at_step_end(block, s);
        }
    }
}

void BankView::draw_instruction_strip(const LoadedTrace& loaded, Selection& selection, float width,
                                      std::optional<std::uint64_t> shown) {
    const BlockIndex& block = loaded.index.block(selection.block);
    const std::uint32_t step =
        shown ? loaded.index.step_place(loaded.trace.instructions[*shown].step).position
              : selection.cursor.step;
    std::vector<std::uint32_t> shared;
    std::uint32_t worst = 0;
    for (std::uint32_t p = block.step_begin[step]; p < block.step_end(step); ++p) {
        if (!is_shared(loaded.trace, block.instructions[p])) continue;
        shared.push_back(p);
        worst = std::max(worst, instruction_conflicts(loaded, block.instructions[p]));
    }
    ImGui::Text("Shared instructions of step %u: %zu", step, shared.size());
    const ImVec2 a = ImGui::GetCursorScreenPos();
    ImGui::InvisibleButton("##instruction-strip", {width, kBankStripHeight});
    const bool hovered = ImGui::IsItemHovered();
    const bool clicked = ImGui::IsItemClicked();
    if (shared.empty()) return;
    ImDrawList* list = ImGui::GetWindowDrawList();
    const float cell = width / static_cast<float>(shared.size());
    for (std::size_t k = 0; k < shared.size(); ++k) {
        const float x = a.x + std::floor(k * cell);
        const float x_end =
            std::max(a.x + std::floor((k + 1) * cell) - (cell >= 4 ? 1.0f : 0.0f), x + 1);
        const std::uint64_t global = block.instructions[shared[k]];
        list->AddRectFilled({x, a.y}, {x_end, a.y + kBankStripHeight},
                            heat_colour(instruction_conflicts(loaded, global), worst).u32());
        if (shown && global == *shown) outline(list, {x, a.y}, {x_end, a.y + kBankStripHeight});
    }
    if (hovered) {
        const float mx = ImGui::GetIO().MousePos.x - a.x;
        const auto k =
            std::min(static_cast<std::size_t>(std::max(mx, 0.0f) / cell), shared.size() - 1);
        const std::uint64_t global = block.instructions[shared[k]];
        ImGui::SetTooltip("%s\n%u conflicts\nclick: show it",
                          instruction_label(loaded.trace, global).c_str(),
                          instruction_conflicts(loaded, global));
        if (clicked) selection.cursor = cursor_after_instruction(block, shared[k]);
    }
}

void BankView::draw_banks(const LoadedTrace& loaded, const trace::WarpInstruction& instruction,
                          ImVec2 size) {
    const trace::Trace& trace = loaded.trace;
    const trace::MemoryObject& object = trace.memory[instruction.memory];
    canvas_.begin("##banks", size);
    ImDrawList* list = ImGui::GetWindowDrawList();
    list->PushClipRect(canvas_.min(), canvas_.max(), true);
    list->AddRectFilled(canvas_.min(), canvas_.max(), palette::kBackground.u32());
    if (canvas_.needs_fit() || layout_fitted_ != layout_instruction_) {
        // The 32 banks across the width; the deepest stack down the height, if it can.
        base_column_width_ = std::clamp((size.x - 2 * kGutter) / trace::kNumBanks, 12.0f, 64.0f);
        float fixed = 8;
        std::uint32_t words = 0;
        for (const auto& phase : layout_.phases) {
            fixed += kPhaseLabelHeight + kBankHeaderHeight + 14;
            words += std::max<std::uint32_t>(phase.deepest, 1);
        }
        base_box_height_ = std::clamp(
            std::min(base_column_width_ * 0.7f, (size.y - fixed) / static_cast<float>(words) - 1),
            5.0f, 24.0f);
        layout_fitted_ = layout_instruction_;
        canvas_.fitted();
    }
    const float column = std::floor(base_column_width_ * canvas_.zoom());
    const float box = std::floor(std::max(base_box_height_ * canvas_.zoom(), 3.0f));
    const float font = ImGui::GetFontSize();
    float content_height = 0;
    for (const auto& phase : layout_.phases)
        content_height += kPhaseLabelHeight + kBankHeaderHeight + phase.deepest * (box + 1) + 14;
    canvas_.clamp({column * trace::kNumBanks + 2 * kGutter, content_height});

    const float x0 = std::floor(canvas_.min().x + kGutter + canvas_.pan().x);
    float y = std::floor(canvas_.min().y + 4 + canvas_.pan().y);
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    const BankWord* hovered_word = nullptr;
    std::uint32_t hovered_bank = 0;
    for (std::size_t p = 0; p < layout_.phases.size(); ++p) {
        const BankPhaseLayout& phase = layout_.phases[p];
        std::string label = layout_.phases.size() > 1 ? "phase " + std::to_string(p) + ", " : "";
        label += "lanes " + std::to_string(phase.first_lane) + "-" +
                 std::to_string(phase.first_lane + phase.lane_count - 1) + ": " +
                 std::to_string(phase.wavefronts) +
                 (phase.wavefronts == 1 ? " wavefront" : " wavefronts");
        if (phase.deepest > 1) label += ", " + std::to_string(phase.deepest) + "-way conflict";
        list->AddText({x0, y + 2}, palette::kText.u32(), label.c_str());
        y += kPhaseLabelHeight;
        for (std::uint32_t b = 0; b < trace::kNumBanks; ++b) {
            if (column < 14 && b % 4 != 0) continue;
            const std::string number = std::to_string(b);
            const float w = ImGui::CalcTextSize(number.c_str()).x;
            list->AddText({x0 + b * column + (column - 1 - w) / 2, y}, palette::kDimText.u32(),
                          number.c_str());
        }
        y += kBankHeaderHeight;
        const float depth = std::max<std::uint32_t>(phase.deepest, 1) * (box + 1);
        for (std::uint32_t b = 0; b < trace::kNumBanks; ++b) {
            const float x = x0 + b * column;
            list->AddRectFilled({x, y}, {x + column - 1, y + depth}, palette::kBankEmpty.u32());
            const auto& words = phase.banks[b];
            const Rgb fill = words.size() > 1 ? palette::kConflict : palette::kBankOk;
            for (std::size_t k = 0; k < words.size(); ++k) {
                const BankWord& word = words[k];
                const ImVec2 a{x, y + k * (box + 1)};
                const ImVec2 z{x + column - 1, a.y + box};
                list->AddRectFilled(a, z, fill.u32());
                char text[16];
                if (word.lanes.size() == 1)
                    std::snprintf(text, sizeof text, "%u", instruction.lanes[word.lanes[0]].lane);
                else
                    std::snprintf(text, sizeof text, "x%zu", word.lanes.size());
                const ImVec2 text_size = ImGui::CalcTextSize(text);
                if (text_size.x + 2 <= column - 1 && box >= font)
                    list->AddText({std::floor(a.x + (column - 1 - text_size.x) / 2),
                                   std::floor(a.y + (box - text_size.y) / 2)},
                                  IM_COL32(255, 255, 255, 255), text);
                if (canvas_.hovered() && mouse.x >= a.x && mouse.x < z.x && mouse.y >= a.y &&
                    mouse.y < z.y) {
                    hovered_word = &word;
                    hovered_bank = b;
                }
            }
        }
        y += depth + 14;
    }
    list->PopClipRect();

    if (hovered_word) {
        const std::uint64_t address = hovered_word->word * trace::kBankWordBytes;
        const std::uint64_t element =
            (address - object.base) / std::max<std::uint32_t>(object.element_size, 1);
        ImGui::BeginTooltip();
        ImGui::Text("bank %u, word at shared address 0x%llx: %s[%llu]", hovered_bank,
                    static_cast<unsigned long long>(address), object.name.c_str(),
                    static_cast<unsigned long long>(element));
        const std::size_t shown = std::min<std::size_t>(hovered_word->lanes.size(), 12);
        for (std::size_t k = 0; k < shown; ++k) {
            const auto& lane = instruction.lanes[hovered_word->lanes[k]];
            ImGui::Text(
                "lane %2u (thread %u): offset %llu, value %s", lane.lane, lane.thread,
                static_cast<unsigned long long>(lane.offset),
                trace::format_value(instruction.value_type, instruction.width, lane.value).c_str());
        }
        if (hovered_word->lanes.size() > shown)
            ImGui::TextDisabled("... %zu lanes in all (a broadcast: one wavefront)",
                                hovered_word->lanes.size());
        ImGui::EndTooltip();
    }
}

} // namespace scanlab::view
