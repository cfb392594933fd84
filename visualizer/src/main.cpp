// scanlab-view: the Scan Lab trace viewer. See docs/visualizer.md.
#include "benchmark.h"
#include "headless.h"
#include "interactive.h"
#include "options.h"

int main(int argc, char** argv) {
    scanlab::view::Options options;
    if (auto code = scanlab::view::parse_options(argc, argv, options)) return *code;
    if (!options.png.empty()) return scanlab::view::render_picture(options);
    if (options.benchmark_frames > 0) return scanlab::view::run_benchmark(options);
    return scanlab::view::run_window(options);
}
