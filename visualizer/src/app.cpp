#include "app.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <utility>

#include <imgui_stdlib.h>

#include "details_panel.h"
#include "finding_marks.h"
#include "findings_panel.h"
#include "help_panel.h"
#include "keys.h"
#include "legend_panel.h"
#include "lookback_panel.h"
#include "palette.h"
#include "scanlab/trace/names.h"
#include "tile_selection.h"
#include "trace_text.h"

namespace scanlab::view {

namespace {

constexpr float kSidePanelWidth = 400.0f;

const char* view_name(ViewKind view) {
    switch (view) {
    case ViewKind::array:
        return "Array";
    case ViewKind::bank:
        return "Banks";
    case ViewKind::timeline:
        return "Timeline";
    case ViewKind::shuffles:
        return "Shuffles";
    case ViewKind::radix:
        return "Radix pass";
    case ViewKind::pipeline:
        return "Pipeline";
    }
    return "?";
}

std::string dims(const trace::Dim3& d) {
    if (d.y == 1 && d.z == 1) return std::to_string(d.x);
    return "(" + std::to_string(d.x) + ", " + std::to_string(d.y) + ", " + std::to_string(d.z) +
           ")";
}

// A button of the playback row with its tooltip (what it does, its key); the next item follows
// on the same line.
bool transport_button(const char* label, const char* tooltip, ImVec2 size = {0, 0}) {
    const bool pressed = ImGui::Button(label, size);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tooltip);
    ImGui::SameLine();
    return pressed;
}

} // namespace

void App::open(const std::filesystem::path& path) {
    path_box_ = path.string();
    playback_.pause();
    loader_.start(path);
}

bool App::open_now(const std::filesystem::path& path) {
    path_box_ = path.string();
    adopt(load_trace_result(path));
    return error_.empty();
}

void App::drop(const std::vector<std::string>& paths) {
    if (!paths.empty()) open(paths.front());
}

void App::adopt(LoadResult result) {
    if (!result.trace) {
        error_ = "Cannot open " + result.path.string() + ": " + result.error;
        return;
    }
    error_.clear();
    loaded_ = std::move(result.trace);
    Selection fresh;
    fresh.view = selection_.view;
    fresh.colour_by_warp = selection_.colour_by_warp;
    selection_ = fresh;
    playback_.pause();
    if (!loaded_->index.blocks().empty()) selection_.cursor = cursor_end(*block());
    array_.canvas().reset();
    bank_.canvas().reset();
    timeline_.canvas().reset();
    shuffles_.canvas().reset();
    radix_.canvas().reset();
    pipeline_.canvas().reset();
}

const BlockIndex* App::block() const {
    if (!loaded_ || loaded_->index.blocks().empty()) return nullptr;
    return &loaded_->index.block(selection_.block);
}

void App::update(double seconds) {
    if (auto result = loader_.poll()) adopt(std::move(*result));
    if (const BlockIndex* b = block()) playback_.advance(*b, selection_.cursor, seconds);
}

void App::next(bool by_step) {
    playback_.pause();
    if (const BlockIndex* b = block())
        selection_.cursor =
            by_step ? next_step(*b, selection_.cursor) : next_instruction(*b, selection_.cursor);
}

void App::previous(bool by_step) {
    playback_.pause();
    if (const BlockIndex* b = block())
        selection_.cursor = by_step ? previous_step(*b, selection_.cursor)
                                    : previous_instruction(*b, selection_.cursor);
}

void App::home() {
    playback_.pause();
    if (const BlockIndex* b = block()) selection_.cursor = cursor_start(*b);
}

void App::end() {
    playback_.pause();
    if (const BlockIndex* b = block()) selection_.cursor = cursor_end(*b);
}

void App::select_block(std::uint32_t position) {
    if (!loaded_ || position >= loaded_->index.blocks().size() || position == selection_.block)
        return;
    // Keep the place in time: the new block's instructions up to the current time.
    std::uint64_t time = 0;
    const BlockIndex& old = *block();
    if (selection_.cursor.instruction() >= 0)
        time = loaded_->trace
                   .instructions[old.instructions[static_cast<std::size_t>(
                       selection_.cursor.instruction())]]
                   .time;
    const bool was_at_end = at_end(old, selection_.cursor);
    selection_.block = position;
    const BlockIndex& now = *block();
    if (was_at_end) {
        selection_.cursor = cursor_end(now);
        return;
    }
    std::uint32_t done = 0;
    while (done < now.instruction_count() &&
           loaded_->trace.instructions[now.instructions[done]].time <= time)
        ++done;
    selection_.cursor = cursor_with_done(now, done);
}

