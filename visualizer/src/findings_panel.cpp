#include "findings_panel.h"

#include <string>

#include <imgui.h>

#include "finding_marks.h"
#include "palette.h"
#include "scanlab/trace/names.h"
#include "trace_text.h"

namespace scanlab::view {

namespace {

std::string access_label(const trace::Trace& trace, const trace::FindingAccess& access) {
    std::string text = "block " + std::to_string(access.block) + ", thread " +
                       std::to_string(access.thread) + " (warp " +
                       std::to_string(access.thread / trace::kWarpSize) + ", lane " +
                       std::to_string(access.thread % trace::kWarpSize) +
                       "): " + std::string(trace::to_string(access.role));
    if (access.memory)
        text += " " + trace.memory[*access.memory].name + " byte " + std::to_string(access.offset);
    if (access.source) text += " at " + location_label(trace, *access.source);
    if (access.recorded)
        text += ", instruction #" + std::to_string(access.recorded->instruction);
    else
        text += ", not recorded";
    return text;
}

} // namespace

std::optional<std::uint32_t> draw_findings(const LoadedTrace& loaded, const Selection& selection) {
    const trace::Trace& trace = loaded.trace;
    std::optional<std::uint32_t> chosen;
    if (trace.findings.empty()) {
        ImGui::TextDisabled("The emulator's checks found nothing in this launch.");
        return chosen;
    }
    for (std::uint32_t k = 0; k < trace.findings.size(); ++k) {
        const trace::Finding& finding = trace.findings[k];
        const std::string label =
            std::to_string(k) + ": " + finding_headline(finding) + "##f" + std::to_string(k);
        ImGui::PushStyleColor(ImGuiCol_Text, ImColor(palette::kFindingText.u32()).Value);
        if (ImGui::Selectable(label.c_str(), selection.finding == k)) chosen = k;
        ImGui::PopStyleColor();
    }
    if (!selection.finding || *selection.finding >= trace.findings.size()) {
        ImGui::TextDisabled("Click a finding (or press F) to jump to it.");
        return chosen;
    }
    const trace::Finding& finding = trace.findings[*selection.finding];
    ImGui::Separator();
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextUnformatted(finding.message.c_str());
    for (const trace::FindingAccess& access : finding.accesses)
        ImGui::TextDisabled("%s", access_label(trace, access).c_str());
    ImGui::PopTextWrapPos();
    return chosen;
}

} // namespace scanlab::view
