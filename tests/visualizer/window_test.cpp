// The app in a real window (under Xvfb with Mesa): it opens traces of every kind from the command
// line path, the path box and drag-and-drop, steps through them with the keyboard, switches
// views, and survives bad files. Screenshots are checked for what must be on screen.
#include <doctest/doctest.h>

#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>

#include <chrono>
#include <fstream>
#include <thread>

#include "app.h"
#include "gl_window.h"
#include "image.h"
#include "picture.h"
#include "test_paths.h"

namespace scanlab::view::test {

namespace {

struct Harness {
    GlWindow window{WindowSettings{.width = 1400,
                                   .height = 880,
                                   .visible = true,
                                   .vsync = false,
                                   .title = "scanlab-view test"}};
    App app;

    Harness() { keep_pointer_away(); }

    // Tooltips under the X pointer would cover what the screenshots look for.
    void keep_pointer_away() { glfwSetCursorPos(window.handle(), -40, -40); }

    void frame() {
        window.process_events(true);
        app.drop(window.take_dropped_paths());
        app.update(1.0 / 60);
        window.begin_frame();
        app.draw();
        window.end_frame(true);
    }

    Picture screenshot(const std::string& name) {
        keep_pointer_away();
        frame();
        window.process_events(true);
        app.update(1.0 / 60);
        window.begin_frame();
        app.draw();
        window.end_frame(false);
        const ImVec2 size = window.framebuffer_size();
        const RgbaImage image =
            read_framebuffer(static_cast<int>(size.x), static_cast<int>(size.y));
        glfwSwapBuffers(window.handle());
        write_png(image, scratch(name));
        return from_image(image);
    }

    // Waits, drawing frames, until a background load has finished.
    void wait_for_load() {
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
        frame();
        while (app.loading() && std::chrono::steady_clock::now() < deadline) {
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
            frame();
        }
        REQUIRE(!app.loading());
        frame();
    }

    // A key press and release, with modifier keys held, as GLFW reports them.
    void key(int key, std::initializer_list<int> held = {}) {
        GLFWwindow* w = window.handle();
        for (int m : held) ImGui_ImplGlfw_KeyCallback(w, m, 0, GLFW_PRESS, 0);
        ImGui_ImplGlfw_KeyCallback(w, key, 0, GLFW_PRESS, 0);
        frame();
        ImGui_ImplGlfw_KeyCallback(w, key, 0, GLFW_RELEASE, 0);
        for (int m : held) ImGui_ImplGlfw_KeyCallback(w, m, 0, GLFW_RELEASE, 0);
        frame();
    }

