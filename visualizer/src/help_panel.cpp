#include "help_panel.h"

#include <imgui.h>

#include "shortcuts.h"

namespace scanlab::view {

void draw_help(bool* open) {
    ImGui::SetNextWindowSize({640, 0}, ImGuiCond_Appearing);
    const ImVec2 centre = ImGui::GetMainViewport()->GetCenter();
    ImGui::SetNextWindowPos(centre, ImGuiCond_Appearing, {0.5f, 0.5f});
    if (!ImGui::Begin("Help", open, ImGuiWindowFlags_NoCollapse)) {
        ImGui::End();
        return;
    }
    ImGui::TextWrapped("Open a trace: give its path on the command line, type it in the box at "
                       "the top and press Enter, or drop the file on the window. Record one "
                       "with SIMT_TRACE=out.json ./program (see docs/visualizer.md).");
    ImGui::Spacing();
    if (ImGui::BeginTable("shortcuts", 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV)) {
        ImGui::TableSetupColumn("Keys", ImGuiTableColumnFlags_WidthFixed, 200);
        ImGui::TableSetupColumn("Action");
        ImGui::TableHeadersRow();
        for (const Shortcut& s : shortcuts()) {
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(s.keys);
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(s.action);
        }
        ImGui::EndTable();
    }
    ImGui::Spacing();
    ImGui::TextWrapped("Hover a cell, a bank word, a block or a flag for its details. Click a "
                       "cell to go to the instruction that gave its value, a step on the heat "
                       "strip to go to its worst instruction, a block on the timeline to select "
                       "it at that time.");
    ImGui::End();
}

} // namespace scanlab::view
