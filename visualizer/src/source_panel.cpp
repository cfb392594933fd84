#include "source_panel.h"

#include <cstdio>
#include <string>

#include <imgui.h>

#include "palette.h"

namespace scanlab::view {

void SourcePanel::draw(const LoadedTrace& loaded, Selection& selection) {
    const trace::Trace& trace = loaded.trace;
    const BlockIndex& block = loaded.index.block(selection.block);
    std::optional<trace::SourceLocation> current;
    if (selection.cursor.instruction() >= 0)
        current = trace
                      .instructions[block.instructions[static_cast<std::size_t>(
                          selection.cursor.instruction())]]
                      .source;
    std::optional<trace::SourceLocation> barrier;
    if (block.step_count() > 0) barrier = trace.steps[block.steps[selection.cursor.step]].barrier;
    const bool follow = current != followed_;
    followed_ = current;

    for (std::uint32_t f = 0; f < trace.sources.size(); ++f) {
        const trace::SourceFile& file = trace.sources[f];
        ImGui::TextDisabled("%s", file.path.c_str());
        std::uint32_t previous = 0;
        for (const trace::SourceLine& line : file.lines) {
            if (previous != 0 && line.number > previous + 1) ImGui::TextDisabled("   ...");
            previous = line.number;
            const trace::SourceLocation here{f, line.number};
            const bool is_current = current && *current == here;
            const bool is_barrier = barrier && *barrier == here;
            if (is_current)
                ImGui::PushStyleColor(ImGuiCol_Header,
                                      ImColor(scaled(palette::kHighlight, 0.45f).u32()).Value);
            else if (is_barrier)
                ImGui::PushStyleColor(ImGuiCol_Header, ImColor(palette::kBlockRun.u32()).Value);
            char label[32];
            std::snprintf(label, sizeof label, "%4u  ", line.number);
            ImGui::PushID(static_cast<int>(f * 1000003 + line.number));
            const std::string text = label + line.text;
            if (ImGui::Selectable(text.c_str(), is_current || is_barrier)) {
                // The next instruction of the block on this line, after the cursor (wrapping).
                const std::uint32_t n = block.instruction_count();
                for (std::uint32_t k = 1; k <= n; ++k) {
                    const std::uint32_t p = (selection.cursor.done + k - 1) % n;
                    if (trace.instructions[block.instructions[p]].source == here) {
                        selection.cursor = cursor_after_instruction(block, p);
                        break;
                    }
                }
            }
            if (ImGui::IsItemHovered() && is_barrier)
                ImGui::SetTooltip("the __syncthreads() that ends this step");
            ImGui::PopID();
            if (is_current || is_barrier) ImGui::PopStyleColor();
            if (is_current && follow) ImGui::SetScrollHereY(0.4f);
        }
    }
}

} // namespace scanlab::view
