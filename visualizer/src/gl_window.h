#pragma once

// A GLFW window with an OpenGL 3.3 core context and Dear ImGui on it (the GLFW and OpenGL3
// backends of Debian's libimgui-dev). Hidden windows serve the headless mode, which draws into
// an offscreen framebuffer instead.

#include <string>
#include <utility>
#include <vector>

#include <imgui.h>

struct GLFWwindow;

namespace scanlab::view {

struct WindowSettings {
    int width = 1500;
    int height = 920;
    bool visible = true;
    bool vsync = true;
    std::string title = "Scan Lab trace viewer";

    // The window of a mode that draws its frames without a person watching (a picture, a
    // benchmark): the size asked for, and no vsync to wait for.
    static WindowSettings unsynced(int width, int height, bool visible, std::string title) {
        return {.width = width,
                .height = height,
                .visible = visible,
                .vsync = false,
                .title = std::move(title)};
    }
};

class GlWindow {
  public:
    // Throws std::runtime_error when no window can be opened (no display, no OpenGL 3.3).
    explicit GlWindow(const WindowSettings& settings);
    ~GlWindow();
    GlWindow(const GlWindow&) = delete;
    GlWindow& operator=(const GlWindow&) = delete;

    GLFWwindow* handle() const { return window_; }
    bool should_close() const;
    // Processes events: waits up to `timeout` seconds for one when nothing is animating.
    void process_events(bool animating, double timeout = 0.25);
    // Starts an ImGui frame; `display_size` overrides the window's size (offscreen pictures).
    void begin_frame();
    void begin_frame(ImVec2 display_size);
    // Renders the frame into the bound framebuffer (calling ImGui::Render() unless the caller
    // did), then shows it when `swap`.
    void end_frame(bool swap = true);
    // The window's framebuffer size in pixels.
    ImVec2 framebuffer_size() const;
    // Paths dropped on the window since the last call.
    std::vector<std::string> take_dropped_paths();

  private:
    static void on_drop(GLFWwindow* window, int count, const char** paths);

    GLFWwindow* window_ = nullptr;
    std::vector<std::string> dropped_;
    int viewport_width_ = 0;
    int viewport_height_ = 0;
};

} // namespace scanlab::view