void App::step_tile(int direction) {
    if (!loaded_) return;
    const auto tile = neighbour_tile(*loaded_, selection_.tile, direction);
    if (!tile) return;
    playback_.pause();
    select_tile(*loaded_, selection_, *tile);
    show(ViewKind::timeline);
}

void App::show(ViewKind view) {
    selection_.view = view;
    select_tab_ = true;
}

Canvas& App::canvas(ViewKind view) {
    switch (view) {
    case ViewKind::array:
        return array_.canvas();
    case ViewKind::bank:
        return bank_.canvas();
    case ViewKind::timeline:
        return timeline_.canvas();
    case ViewKind::shuffles:
        return shuffles_.canvas();
    case ViewKind::radix:
        return radix_.canvas();
    case ViewKind::pipeline:
        return pipeline_.canvas();
    }
    return array_.canvas();
}

void App::zoom(float factor) {
    canvas(selection_.view).zoom_by(factor);
}

void App::fit() {
    canvas(selection_.view).reset();
}

bool App::select_finding(std::uint32_t k) {
    if (!loaded_ || k >= loaded_->trace.findings.size()) return false;
    playback_.pause();
    selection_.finding = k;
    const auto target = finding_target(loaded_->trace, loaded_->index, k);
    if (!target) return true; // none of its blocks was recorded: the report text alone
    selection_.block = target->block;
    selection_.cursor = target->cursor;
    // The array view shows the memory object of its first access in that block.
    const std::uint32_t linear = loaded_->index.block(target->block).block;
    for (const trace::FindingAccess& access : loaded_->trace.findings[k].accesses)
        if (access.block == linear && access.memory) {
            selection_.object = *access.memory;
            break;
        }
    return true;
}

void App::next_finding() {
    if (!loaded_ || loaded_->trace.findings.empty()) return;
    const auto count = static_cast<std::uint32_t>(loaded_->trace.findings.size());
    select_finding(selection_.finding ? (*selection_.finding + 1) % count : 0);
}

void App::handle_shortcuts() {
    const ImGuiIO& io = ImGui::GetIO();
    for (const Shortcut& shortcut : shortcuts()) {
        // Ctrl shortcuts work while typing; the others neither then nor with a modifier other
        // than Shift (which some of them read).
        if (shortcut.with_ctrl != io.KeyCtrl) continue;
        if (!shortcut.with_ctrl && (io.WantTextInput || io.KeyAlt)) continue;
        if (shortcut.needs_trace && !loaded_) continue;
        for (const Binding& binding : shortcut.bindings)
            if (key_pressed(binding.key)) run_shortcut(binding.action, io.KeyShift);
    }
}

void App::run_shortcut(Action action, bool shift) {
    switch (action) {
    case Action::none:
        return;
    case Action::play_pause:
        return playback_.toggle();
    case Action::next:
        return next(shift);
    case Action::previous:
        return previous(shift);
    case Action::block_start:
        return home();
    case Action::block_end:
        return end();
    case Action::previous_block:
        if (selection_.block > 0) select_block(selection_.block - 1);
        return;
    case Action::next_block:
        return select_block(selection_.block + 1);
    case Action::zoom_in:
        return zoom(1.25f);
    case Action::zoom_out:
        return zoom(0.8f);
    case Action::fit:
        return fit();
    case Action::array_view:
        return show(ViewKind::array);
    case Action::bank_view:
        return show(ViewKind::bank);
    case Action::timeline_view:
        return show(ViewKind::timeline);
    case Action::colour_by_warp:
        selection_.colour_by_warp = !selection_.colour_by_warp;
        return;
    case Action::next_tile:
        return step_tile(shift ? -1 : 1);
    case Action::next_finding:
        return next_finding();
    case Action::slower:
        playback_.speed = std::max(0.25f, playback_.speed / 2);
        return;
    case Action::faster:
        playback_.speed = std::min(4096.0f, playback_.speed * 2);
        return;
    case Action::toggle_legend:
        show_legend_ = !show_legend_;
        return;
    case Action::toggle_help:
        show_help_ = !show_help_;
        return;
    case Action::open_path:
        focus_path_box_ = true;
        return;
    }
}

