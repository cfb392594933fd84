#include "benchmark.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>

#include <GL/gl.h>

#include "app.h"
#include "gl_window.h"
#include "start_position.h"
#include "trace_text.h"

namespace scanlab::view {

namespace {
using Clock = std::chrono::steady_clock;

double milliseconds(Clock::duration d) {
    return std::chrono::duration<double, std::milli>(d).count();
}
} // namespace

int run_benchmark(const Options& options) {
    try {
        GlWindow window(WindowSettings::unsynced(options.width, options.height, true,
                                                 "scanlab-view (benchmark)"));
        App app;
        const auto load_start = Clock::now();
        if (!app.open_now(options.trace)) {
            std::fprintf(stderr, "scanlab-view: %s\n", app.error().c_str());
            return 3;
        }
        const double load_ms = milliseconds(Clock::now() - load_start);
        const std::string problem = apply_start_position(app, options);
        if (!problem.empty()) {
            std::fprintf(stderr, "scanlab-view: %s\n", problem.c_str());
            return 2;
        }
        const LoadedTrace& loaded = *app.loaded();
        std::uint64_t lanes = 0;
        for (const auto& i : loaded.trace.instructions) lanes += i.lanes.size();
        const BlockIndex& block = loaded.index.block(app.selection().block);
        std::printf("trace: %s warp instructions, %s lanes, %zu steps, %zu blocks recorded\n",
                    compact_count(loaded.trace.instructions.size()).c_str(),
                    compact_count(lanes).c_str(), loaded.trace.steps.size(),
                    loaded.index.blocks().size());
        std::printf("load: %.0f ms (JSON read and validation %.0f ms, bank analysis %.0f ms, "
                    "viewer indices %.0f ms)\n",
                    load_ms, loaded.times.read * 1e3, loaded.times.analyse * 1e3,
                    loaded.times.index * 1e3);
        std::printf("block %u: %u steps, %u instructions; window %dx%d, %d frames per view\n",
                    block.block, block.step_count(), block.instruction_count(), options.width,
                    options.height, options.benchmark_frames);
        for (ViewKind view : {ViewKind::array, ViewKind::bank, ViewKind::timeline}) {
            app.show(view);
            // The first frame of a view builds its model (the array view's cells and arrows).
            const auto first_start = Clock::now();
            for (int k = 0; k < 2; ++k) {
                window.process_events(true);
                window.begin_frame();
                app.draw();
                window.end_frame(true);
            }
            glFinish();
            const double first_ms = milliseconds(Clock::now() - first_start);
            app.end();
            for (int k = 0; k < 20; ++k) app.previous(false);
            double total = 0;
            double worst = 0;
            double build_total = 0;
            double build_worst = 0;
            int vertices = 0;
            for (int frame = 0; frame < options.benchmark_frames; ++frame) {
                const auto start = Clock::now();
                window.process_events(true);
                if (at_end(block, app.selection().cursor))
                    app.home();
                else
                    app.next(false);
                app.update(0.0);
                window.begin_frame();
                app.draw();
                ImGui::Render(); // the draw lists: everything the viewer computes for a frame
                const double build = milliseconds(Clock::now() - start);
                window.end_frame(true);
                glFinish();
                const double ms = milliseconds(Clock::now() - start);
                total += ms;
                worst = std::max(worst, ms);
                build_total += build;
                build_worst = std::max(build_worst, build);
                vertices = std::max(vertices, ImGui::GetDrawData()->TotalVtxCount);
            }
            const char* name = view == ViewKind::array  ? "array"
                               : view == ViewKind::bank ? "bank"
                                                        : "timeline";
            const double n = options.benchmark_frames;
            std::printf("%-8s first 2 frames %.1f ms | UI build mean %.2f ms, max %.2f ms | "
                        "whole frame (with software rendering and present) mean %.2f ms, max "
                        "%.2f ms | up to %d vertices\n",
                        name, first_ms, build_total / n, build_worst, total / n, worst, vertices);
        }
        return 0;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "scanlab-view: %s\n", e.what());
        return 4;
    }
}

} // namespace scanlab::view
