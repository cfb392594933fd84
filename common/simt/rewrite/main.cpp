// simt-rewrite INPUT.cu -o OUTPUT.cpp [--display-name NAME] [--header-dir DIR] [--depfile FILE]
//              [-I DIR ...]
// The build step that lets the host compiler take a .cu file; see docs/simtcc.md.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <string_view>
#include <vector>

#include "header_copies.h"

namespace {

constexpr std::string_view usage =
    "usage: simt-rewrite INPUT.cu -o OUTPUT.cpp [--display-name NAME] [--header-dir DIR]\n"
    "                    [--depfile FILE] [-I DIR ...]\n"
    "Rewrites the CUDA syntax that a host C++ compiler cannot parse (<<<...>>> launches,\n"
    "__shared__ declarations, file-scope __device__/__constant__ variables) into calls to the\n"
    "simt emulator runtime, and puts ::simt::detail::loop_tick() at the head of each loop\n"
    "condition. Line numbers are kept; '#line 1 \"NAME\"' (default: the absolute input path)\n"
    "makes diagnostics point at the original file.\n"
    "Headers included with #include \"name\" that are found next to the file including them\n"
    "are rewritten too, into DIR (default: OUTPUT.headers), and included from there; so are\n"
    "headers found in a -I DIR (for \"name\" after the includer's folder, for <name> alone) that\n"
    "hold __shared__, <<<, __constant__ or __managed__.\n"
    "--depfile writes a Make-style dependency file: OUTPUT depends on INPUT and those headers.\n";

int fail_usage(std::string_view message) {
    std::cerr << "simt-rewrite: error: " << message << "\n" << usage;
    return 2;
}

// A path in a Make-style depfile: spaces, '#' and '$' escaped.
std::string depfile_path(const std::filesystem::path& path) {
    std::string out;
    for (char c : std::filesystem::absolute(path).lexically_normal().string()) {
        if (c == ' ' || c == '#') out += '\\';
        if (c == '$') out += '$';
        out += c;
    }
    return out;
}

} // namespace

int main(int argc, char** argv) {
    std::string input;
    std::string output;
    std::string display_name;
    std::string header_dir;
    std::string depfile;
    std::vector<std::filesystem::path> include_dirs;
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        if (arg == "-h" || arg == "--help") {
            std::cout << usage;
            return 0;
        }
        if (arg == "-I") {
            if (i + 1 == argc) return fail_usage("-I needs a directory");
            include_dirs.emplace_back(argv[++i]);
            continue;
        }
        if (arg.starts_with("-I")) {
            include_dirs.emplace_back(std::string(arg.substr(2)));
            continue;
        }
        if (arg == "-o" || arg == "--display-name" || arg == "--header-dir" || arg == "--depfile") {
            if (i + 1 == argc) return fail_usage(std::string(arg) + " needs a value");
            std::string& value = arg == "-o"               ? output
                                 : arg == "--display-name" ? display_name
                                 : arg == "--header-dir"   ? header_dir
                                                           : depfile;
            value = argv[++i];
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
    if (header_dir.empty()) header_dir = output + ".headers";

    try {
        simt::rewrite::HeaderCopies copies(header_dir, include_dirs);
        const std::string result = copies.rewrite(input, display_name);
        // The output is written even when unchanged: build tools compare its time with the
        // inputs'.
        const std::filesystem::path out_path(output);
        std::error_code ignored;
        std::filesystem::remove(out_path, ignored);
        simt::rewrite::write_if_changed(out_path, result);
        if (!depfile.empty()) {
            std::string deps = depfile_path(output) + ":";
            for (const auto& file : copies.inputs()) deps += " \\\n  " + depfile_path(file);
            simt::rewrite::write_if_changed(depfile, deps + "\n");
        }
    } catch (const simt::rewrite::RewriteFailure& e) {
        std::cerr << e.what() << "\n";
        return 1;
    }
    return 0;
}