void App::draw() {
    const ImGuiViewport* viewport = ImGui::GetMainViewport();
    ImGui::SetNextWindowPos(viewport->WorkPos);
    ImGui::SetNextWindowSize(viewport->WorkSize);
    ImGui::Begin("Scan Lab trace viewer", nullptr,
                 ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                     ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoBringToFrontOnFocus);
    handle_shortcuts();
    draw_top_bar();
    draw_error_banner();
    if (loaded_ && block()) {
        draw_summary();
        draw_controls();
        const ImVec2 area = ImGui::GetContentRegionAvail();
        const float side = std::min(kSidePanelWidth, area.x * 0.4f);
        draw_views({area.x - side - 8, area.y});
        ImGui::SameLine();
        draw_side_panel({side, area.y});
    } else if (loaded_) {
        draw_summary();
        ImGui::TextDisabled("This trace recorded no block's steps or instructions.");
    } else if (!loader_.busy()) {
        ImGui::Spacing();
        ImGui::TextWrapped("Drop a trace file (*.trace.json) on this window, or type its path "
                           "above and press Enter. Record one from any CUDA program built with "
                           "simtcc: SIMT_TRACE=out.trace.json ./program. Press H for help.");
    }
    ImGui::End();
    if (show_help_) draw_help(&show_help_);
}

void App::draw_top_bar() {
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted("Trace");
    ImGui::SameLine();
    if (focus_path_box_) {
        ImGui::SetKeyboardFocusHere();
        focus_path_box_ = false;
    }
    ImGui::SetNextItemWidth(std::max(200.0f, ImGui::GetContentRegionAvail().x - 330));
    const bool entered = ImGui::InputTextWithHint("##path", "path to a .trace.json file",
                                                  &path_box_, ImGuiInputTextFlags_EnterReturnsTrue);
    ImGui::SameLine();
    if ((ImGui::Button("Open") || entered) && !path_box_.empty()) open(path_box_);
    ImGui::SameLine();
    if (loader_.busy()) {
        const char* dots[] = {".", "..", "..."};
        ImGui::TextColored(ImColor(palette::kHighlight.u32()), "reading%s",
                           dots[static_cast<int>(ImGui::GetTime() * 3) % 3]);
    } else {
        ImGui::TextDisabled("(or drop a file here)");
    }
    ImGui::SameLine(ImGui::GetWindowContentRegionMax().x - 60);
    if (ImGui::Button("Help")) show_help_ = !show_help_;
}

void App::draw_error_banner() {
    if (error_.empty()) return;
    ImGui::PushStyleColor(ImGuiCol_ChildBg, ImColor(palette::kErrorBackground.u32()).Value);
    const float height = ImGui::GetTextLineHeightWithSpacing() * 3 + 12;
    ImGui::BeginChild("error", {0, height}, true);
    ImGui::PushTextWrapPos(ImGui::GetContentRegionAvail().x - 80);
    ImGui::TextUnformatted(error_.c_str());
    ImGui::PopTextWrapPos();
    ImGui::SameLine(ImGui::GetContentRegionAvail().x - 70);
    if (ImGui::Button("Dismiss")) error_.clear();
    ImGui::EndChild();
    ImGui::PopStyleColor();
}

void App::draw_summary() {
    const trace::Trace& trace = loaded_->trace;
    const trace::LaunchInfo& launch = trace.launch;
    ImGui::Text("%s  <<<%s, %s>>>  %s, %s, seed %llu", short_kernel_name(launch.kernel).c_str(),
                dims(launch.grid).c_str(), dims(launch.block).c_str(),
                std::string(trace::to_string(launch.mode)).c_str(),
                std::string(trace::to_string(launch.dispatch)).c_str(),
                static_cast<unsigned long long>(launch.seed));
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", launch.kernel.c_str());
    ImGui::SameLine();
    ImGui::TextDisabled("| %zu block%s recorded, %s warp instructions, %llu shared conflicts",
                        loaded_->index.blocks().size(),
                        loaded_->index.blocks().size() == 1 ? "" : "s",
                        compact_count(trace.instructions.size()).c_str(),
                        static_cast<unsigned long long>(loaded_->analysis.launch.all().conflicts));
    if (!trace.findings.empty())
        ImGui::TextColored(ImColor(palette::kFindingText.u32()),
                           "%zu finding(s): the emulator's checks say this kernel is not correct "
                           "(see Findings; F jumps to the next)",
                           trace.findings.size());
    draw_expected_line();
    if (trace.truncated)
        ImGui::TextColored(ImColor(palette::kFlagA.u32()), "Truncated (%s = %llu): %s",
                           std::string(trace::to_string(trace.truncated->limit)).c_str(),
                           static_cast<unsigned long long>(trace.truncated->value),
                           trace.truncated->message.c_str());
}

