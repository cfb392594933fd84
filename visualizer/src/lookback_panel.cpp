#include "lookback_panel.h"

#include <string>

#include <imgui.h>

#include "palette.h"
#include "scanlab/trace/names.h"

namespace scanlab::view {

namespace {
std::string published(const trace::Trace& trace, std::size_t event) {
    const auto& change = std::get<trace::TileFlagChange>(trace.block_events[event].what);
    std::string text = "time " + std::to_string(trace.block_events[event].time);
    if (change.value_type != trace::ValueType::none)
        text += ", value " + trace::format_value(change.value_type,
                                                 trace::value_type_size(change.value_type),
                                                 change.value);
    return text;
}
// The prefix and P the reference gives the tile, beside the P it published (trace format 3).
void draw_expected_tile(const trace::Trace& trace, const TileLookBack& look_back) {
    const TileVerdict verdict = expected_tile_verdict(trace, look_back);
    if (verdict.text.empty()) return;
    ImGui::PushStyleColor(ImGuiCol_Text, verdict.wrong
                                             ? ImColor(palette::kWrongText.u32()).Value
                                             : ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ImGui::TextWrapped("%s", verdict.text.c_str());
    ImGui::PopStyleColor();
}
} // namespace

void draw_lookback_details(const LoadedTrace& loaded, const Selection& selection) {
    const LookbackModel& model = loaded.lookback;
    if (!selection.tile) {
        ImGui::TextDisabled("Click a tile row or a block on the timeline (or press T).");
        return;
    }
    const TileLookBack* look_back = model.look_back(*selection.tile);
    if (!look_back) {
        ImGui::TextDisabled("No block published a flag for tile %u.", *selection.tile);
        return;
    }
    const trace::Trace& trace = loaded.trace;
    ImGui::Text("Tile %u, taken by block %u", look_back->tile, look_back->block);
    if (look_back->own_a)
        ImGui::TextDisabled("published A at %s", published(trace, *look_back->own_a).c_str());
    if (!model.has_reads()) {
        ImGui::TextWrapped("This trace has no look events (recorded before trace format 2, or "
                           "without simt::trace_tile_status).");
        return;
    }
    if (look_back->reads.empty())
        ImGui::TextDisabled(look_back->tile == 0 ? "Tile 0 has no predecessors."
                                                 : "Its block read no descriptor.");
    for (const LookRead& read : look_back->reads) {
        const std::string line = "time " + std::to_string(read.time) + ": tile " +
                                 std::to_string(read.tile) + " " + read_label(read.look);
        if (read.used)
            ImGui::TextColored(ImColor(palette::kHighlight.u32()), "%s  (in the prefix)",
                               line.c_str());
        else
            ImGui::TextUnformatted(line.c_str());
    }
    if (!look_back->terms.empty() || look_back->tile > 0)
        ImGui::TextWrapped("%s%s", look_back->complete ? "prefix = " : "incomplete, so far: ",
                           look_back->terms.empty() ? "nothing"
                                                    : prefix_formula(*look_back).c_str());
    if (look_back->own_p)
        ImGui::TextDisabled("published P at %s", published(trace, *look_back->own_p).c_str());
    draw_expected_tile(trace, *look_back);
}

} // namespace scanlab::view
