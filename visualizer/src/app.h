#pragma once

// The viewer's state and its immediate-mode UI: the loaded trace, the replay cursor, the three
// views, the side panels and the shortcuts. It draws into whatever ImGui frame is open, so the
// same code serves the window, the headless pictures and the tests.

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <imgui.h>

#include "array_view.h"
#include "bank_view.h"
#include "loaded_trace.h"
#include "playback.h"
#include "pipeline_view.h"
#include "radix_view.h"
#include "selection.h"
#include "shortcuts.h"
#include "shuffle_view.h"
#include "source_panel.h"
#include "timeline_view.h"
#include "trace_loader.h"

namespace scanlab::view {

class App {
  public:
    // Starts reading a trace in the background; the window shows that it is loading.
    void open(const std::filesystem::path& path);
    // Reads a trace now. On failure, error() says why and the previous trace stays open.
    bool open_now(const std::filesystem::path& path);
    // Files dropped on the window: the first one is opened.
    void drop(const std::vector<std::string>& paths);

    // Once a frame before drawing: takes a finished load, advances playback.
    void update(double seconds);
    // The whole interactive window.
    void draw();
    // A picture of one view, for the headless mode: a caption line and the view, no controls.
    void draw_picture(ImVec2 size);

    const LoadedTrace* loaded() const { return loaded_.get(); }
    const std::string& error() const { return error_; }
    bool loading() const { return loader_.busy(); }
    Selection& selection() { return selection_; }
    Playback& playback() { return playback_; }
    ArrayView& array_view() { return array_; }
    RadixView& radix_view() { return radix_; }
    PipelineView& pipeline_view() { return pipeline_; }
    bool help_visible() const { return show_help_; }

    // Actions, shared by buttons, shortcuts and tests.
    void next(bool by_step);
    void previous(bool by_step);
    void home();
    void end();
    void select_block(std::uint32_t position);
    // The next (direction > 0) or previous tile's look-back, on the timeline.
    void step_tile(int direction);
    void show(ViewKind view);
    void zoom(float factor);
    void fit();
    // Selects finding k: jumps to its block and instruction (or step), shows its memory object
    // and marks its cells. Returns false when the trace has no finding k.
    bool select_finding(std::uint32_t k);
    void next_finding();

  private:
    void adopt(LoadResult result);
    void handle_shortcuts();
    void run_shortcut(Action action, bool shift);
    void draw_top_bar();
    void draw_error_banner();
    void draw_summary();
    // The results against the trace's expected values, when it has them.
    void draw_expected_line();
    void draw_controls();
    void draw_views(ImVec2 size);
    void draw_side_panel(ImVec2 size);
    void draw_view(ViewKind view, ImVec2 size);
    Canvas& canvas(ViewKind view);
    const BlockIndex* block() const;

    std::unique_ptr<LoadedTrace> loaded_;
    std::string error_;
    std::string path_box_;
    bool focus_path_box_ = false;
    TraceLoader loader_;
    Selection selection_;
    Playback playback_;
    ArrayView array_;
    BankView bank_;
    TimelineView timeline_;
    ShuffleView shuffles_;
    RadixView radix_;
    PipelineView pipeline_;
    SourcePanel source_;
    bool show_help_ = false;
    bool show_legend_ = true;
    bool show_findings_ = true;
    bool select_tab_ = false;
};

} // namespace scanlab::view
