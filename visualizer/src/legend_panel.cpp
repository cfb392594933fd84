#include "legend_panel.h"

#include <imgui.h>

#include "palette.h"

namespace scanlab::view {

namespace {

void swatch(Rgb fill, const char* text, Rgb frame = palette::kLegendCellFrame) {
    const ImVec2 a = ImGui::GetCursorScreenPos();
    const float h = ImGui::GetTextLineHeight();
    ImDrawList* list = ImGui::GetWindowDrawList();
    list->AddRectFilled(a, {a.x + 2 * h, a.y + h}, frame.u32());
    list->AddRectFilled({a.x + 1, a.y + 1}, {a.x + 2 * h - 1, a.y + h - 1}, fill.u32());
    ImGui::Dummy({2 * h, h});
    ImGui::SameLine();
    ImGui::TextUnformatted(text);
}

void plain(Rgb fill, const char* text) {
    swatch(fill, text, fill);
}

void ramp(const char* text) {
    const ImVec2 a = ImGui::GetCursorScreenPos();
    const float h = ImGui::GetTextLineHeight();
    ImDrawList* list = ImGui::GetWindowDrawList();
    for (int k = 0; k < 8; ++k)
        list->AddRectFilled({a.x + k * h / 4, a.y}, {a.x + (k + 1) * h / 4, a.y + h},
                            heat_colour(static_cast<std::uint64_t>(k), 7).u32());
    ImGui::Dummy({2 * h, h});
    ImGui::SameLine();
    ImGui::TextUnformatted(text);
}

} // namespace

void draw_legend(const Selection& selection) {
    const float h = ImGui::GetTextLineHeight();
    ImGui::TextDisabled("Array view");
    {
        const ImVec2 a = ImGui::GetCursorScreenPos();
        ImDrawList* list = ImGui::GetWindowDrawList();
        for (int k = 0; k < 8; ++k)
            list->AddRectFilled({a.x + k * h / 4, a.y}, {a.x + (k + 1) * h / 4, a.y + h},
                                scaled(index_colour(static_cast<std::uint32_t>(k)), 0.62f).u32());
        ImGui::Dummy({2 * h, h});
        ImGui::SameLine();
        ImGui::TextUnformatted(selection.colour_by_warp ? "written in this step, colour = warp"
                                                        : "written in this step, colour = thread");
    }
    swatch(palette::kStaleCell, "value carried over from an earlier step");
    swatch(palette::kUnknownCell, "value not known yet");
    swatch(palette::kStaleCell, "cells of the selected instruction", palette::kLegendHighlight);
    swatch(palette::kStaleCell, "cells of the selected finding (race, fault)",
           palette::kLegendFinding);
    swatch(palette::kStaleCell, "final value differs from the reference (expected)",
           palette::kLegendWrong);
    ImGui::TextUnformatted("arrow: a thread read this cell, then wrote that one");
    ImGui::Spacing();
    ImGui::TextDisabled("Bank view");
    plain(palette::kBankOk, "word served in one wavefront");
    plain(palette::kLegendConflict, "bank with several words: a conflict");
    plain(palette::kBankEmpty, "bank not used");
    ramp("conflicts per step / instruction");
    ImGui::Spacing();
    ImGui::TextDisabled("Block timeline");
    plain(palette::kBlockRun, "block resident on a slot");
    plain(palette::kBlockSelected, "the selected block");
    plain(palette::kLegendWaiting, "waiting: polling an unchanged value");
    plain(palette::kLegendFlagX, "tile flag X: no value yet");
    plain(palette::kLegendFlagA, "tile flag A: aggregate published");
    plain(palette::kLegendFlagP, "tile flag P: inclusive prefix published");
    plain(palette::kLegendLookX, "selected tile's look-back read: found X");
    plain(palette::kLegendLookA, "... found A (framed yellow: in the prefix)");
    plain(palette::kLegendLookP, "... found P");
    plain(palette::kTimeCursor, "time of the selected instruction");
}

} // namespace scanlab::view
