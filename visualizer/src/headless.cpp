#include "headless.h"

#include <cstdio>
#include <exception>

#include "app.h"
#include "gl_window.h"
#include "offscreen_target.h"
#include "start_position.h"

namespace scanlab::view {

int render_picture(const Options& options) {
    try {
        GlWindow window(WindowSettings::unsynced(options.width, options.height, false,
                                                 "scanlab-view (headless)"));
        OffscreenTarget target(options.width, options.height);
        App app;
        const bool opened = app.open_now(options.trace);
        if (opened) {
            const std::string problem = apply_start_position(app, options);
            if (!problem.empty()) {
                std::fprintf(stderr, "scanlab-view: %s\n", problem.c_str());
                return 2;
            }
        }
        const ImVec2 size{static_cast<float>(options.width), static_cast<float>(options.height)};
        // A few frames, so that every layout has settled.
        for (int frame = 0; frame < 4; ++frame) {
            window.begin_frame(size);
            app.draw_picture(size);
            target.bind();
            window.end_frame(false);
        }
        write_png(target.read(), options.png);
        if (!opened) {
            std::fprintf(stderr, "scanlab-view: %s\n", app.error().c_str());
            return 3;
        }
        return 0;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "scanlab-view: %s\n", e.what());
        return 4;
    }
}

} // namespace scanlab::view
