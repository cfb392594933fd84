#include "gl_window.h"

#include <cstdio>
#include <filesystem>
#include <stdexcept>

#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui_internal.h>

#include "palette.h"

namespace scanlab::view {

namespace {

std::string last_glfw_error;

void on_glfw_error(int, const char* description) {
    last_glfw_error = description;
}

// A font with the glyphs the views use, when the system has it (Debian: fonts-dejavu-core);
// otherwise Dear ImGui's built-in one.
void load_fonts() {
    ImGuiIO& io = ImGui::GetIO();
    const char* candidates[] = {"/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf",
                                "/usr/share/fonts/TTF/DejaVuSansMono.ttf"};
    for (const char* path : candidates) {
        std::error_code error;
        if (std::filesystem::exists(path, error) &&
            io.Fonts->AddFontFromFileTTF(path, 14.0f) != nullptr)
            return;
    }
    io.Fonts->AddFontDefault();
}

void apply_style() {
    ImGui::StyleColorsDark();
    ImGuiStyle& style = ImGui::GetStyle();
    style.WindowRounding = 0;
    style.FrameRounding = 2;
    style.ItemSpacing = {8, 5};
    style.Colors[ImGuiCol_WindowBg] = ImColor(palette::kPanel.u32());
    style.Colors[ImGuiCol_ChildBg] = ImColor(palette::kPanel.u32());
}

} // namespace

GlWindow::GlWindow(const WindowSettings& settings) {
    glfwSetErrorCallback(on_glfw_error);
    if (!glfwInit())
        throw std::runtime_error("cannot open a window: " + last_glfw_error +
                                 " (is DISPLAY set? headless: run under xvfb-run)");
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
    glfwWindowHint(GLFW_VISIBLE, settings.visible ? GLFW_TRUE : GLFW_FALSE);
    window_ =
        glfwCreateWindow(settings.width, settings.height, settings.title.c_str(), nullptr, nullptr);
    if (!window_) {
        glfwTerminate();
        throw std::runtime_error("cannot open an OpenGL 3.3 window: " + last_glfw_error);
    }
    glfwMakeContextCurrent(window_);
    glfwSwapInterval(settings.vsync ? 1 : 0);
    glfwSetWindowUserPointer(window_, this);
    glfwSetDropCallback(window_, on_drop);

    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGui::GetIO().IniFilename = nullptr; // no imgui.ini next to the user's files
    apply_style();
    load_fonts();
    ImGui_ImplGlfw_InitForOpenGL(window_, true);
    ImGui_ImplOpenGL3_Init("#version 330 core");
}

GlWindow::~GlWindow() {
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext();
    glfwDestroyWindow(window_);
    glfwTerminate();
}

bool GlWindow::should_close() const {
    return glfwWindowShouldClose(window_) != 0;
}

void GlWindow::process_events(bool animating, double timeout) {
    if (animating)
        glfwPollEvents();
    else
        glfwWaitEventsTimeout(timeout);
}

void GlWindow::begin_frame() {
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    glfwGetFramebufferSize(window_, &viewport_width_, &viewport_height_);
    ImGui::NewFrame();
}

void GlWindow::begin_frame(ImVec2 display_size) {
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = display_size;
    io.DisplayFramebufferScale = {1, 1};
    viewport_width_ = static_cast<int>(display_size.x);
    viewport_height_ = static_cast<int>(display_size.y);
    ImGui::NewFrame();
}

void GlWindow::end_frame(bool swap) {
    if (ImGui::GetCurrentContext()->FrameCountRendered != ImGui::GetFrameCount()) ImGui::Render();
    glViewport(0, 0, viewport_width_, viewport_height_);
    const Rgb clear = palette::kPanel;
    glClearColor(clear.r / 255.0f, clear.g / 255.0f, clear.b / 255.0f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    if (swap) glfwSwapBuffers(window_);
}

ImVec2 GlWindow::framebuffer_size() const {
    int width = 0;
    int height = 0;
    glfwGetFramebufferSize(window_, &width, &height);
    return {static_cast<float>(width), static_cast<float>(height)};
}

std::vector<std::string> GlWindow::take_dropped_paths() {
    std::vector<std::string> paths;
    paths.swap(dropped_);
    return paths;
}

void GlWindow::on_drop(GLFWwindow* window, int count, const char** paths) {
    auto* self = static_cast<GlWindow*>(glfwGetWindowUserPointer(window));
    for (int i = 0; i < count; ++i) self->dropped_.emplace_back(paths[i]);
}

} // namespace scanlab::view
