#include "interactive.h"

#include <cstdio>
#include <exception>
#include <string>

#include <GLFW/glfw3.h>

#include "app.h"
#include "gl_window.h"
#include "start_position.h"

namespace scanlab::view {

int run_window(const Options& options) {
    try {
        GlWindow window(WindowSettings{});
        App app;
        bool position_pending = false;
        if (!options.trace.empty()) {
            app.open(options.trace);
            position_pending = true;
        }
        double last = glfwGetTime();
        std::string shown_title;
        while (!window.should_close()) {
            window.process_events(app.playback().playing() || app.loading());
            app.drop(window.take_dropped_paths());
            const double now = glfwGetTime();
            app.update(now - last);
            last = now;
            if (position_pending && !app.loading()) {
                position_pending = false;
                if (app.loaded()) {
                    const std::string problem = apply_start_position(app, options);
                    if (!problem.empty())
                        std::fprintf(stderr, "scanlab-view: %s\n", problem.c_str());
                }
            }
            // The window's title names the open file.
            const std::string title =
                app.loaded() ? app.loaded()->path.filename().string() + " - scanlab-view"
                             : "scanlab-view";
            if (title != shown_title) {
                shown_title = title;
                glfwSetWindowTitle(window.handle(), title.c_str());
            }
            window.begin_frame();
            app.draw();
            window.end_frame(true);
        }
        return 0;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "scanlab-view: %s\n", e.what());
        return 4;
    }
}

} // namespace scanlab::view