void App::draw_expected_line() {
    const ExpectedMarks& expected = loaded_->expected;
    if (!expected.has_expected()) return;
    const std::string line = expected.summary(loaded_->trace);
    const bool wrong = !expected.check().elements.empty() || !expected.check().tiles.empty();
    ImGui::PushStyleColor(ImGuiCol_Text, wrong ? ImColor(palette::kWrongText.u32()).Value
                                               : ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ImGui::TextWrapped("Results: %s%s", line.c_str(), wrong ? " (framed in red)" : "");
    ImGui::PopStyleColor();
}

void App::draw_controls() {
    const BlockIndex& b = *block();
    if (transport_button("|<", "start (Home)")) home();
    if (transport_button("<<", "previous step (Shift+Left)")) previous(true);
    if (transport_button("<", "previous instruction (Left)")) previous(false);
    if (transport_button(playback_.playing() ? "Pause" : "Play", "play / pause (Space)", {56, 0})) {
        if (!playback_.playing() && at_end(b, selection_.cursor)) home();
        playback_.toggle();
    }
    if (transport_button(">", "next instruction (Right)")) next(false);
    if (transport_button(">>", "next step (Shift+Right)")) next(true);
    if (transport_button(">|", "end (End)")) end();
    int done = static_cast<int>(selection_.cursor.done);
    ImGui::SetNextItemWidth(std::clamp(ImGui::GetContentRegionAvail().x - 620, 120.0f, 600.0f));
    char format[64];
    std::snprintf(format, sizeof format, "%%d / %u done, step %u", b.instruction_count(),
                  selection_.cursor.step);
    if (ImGui::SliderInt("##scrub", &done, 0, static_cast<int>(b.instruction_count()), format)) {
        playback_.pause();
        selection_.cursor = cursor_with_done(b, static_cast<std::uint32_t>(done));
    }
    ImGui::SameLine();
    ImGui::SetNextItemWidth(110);
    ImGui::SliderFloat("##speed", &playback_.speed, 0.25f, 4096.0f, "%.1f / s",
                       ImGuiSliderFlags_Logarithmic);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("playback speed ([ and ])");
    ImGui::SameLine();
    int unit = playback_.unit == PlayUnit::instruction ? 0 : 1;
    ImGui::SetNextItemWidth(110);
    if (ImGui::Combo("##unit", &unit, "instructions\0steps\0"))
        playback_.unit = unit == 0 ? PlayUnit::instruction : PlayUnit::step;
    ImGui::SameLine();
    int shown_block = static_cast<int>(b.block);
    ImGui::SetNextItemWidth(100);
    if (ImGui::InputInt("Block", &shown_block, 1, 10, ImGuiInputTextFlags_EnterReturnsTrue) ||
        (ImGui::IsItemDeactivatedAfterEdit())) {
        // The recorded block nearest to the one asked for.
        const auto& blocks = loaded_->index.blocks();
        auto it = std::lower_bound(
            blocks.begin(), blocks.end(), shown_block,
            [](const BlockIndex& x, int v) { return static_cast<int>(x.block) < v; });
        if (it == blocks.end()) --it;
        select_block(static_cast<std::uint32_t>(it - blocks.begin()));
    }
    ImGui::SameLine();
    ImGui::Checkbox("by warp", &selection_.colour_by_warp);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("colour by warp instead of thread (W)");
}

void App::draw_views(ImVec2 size) {
    ImGui::BeginChild("views", size);
    if (ImGui::BeginTabBar("view-tabs")) {
        for (ViewKind view : {ViewKind::array, ViewKind::bank, ViewKind::timeline,
                              ViewKind::shuffles, ViewKind::radix, ViewKind::pipeline}) {
            // The shuffle view only where the trace has shuffles (format 3), the radix view only
            // for lab 09's one-sweep pass, the pipeline view where it has mbarriers (format 4).
            if (view == ViewKind::shuffles && loaded_->trace.shuffles.empty()) continue;
            if (view == ViewKind::radix && !is_radix_pass(loaded_->trace)) continue;
            if (view == ViewKind::pipeline && !has_pipeline(loaded_->trace)) continue;
            const ImGuiTabItemFlags flags =
                select_tab_ && selection_.view == view ? ImGuiTabItemFlags_SetSelected : 0;
            if (ImGui::BeginTabItem(view_name(view), nullptr, flags)) {
                if (!select_tab_) selection_.view = view;
                if (view == ViewKind::array) array_.draw_controls(*loaded_, selection_);
                if (view == ViewKind::timeline) {
                    ImGui::TextDisabled(
                        "%u rows (%s), %zu waits, %zu tiles with flags",
                        loaded_->timeline.row_count(),
                        loaded_->timeline.rows_are_slots() ? "resident slots" : "blocks",
                        loaded_->timeline.waits().size(), loaded_->timeline.tiles().size());
                }
                draw_view(view, ImGui::GetContentRegionAvail());
                ImGui::EndTabItem();
            }
        }
        select_tab_ = false;
        ImGui::EndTabBar();
    }
    ImGui::EndChild();
}

void App::draw_view(ViewKind view, ImVec2 size) {
    switch (view) {
    case ViewKind::array:
        array_.draw(*loaded_, selection_, size);
        break;
    case ViewKind::bank:
        bank_.draw(*loaded_, selection_, size);
        break;
    case ViewKind::timeline:
        timeline_.draw(*loaded_, selection_, size);
        break;
    case ViewKind::shuffles:
        shuffles_.draw(*loaded_, selection_, size);
        break;
    case ViewKind::radix:
        radix_.draw(*loaded_, selection_, size);
        break;
    case ViewKind::pipeline:
        pipeline_.draw(*loaded_, selection_, size);
        break;
    }
}

void App::draw_side_panel(ImVec2 size) {
    ImGui::BeginChild("side", size);
    if (ImGui::CollapsingHeader("Position", ImGuiTreeNodeFlags_DefaultOpen))
        draw_details(*loaded_, selection_);
    if (!loaded_->lookback.tiles().empty() &&
        ImGui::CollapsingHeader("Look-back", ImGuiTreeNodeFlags_DefaultOpen))
        draw_lookback_details(*loaded_, selection_);
    const std::string findings_title =
        "Findings (" + std::to_string(loaded_->trace.findings.size()) + ")###findings";
    if (ImGui::CollapsingHeader(findings_title.c_str(), ImGuiTreeNodeFlags_DefaultOpen))
        if (const auto chosen = draw_findings(*loaded_, selection_)) select_finding(*chosen);
    const float legend_height = show_legend_ ? 420.0f : 0.0f;
    if (ImGui::CollapsingHeader("Source", ImGuiTreeNodeFlags_DefaultOpen)) {
        ImGui::BeginChild(
            "source", {0, std::max(120.0f, ImGui::GetContentRegionAvail().y - legend_height - 30)},
            true, ImGuiWindowFlags_HorizontalScrollbar);
        source_.draw(*loaded_, selection_);
        ImGui::EndChild();
    }
    if (show_legend_ && ImGui::CollapsingHeader("Legend", ImGuiTreeNodeFlags_DefaultOpen))
        draw_legend(selection_);
    ImGui::EndChild();
}

void App::draw_picture(ImVec2 size) {
    ImGui::SetNextWindowPos({0, 0});
    ImGui::SetNextWindowSize(size);
    ImGui::Begin("picture", nullptr,
                 ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                     ImGuiWindowFlags_NoSavedSettings);
    draw_error_banner();
    if (loaded_ && block()) {
        const trace::Trace& trace = loaded_->trace;
        const BlockIndex& b = *block();
        std::string caption = short_kernel_name(trace.launch.kernel) + "  <<<" +
                              dims(trace.launch.grid) + ", " + dims(trace.launch.block) +
                              ">>>   block " + std::to_string(b.block) + ", step " +
                              std::to_string(selection_.cursor.step) + " (of 0-" +
                              std::to_string(b.step_count() - 1) + ")";
        if (selection_.view == ViewKind::array && selection_.object)
            caption += ",  " + object_label(trace.memory[*selection_.object]);
        if (selection_.view == ViewKind::timeline && selection_.tile)
            caption += ",  look-back of tile " + std::to_string(*selection_.tile);
        if (selection_.view == ViewKind::radix)
            if (const RadixPassModel* model = radix_.model(*loaded_, selection_))
                caption += ",  tile " + std::to_string(model->tile) + ", digit bits " +
                           std::to_string(model->shift) + ".." + std::to_string(model->shift + 7);
        ImGui::TextUnformatted(caption.c_str());
        if (selection_.finding && *selection_.finding < trace.findings.size()) {
            const std::string line = "finding " + std::to_string(*selection_.finding) + ": " +
                                     finding_headline(trace.findings[*selection_.finding]);
            ImGui::TextColored(ImColor(palette::kFindingText.u32()), "%s", line.c_str());
        } else if (!trace.findings.empty()) {
            ImGui::TextColored(ImColor(palette::kFindingText.u32()),
                               "%zu finding(s): this kernel is not correct (--finding K shows one)",
                               trace.findings.size());
        }
        // Only a wrong result earns a caption line: lesson pictures of correct kernels stay as
        // they were.
        const trace::ExpectedCheck& check = loaded_->expected.check();
        if (!check.elements.empty() || !check.tiles.empty()) draw_expected_line();
        draw_view(selection_.view, ImGui::GetContentRegionAvail());
    }
    ImGui::End();
}

} // namespace scanlab::view
