#include "details_panel.h"

#include <string>

#include <imgui.h>

#include "finding_marks.h"
#include "palette.h"
#include "scanlab/trace/names.h"
#include "trace_text.h"

namespace scanlab::view {

void draw_details(const LoadedTrace& loaded, const Selection& selection) {
    const trace::Trace& trace = loaded.trace;
    const BlockIndex& block = loaded.index.block(selection.block);
    const Cursor cursor = selection.cursor;

    ImGui::Text("Block %u: step %u of %u, instruction %u of %u", block.block, cursor.step,
                block.step_count(), cursor.done, block.instruction_count());
    if (block.step_count() > 0) {
        const std::uint32_t global_step = block.steps[cursor.step];
        const auto& step = trace.steps[global_step];
        if (step.barrier)
            ImGui::TextDisabled("step %u ends at the __syncthreads() on %s", cursor.step,
                                location_label(trace, *step.barrier).c_str());
        else
            ImGui::TextDisabled("step %u ends when the block exits", cursor.step);
        const auto& totals = loaded.analysis.steps[global_step];
        if (totals.all().instructions > 0)
            ImGui::TextDisabled("shared memory in this step: %llu instructions, %llu conflicts",
                                static_cast<unsigned long long>(totals.all().instructions),
                                static_cast<unsigned long long>(totals.all().conflicts));
    }
    ImGui::Separator();
    if (cursor.instruction() < 0) {
        ImGui::TextDisabled("No instruction executed yet (press Right).");
        return;
    }
    const std::uint64_t global = block.instructions[static_cast<std::size_t>(cursor.instruction())];
    const auto& instruction = trace.instructions[global];
    ImGui::Text("Instruction #%llu at time %llu, warp %u", static_cast<unsigned long long>(global),
                static_cast<unsigned long long>(instruction.time), instruction.warp);
    ImGui::Text("%s %s, %u B per lane, %zu lane%s",
                std::string(trace::to_string(instruction.kind)).c_str(),
                object_label(trace.memory[instruction.memory]).c_str(), instruction.width,
                instruction.lanes.size(), instruction.lanes.size() == 1 ? "" : "s");
    ImGui::TextWrapped("%s: %s", location_label(trace, instruction.source).c_str(),
                       source_line_text(trace, instruction.source).c_str());
    if (const auto& conflicts = loaded.analysis.instructions[global]) {
        if (conflicts->conflicts == 0)
            ImGui::Text("banks: %u wavefront%s, no conflict", conflicts->wavefronts,
                        conflicts->wavefronts == 1 ? "" : "s");
        else
            ImGui::TextColored(
                ImColor(palette::kHeatHot.u32()), "banks: %u wavefronts (ideal %u), %u conflicts",
                conflicts->wavefronts, conflicts->ideal_wavefronts, conflicts->conflicts);
    }
    // The lanes of this instruction that the selected finding involves.
    if (selection.finding)
        for (const FindingMark& mark : finding_marks(trace, *selection.finding))
            if (mark.instruction == global)
                ImGui::TextColored(ImColor(palette::kFindingText.u32()),
                                   "finding %u: lane %u (thread %u, warp %u)", *selection.finding,
                                   mark.thread % trace::kWarpSize, mark.thread,
                                   mark.thread / trace::kWarpSize);
    // The lanes of this store that left a wrong final value (traces with expected values): the
    // first of them, expected beside actual.
    for (const trace::ElementDifference& d : loaded.expected.check().elements) {
        if (d.instruction != global) continue;
        const trace::ValueType type = trace.expected->value_type;
        const std::uint32_t size = trace::value_type_size(type);
        std::size_t lanes = 0;
        for (const trace::ElementDifference& other : loaded.expected.check().elements)
            lanes += other.instruction == global;
        ImGui::PushStyleColor(ImGuiCol_Text, ImColor(palette::kWrongText.u32()).Value);
        ImGui::TextWrapped("%zu value%s it stored stay%s wrong: lane %u wrote %s[%llu] = %s, "
                           "expected %s",
                           lanes, lanes == 1 ? "" : "s", lanes == 1 ? "s" : "",
                           instruction.lanes[d.lane].lane, trace.memory[d.memory].name.c_str(),
                           static_cast<unsigned long long>(d.element),
                           trace::format_value(type, size, d.actual).c_str(),
                           trace::format_value(type, size, d.expected).c_str());
        ImGui::PopStyleColor();
        break;
    }
    if (!instruction.lanes.empty()) {
        const auto& lane = instruction.lanes.front();
        ImGui::TextDisabled(
            "lane %u (thread %u): offset %llu, value %s", lane.lane, lane.thread,
            static_cast<unsigned long long>(lane.offset),
            trace::format_value(instruction.value_type, instruction.width, lane.value).c_str());
    }
}

} // namespace scanlab::view
