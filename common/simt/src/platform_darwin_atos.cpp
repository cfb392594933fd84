// macOS side of platform::symbolize: Xcode's atos, one run per batch of addresses. Never compiled
// or run here (docs/platforms.md): the output format below is atos's documented one.
//   atos -o <image> -l <load address> -i -fullPath <addresses...>
// prints, per address, its frames innermost first, one line each:
//   "function (in image) (/path/file.cu:12)"
// and the address itself where it knows nothing. After every real address the request carries
// 0x0, which atos cannot know: its "0x0" line ends that address's frames.
#include "platform.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

extern char** environ;

namespace simt::detail::platform {

namespace {

std::string hex(uintptr_t value) {
    char text[32];
    std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(value));
    return text;
}

// "function (in image) (file:line)"; a line without the last part has no source position.
SymbolFrame parse_frame(const std::string& line) {
    SymbolFrame frame;
    const auto in = line.find(" (in ");
    if (in == std::string::npos) return frame; // an address atos could not resolve
    frame.function = line.substr(0, in);
    if (line.empty() || line.back() != ')') return frame;
    const auto open = line.rfind(" (");
    const auto colon = line.rfind(':');
    if (open == std::string::npos || open <= in || colon == std::string::npos || colon < open)
        return frame;
    frame.file = line.substr(open + 2, colon - open - 2);
    frame.line = std::atoi(line.c_str() + colon + 1);
    return frame;
}

// Runs atos with `arguments` and returns its standard output (empty if it could not run).
std::string run_atos(std::vector<std::string> arguments) {
    int out[2];
    if (pipe(out) != 0) return {};
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, out[1], 1);
    posix_spawn_file_actions_addclose(&actions, out[0]);
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
    std::vector<char*> argv;
    for (std::string& a : arguments) argv.push_back(a.data());
    argv.push_back(nullptr);
    pid_t pid = -1;
    const int spawned = posix_spawnp(&pid, "atos", &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    close(out[1]);
    std::string text;
    if (spawned == 0) {
        char chunk[4096];
        for (ssize_t n; (n = read(out[0], chunk, sizeof chunk)) > 0;)
            text.append(chunk, static_cast<size_t>(n));
        int status = 0;
        waitpid(pid, &status, 0);
    }
    close(out[0]);
    return text;
}

} // namespace

std::vector<std::vector<SymbolFrame>> symbolize(const LoadedModule& module,
                                                const std::vector<uintptr_t>& addresses) {
    std::vector<std::vector<SymbolFrame>> frames(addresses.size());
    constexpr size_t kBatch = 64; // keeps the command line short
    for (size_t first = 0; first < addresses.size(); first += kBatch) {
        const size_t last = std::min(addresses.size(), first + kBatch);
        std::vector<std::string> arguments = {"atos",           "-o", module.path, "-l",
                                              hex(module.base), "-i", "-fullPath"};
        for (size_t i = first; i < last; ++i) {
            arguments.push_back(hex(addresses[i]));
            arguments.push_back("0x0");
        }
        const std::string text = run_atos(std::move(arguments));
        size_t index = first;
        size_t start = 0;
        while (start < text.size() && index < last) {
            size_t end = text.find('\n', start);
            if (end == std::string::npos) end = text.size();
            const std::string line = text.substr(start, end - start);
            start = end + 1;
            if (line == "0x0") {
                ++index;
                continue;
            }
            const SymbolFrame frame = parse_frame(line);
            if (!frame.function.empty()) frames[index].push_back(frame);
        }
    }
    return frames;
}

} // namespace simt::detail::platform