    void type(const std::string& text) {
        for (char c : text) ImGui_ImplGlfw_CharCallback(window.handle(), static_cast<unsigned>(c));
        frame();
    }
};

bool have_recorded(const std::filesystem::path& path) {
    if (std::filesystem::exists(path)) return true;
    MESSAGE("skipped: " << path << " is not recorded (run the visualizer.record test first)");
    return false;
}

} // namespace

TEST_CASE("window: open a trace, step with the keyboard, see the Hillis-Steele rows") {
    Harness h;
    h.frame();
    CHECK(h.app.loaded() == nullptr);
    h.app.open(fixture("hillis_steele_16.trace.json"));
    h.wait_for_load();
    REQUIRE(h.app.loaded() != nullptr);
    CHECK(h.app.error().empty());
    const BlockIndex& block = h.app.loaded()->index.block(0);

    // A trace opens at its end; Home goes to the start, Right executes one instruction.
    CHECK(at_end(block, h.app.selection().cursor));
    h.key(GLFW_KEY_HOME);
    CHECK(h.app.selection().cursor.done == 0);
    h.key(GLFW_KEY_RIGHT);
    h.key(GLFW_KEY_RIGHT);
    CHECK(h.app.selection().cursor.done == 2);
    h.key(GLFW_KEY_LEFT);
    CHECK(h.app.selection().cursor.done == 1);
    h.key(GLFW_KEY_RIGHT, {GLFW_KEY_LEFT_SHIFT}); // to the end of step 0
    CHECK(h.app.selection().cursor.done == block.step_end(0));
    h.key(GLFW_KEY_RIGHT, {GLFW_KEY_LEFT_SHIFT});
    CHECK(h.app.selection().cursor.step == 1);
    CHECK(h.app.selection().cursor.done == block.step_end(1));
    h.key(GLFW_KEY_LEFT, {GLFW_KEY_LEFT_SHIFT});
    CHECK(h.app.selection().cursor.step == 0);

    // Two rows so far: the load and the first doubling step.
    h.key(GLFW_KEY_RIGHT, {GLFW_KEY_LEFT_SHIFT});
    const Picture early = h.screenshot("window_hs_step1.png");
    const std::vector<int> early_rows =
        cells_per_row(cell_frames(early, {palette::kCellFrame, palette::kHighlight}));
    CHECK(early_rows == std::vector<int>{16, 16});

    // Play to the end: Space starts, frames advance it.
    h.key(GLFW_KEY_SPACE);
    CHECK(h.app.playback().playing());
    h.app.playback().speed = 4096;
    for (int k = 0; k < 10 && h.app.playback().playing(); ++k) h.frame();
    CHECK(!h.app.playback().playing());
    CHECK(at_end(block, h.app.selection().cursor));
    const Picture done = h.screenshot("window_hs_end.png");
    CHECK(cells_per_row(cell_frames(done, {palette::kCellFrame, palette::kHighlight})) ==
          std::vector<int>{16, 16, 16, 16, 16});

    // Zoom keys change the array view's zoom; 0 fits again.
    const float zoom = h.app.array_view().canvas().zoom();
    h.key(GLFW_KEY_EQUAL);
    CHECK(h.app.array_view().canvas().zoom() > zoom);
    h.key(GLFW_KEY_MINUS);
    h.key(GLFW_KEY_MINUS);
    CHECK(h.app.array_view().canvas().zoom() < zoom);
    h.key(GLFW_KEY_0);
    CHECK(h.app.array_view().canvas().zoom() == doctest::Approx(1.0));

    // The other views and the help panel.
    h.key(GLFW_KEY_2);
    CHECK(h.app.selection().view == ViewKind::bank);
    h.key(GLFW_KEY_3);
    CHECK(h.app.selection().view == ViewKind::timeline);
    const Picture timeline = h.screenshot("window_hs_timeline.png");
    CHECK(count_colour(timeline, palette::kBlockSelected) > 500);
    h.key(GLFW_KEY_H);
    CHECK(h.app.help_visible());
    h.screenshot("window_help.png");
    h.key(GLFW_KEY_H);
    CHECK(!h.app.help_visible());
    h.key(GLFW_KEY_W);
    CHECK(h.app.selection().colour_by_warp);
}

TEST_CASE("window: T and Shift+T walk the tiles' look-backs; the overlay and panel show them") {
    Harness h;
    REQUIRE(h.app.open_now(fixture("lookback_4_blocks.trace.json")));
    h.frame();
    CHECK_FALSE(h.app.selection().tile.has_value());
    h.key(GLFW_KEY_T);
    CHECK(h.app.selection().view == ViewKind::timeline);
    CHECK(h.app.selection().tile == 0u);
    h.key(GLFW_KEY_T);
    CHECK(h.app.selection().tile == 1u);
    // Tile 1 was taken by block 1, a recorded block: it is selected with the tile.
    CHECK(h.app.loaded()->index.block(h.app.selection().block).block == 1);
    const Picture tile1 = h.screenshot("window_lookback_tile1.png");
    CHECK(count_colour(tile1, palette::kLookX) > 10); // it polled tile 0 while X
    CHECK(count_colour(tile1, palette::kLookP) > 10); // then found its P
    h.key(GLFW_KEY_T, {GLFW_KEY_LEFT_SHIFT});
    CHECK(h.app.selection().tile == 0u);
    h.key(GLFW_KEY_T, {GLFW_KEY_LEFT_SHIFT}); // wraps around to the last tile
    CHECK(h.app.selection().tile == 3u);
    const Picture tile3 = h.screenshot("window_lookback_tile3.png");
    CHECK(count_colour(tile3, palette::kLookA) > 10);
    CHECK(count_colour(tile3, palette::kLookX) == 0);
}

TEST_CASE("window: a bad or truncated trace shows an error in the window, not a crash") {
    Harness h;
    const auto truncated = scratch("truncated.trace.json");
    {
        std::ifstream in(fixture("lookback_4_blocks.trace.json"));
        std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        std::ofstream(truncated) << text.substr(0, text.size() / 2);
    }
    const auto not_json = scratch("not_json.trace.json");
    std::ofstream(not_json) << "this is not a trace\n";

    for (const auto& bad : {truncated, not_json, scratch("missing.trace.json")}) {
        CAPTURE(bad);
        h.app.open(bad);
        h.wait_for_load();
        CHECK(h.app.loaded() == nullptr);
        CHECK(h.app.error().find(bad.filename().string()) != std::string::npos);
        // Keys on an empty window do nothing harmful.
        h.key(GLFW_KEY_RIGHT);
        h.key(GLFW_KEY_SPACE);
        const Picture picture = h.screenshot("window_error.png");
        CHECK(count_colour(picture, palette::kErrorBackground) > 2000);
    }
    CHECK(h.app.error().find("missing.trace.json") != std::string::npos);

    // A good trace afterwards opens and clears the error; a bad one then keeps it open.
    h.app.open(fixture("bank_patterns.trace.json"));
    h.wait_for_load();
    REQUIRE(h.app.loaded() != nullptr);
    CHECK(h.app.error().empty());
    h.app.open(truncated);
    h.wait_for_load();
    CHECK(h.app.loaded() != nullptr);
    CHECK(!h.app.error().empty());
    CHECK(count_colour(h.screenshot("window_error_over_trace.png"), palette::kErrorBackground) >
          2000);
}

TEST_CASE("window: the path box and drag-and-drop open traces") {
    Harness h;
    h.frame();
    // Ctrl+O focuses the path box; type a path, press Enter.
    h.key(GLFW_KEY_O, {GLFW_KEY_LEFT_CONTROL});
    h.key(GLFW_KEY_A, {GLFW_KEY_LEFT_CONTROL}); // select what is there
    h.type(fixture("bank_patterns.trace.json").string());
    h.key(GLFW_KEY_ENTER);
    h.wait_for_load();
    REQUIRE(h.app.loaded() != nullptr);
    CHECK(h.app.loaded()->trace.launch.kernel == "bank_patterns");

    // A file dropped on the window, through GLFW's drop callback.
    GLFWdropfun drop = glfwSetDropCallback(h.window.handle(), nullptr);
    glfwSetDropCallback(h.window.handle(), drop);
    REQUIRE(static_cast<bool>(drop));
    const std::string path = fixture("lookback_4_blocks.trace.json").string();
    const char* paths[] = {path.c_str()};
    drop(h.window.handle(), 1, paths);
    h.wait_for_load();
    REQUIRE(h.app.loaded() != nullptr);
    CHECK(h.app.loaded()->trace.launch.kernel == "lookback_scan");

    // Its timeline shows the tile flags; Down moves to the next block.
    h.key(GLFW_KEY_3);
    const Picture flags = h.screenshot("window_lookback_timeline.png");
    CHECK(count_colour(flags, palette::kFlagA) > 100);
    CHECK(count_colour(flags, palette::kFlagP) > 100);
    CHECK(count_colour(flags, palette::kFlagX) > 100);
    const std::uint32_t before = h.app.selection().block;
    h.key(GLFW_KEY_DOWN);
    CHECK(h.app.selection().block == before + 1);
}

TEST_CASE("window: every kind of trace opens and replays in every view") {
    std::vector<std::filesystem::path> traces = {fixture("hillis_steele_16.trace.json"),
                                                 fixture("bank_patterns.trace.json"),
                                                 fixture("lookback_4_blocks.trace.json")};
    for (const char* name :
         {"hillis_steele_16.trace.json", "blelloch_256.trace.json", "blelloch_256.trace.1.json",
          "lookback_scan.trace.json", "lookback_spin.trace.json"})
        if (have_recorded(recorded(name))) traces.push_back(recorded(name));
    Harness h;
    for (const auto& path : traces) {
        CAPTURE(path);
        h.app.open(path);
        h.wait_for_load();
        REQUIRE(h.app.loaded() != nullptr);
        for (int view : {GLFW_KEY_1, GLFW_KEY_2, GLFW_KEY_3}) {
            h.key(view);
            h.key(GLFW_KEY_HOME);
            for (int k = 0; k < 3; ++k) h.key(GLFW_KEY_RIGHT);
            h.key(GLFW_KEY_RIGHT, {GLFW_KEY_LEFT_SHIFT});
            h.key(GLFW_KEY_END);
            h.key(GLFW_KEY_LEFT, {GLFW_KEY_LEFT_SHIFT});
            h.key(GLFW_KEY_DOWN);
        }
        CHECK(h.app.error().empty());
        const Picture picture = h.screenshot("window_" + path.filename().string() + ".png");
        CHECK(count_colour(picture, palette::kBackground) > 1000);
    }
}

TEST_CASE("window: a lab 09 pass shows in the radix tab; another lab's trace has no such tab") {
    const auto pass = recorded("lab09.trace.4.json");
    if (!have_recorded(pass)) return;
    Harness h;
    h.app.open(pass);
    h.wait_for_load();
    REQUIRE(h.app.loaded() != nullptr);
    h.app.show(ViewKind::radix);
    const Picture picture = h.screenshot("window_lab09_radix.png");
    CHECK(h.app.selection().view == ViewKind::radix);
    const RadixPassModel* model = h.app.radix_view().model(*h.app.loaded(), h.app.selection());
    REQUIRE(model != nullptr);
    CHECK(model->shift == 16);
    CHECK(count_colour(picture, digit_colour(model->keys.front().digit)) > 0);
    // Another lab's trace: no radix tab, the view falls back to another one.
    h.app.open(fixture("hillis_steele_16.trace.json"));
    h.wait_for_load();
    h.screenshot("window_not_radix.png");
    CHECK(h.app.selection().view != ViewKind::radix);
    CHECK(h.app.error().empty());
}

} // namespace scanlab::view::test
