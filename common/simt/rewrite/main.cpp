// simt-rewrite INPUT.cu -o OUTPUT.cpp [--display-name NAME]
// The build step that lets the host compiler take a .cu file; see docs/simtcc.md.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <string_view>

#include "rewrite.h"

namespace {

constexpr std::string_view usage =
    "usage: simt-rewrite INPUT.cu -o OUTPUT.cpp [--display-name NAME]\n"
    "Rewrites the CUDA syntax that a host C++ compiler cannot parse (<<<...>>> launches,\n"
    "__shared__ declarations, file-scope __device__/__constant__ variables) into calls to the\n"
    "simt emulator runtime, and puts ::simt::detail::loop_tick() at the head of each loop\n"
    "condition. Line numbers are kept; '#line 1 \"NAME\"' (default: the absolute input path)\n"
    "makes diagnostics point at the original file.\n";

int fail_usage(std::string_view message) {
    std::cerr << "simt-rewrite: error: " << message << "\n" << usage;
    return 2;
}

} // namespace

int main(int argc, char** argv) {
    std::string input;
    std::string output;
    std::string display_name;
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        if (arg == "-h" || arg == "--help") {
            std::cout << usage;
            return 0;
        }
        if (arg == "-o" || arg == "--display-name") {
            if (i + 1 == argc) return fail_usage(std::string(arg) + " needs a value");
            (arg == "-o" ? output : display_name) = argv[++i];
        } else if (arg.starts_with("-") && arg.size() > 1) {
            return fail_usage("unknown option '" + std::string(arg) + "'");
        } else if (input.empty()) {
            input = arg;
        } else {
            return fail_usage("more than one input file");
        }
    }
    if (input.empty() || output.empty()) return fail_usage("need an input file and -o OUTPUT");
    if (display_name.empty()) {
        display_name = std::filesystem::absolute(input).lexically_normal().string();
    }

    std::ifstream in(input, std::ios::binary);
    if (!in) {
        std::cerr << "simt-rewrite: error: cannot read '" << input << "'\n";
        return 1;
    }
    std::ostringstream buffer;
    buffer << in.rdbuf();

    std::string result;
    try {
        result = simt::rewrite::rewrite_source(buffer.str(), display_name);
    } catch (const simt::rewrite::RewriteError& e) {
        std::cerr << simt::rewrite::format_error(e, display_name) << "\n";
        return 1;
    }

    // Write beside the target and rename, so an interrupted build never leaves half a file
    // that looks up to date.
    const std::filesystem::path out_path(output);
    const std::filesystem::path tmp_path = out_path.string() + ".tmp";
    if (out_path.has_parent_path()) {
        std::error_code ignored; // a real problem shows up as "cannot write" below
        std::filesystem::create_directories(out_path.parent_path(), ignored);
    }
    {
        std::ofstream out(tmp_path, std::ios::binary | std::ios::trunc);
        out << result;
        if (!out.flush()) {
            std::cerr << "simt-rewrite: error: cannot write '" << tmp_path.string() << "'\n";
            return 1;
        }
    }
    std::error_code ec;
    std::filesystem::rename(tmp_path, out_path, ec);
    if (ec) {
        std::cerr << "simt-rewrite: error: cannot write '" << output << "': " << ec.message()
                  << "\n";
        std::filesystem::remove(tmp_path, ec);
        return 1;
    }
    return 0;
}
