#include "options.h"

#include <cstdio>
#include <map>
#include <regex>

#include <CLI/CLI.hpp>

namespace scanlab::view {

std::optional<int> parse_options(int argc, char** argv, Options& options) {
    CLI::App cli{"scanlab-view: step through a recorded Scan Lab kernel trace "
                 "(docs/visualizer.md)",
                 "scanlab-view"};
    cli.add_option("trace", options.trace, "trace file (*.trace.json) to open");
    cli.add_option("--png", options.png,
                   "headless: render one frame to this PNG file and exit (needs a display; "
                   "use xvfb-run)");
    const std::map<std::string, ViewKind> views{
        {"array", ViewKind::array},       {"bank", ViewKind::bank},
        {"timeline", ViewKind::timeline}, {"shuffles", ViewKind::shuffles},
        {"radix", ViewKind::radix},       {"pipeline", ViewKind::pipeline}};
    cli.add_option("--view", options.view,
                   "view to show: array, bank, timeline, shuffles, radix (lab 09) or pipeline "
                   "(lab 08)")
        ->transform(CLI::CheckedTransformer(views, CLI::ignore_case))
        ->option_text("array|bank|timeline|shuffles|radix|pipeline");
    cli.add_option("--step", options.step, "show the end of this step of the block (from 0)");
    cli.add_option("--instruction", options.instruction,
                   "show the state just after this instruction (its index in the trace)");
    cli.add_option("--block", options.block, "block to show (linear index; default: the first)");
    cli.add_option("--object", options.object, "memory object of the array view, by name");
    cli.add_option("--tile", options.tile,
                   "timeline: show this tile's look-back and the block that took it");
    cli.add_option("--finding", options.finding,
                   "select this finding of the trace (from 0): jump to it and mark its cells");
    cli.add_option("--digit", options.digit,
                   "radix view: the digit (0..255) whose look-back is shown")
        ->check(CLI::Range(0, 255));
    std::string size;
    cli.add_option("--size", size, "picture size WxH (default 1200x700)");
    cli.add_flag("--by-warp", options.by_warp, "colour by warp instead of by thread");
    cli.add_flag("--all-steps", options.all_steps,
                 "array view: one row per step, also steps that do not write the object");
    cli.add_flag("--no-fold", options.no_fold, "array view: do not fold double buffers");
    cli.add_option("--benchmark-frames", options.benchmark_frames,
                   "draw N frames of each view as fast as possible and print the frame times")
        ->check(CLI::PositiveNumber);
    try {
        cli.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        const int code = cli.exit(e); // prints the help or the problem
        return code == 0 ? 0 : 2;
    }
    if (!size.empty()) {
        std::smatch match;
        if (!std::regex_match(size, match, std::regex(R"((\d{1,5})x(\d{1,5}))"))) {
            std::fprintf(stderr, "scanlab-view: --size %s: expected WxH, e.g. 1200x700\n",
                         size.c_str());
            return 2;
        }
        options.width = std::stoi(match[1]);
        options.height = std::stoi(match[2]);
        if (options.width < 64 || options.height < 64 || options.width > 8192 ||
            options.height > 8192) {
            std::fprintf(stderr, "scanlab-view: --size %s: each side must be 64..8192\n",
                         size.c_str());
            return 2;
        }
    }
    if (options.step && options.instruction) {
        std::fprintf(stderr, "scanlab-view: give --step or --instruction, not both\n");
        return 2;
    }
    if ((!options.png.empty() || options.benchmark_frames > 0) && options.trace.empty()) {
        std::fprintf(stderr, "scanlab-view: --png and --benchmark-frames need a trace file\n");
        return 2;
    }
    return std::nullopt;
}

} // namespace scanlab::view
