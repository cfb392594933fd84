// Linux side of platform::symbolize: binutils' addr2line, one process per module, fed through a
// socket.
#include "platform.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>

extern char** environ;

namespace simt::detail::platform {

namespace {

// addr2line -f -i prints a "function" line and a "file:line" line per frame; "??" is unknown.
SymbolFrame parse_frame(const std::string& function, const std::string& where) {
    SymbolFrame frame;
    if (function != "??") frame.function = function;
    const std::string w = where.substr(0, where.find(" (discriminator"));
    const auto colon = w.rfind(':');
    if (colon == std::string::npos) return frame;
    std::string file = w.substr(0, colon);
    if (file == "??") return frame;
    frame.file = file;
    frame.line = std::atoi(w.c_str() + colon + 1);
    return frame;
}

// One addr2line process per module, started at the first lookup and fed addresses through a
// socket for the rest of the run: starting it (and its reading of the debug information) is
// what costs, 0.1 to 0.3 s for a lab's test program, so it is paid once instead of once per
// lookup. docs/design.md says why this is not a library (libbacktrace, libdw).
class Symbolizer {
  public:
    explicit Symbolizer(const std::string& path) {
        int sv[2];
        if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) return;
        posix_spawn_file_actions_t actions;
        posix_spawn_file_actions_init(&actions);
        posix_spawn_file_actions_adddup2(&actions, sv[1], 0);
        posix_spawn_file_actions_adddup2(&actions, sv[1], 1);
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
        // -i: the chain of inlined frames; -a: each address first, to tell the chains apart.
        std::string exe = path;
        char a2l[] = "addr2line", flags[] = "-aifC", e[] = "-e";
        char* argv[] = {a2l, flags, e, exe.data(), nullptr};
        const int spawned = posix_spawnp(&pid_, "addr2line", &actions, nullptr, argv, environ);
        posix_spawn_file_actions_destroy(&actions);
        close(sv[1]);
        if (spawned != 0) {
            close(sv[0]);
            pid_ = -1;
            warn_once_cannot_run(spawned);
            return;
        }
        fd_ = sv[0];
    }
    ~Symbolizer() { stop(); }
    Symbolizer(const Symbolizer&) = delete;
    Symbolizer& operator=(const Symbolizer&) = delete;

    // The chains of "function", "file:line" pairs, one per address (empty where it failed).
    std::vector<std::vector<std::string>> lookup(const std::vector<uintptr_t>& addresses) {
        std::vector<std::vector<std::string>> chains(addresses.size());
        // A batch at a time, so that neither side's socket buffer can fill up while the other
        // waits; the sentinel address 0 marks the end of a batch's answers.
        constexpr size_t kBatch = 64;
        for (size_t first = 0; first < addresses.size() && fd_ >= 0; first += kBatch) {
            const size_t last = std::min(addresses.size(), first + kBatch);
            std::string request;
            for (size_t i = first; i < last; ++i) {
                char hex[32];
                std::snprintf(hex, sizeof hex, "0x%llx\n",
                              static_cast<unsigned long long>(addresses[i]));
                request += hex;
            }
            request += "0x0\n";
            if (!send_all(request)) break;
            size_t index = first;
            bool in_sentinel = false;
            int sentinel_lines = 0;
            std::string line;
            bool current_started = false;
            while (read_line(line)) {
                const bool is_address = line.rfind("0x", 0) == 0 &&
                                        line.find(':') == std::string::npos &&
                                        line.find(' ') == std::string::npos;
                if (is_address) {
                    if (current_started) ++index;
                    current_started = true;
                    in_sentinel = index == last;
                    continue;
                }
                if (in_sentinel) {
                    if (++sentinel_lines == 2) break; // "??" and "??:0": the batch is answered
                    continue;
                }
                if (current_started && index < last) chains[index].push_back(line);
            }
            if (!in_sentinel) { // the process failed: no more lookups through it
                stop();
                break;
            }
        }
        return chains;
    }

  private:
    bool send_all(const std::string& data) {
        size_t sent = 0;
        while (sent < data.size()) {
            // MSG_NOSIGNAL: an addr2line that died must not kill the program with SIGPIPE.
            ssize_t n = send(fd_, data.data() + sent, data.size() - sent, MSG_NOSIGNAL);
            if (n <= 0) {
                stop();
                return false;
            }
            sent += static_cast<size_t>(n);
        }
        return true;
    }

    bool read_line(std::string& line) {
        line.clear();
        for (;;) {
            const size_t nl = buffer_.find('\n');
            if (nl != std::string::npos) {
                line = buffer_.substr(0, nl);
                buffer_.erase(0, nl + 1);
                if (!line.empty() && line.back() == '\r') line.pop_back();
                return true;
            }
            pollfd p{fd_, POLLIN, 0};
            // Generous: the first answer waits for addr2line to read the debug information.
            if (poll(&p, 1, 60000) <= 0) return false;
            char chunk[4096];
            const ssize_t n = recv(fd_, chunk, sizeof chunk, 0);
            if (n <= 0) return false;
            buffer_.append(chunk, static_cast<size_t>(n));
        }
    }

    void stop() {
        if (fd_ >= 0) {
            close(fd_); // addr2line sees the end of its input and exits
            fd_ = -1;
        }
        if (pid_ > 0) {
            int status = 0;
            if (waitpid(pid_, &status, WNOHANG) == 0) {
                kill(pid_, SIGTERM);
                waitpid(pid_, &status, 0);
            }
            pid_ = -1;
        }
    }

    // Without addr2line every report says "unknown location"; say why, once per run.
    static void warn_once_cannot_run(int error) {
        static bool warned = false;
        if (warned) return;
        warned = true;
        std::fprintf(stderr,
                     "simt: cannot run addr2line (%s): reports will name no source lines; "
                     "install binutils\n",
                     std::strerror(error));
    }

    pid_t pid_ = -1;
    int fd_ = -1;
    std::string buffer_;
};

std::mutex symbolizers_mutex;
std::map<std::string, std::unique_ptr<Symbolizer>>& symbolizers() {
    static std::map<std::string, std::unique_ptr<Symbolizer>> s;
    return s;
}

} // namespace

std::vector<std::vector<SymbolFrame>> symbolize(const LoadedModule& module,
                                                const std::vector<uintptr_t>& addresses) {
    std::lock_guard lock(symbolizers_mutex);
    auto& symbolizer = symbolizers()[module.path];
    if (!symbolizer) symbolizer = std::make_unique<Symbolizer>(module.path);
    // addr2line wants addresses in the file, not in memory.
    std::vector<uintptr_t> in_file;
    in_file.reserve(addresses.size());
    for (uintptr_t a : addresses) in_file.push_back(a - module.base);
    const auto chains = symbolizer->lookup(in_file);
    std::vector<std::vector<SymbolFrame>> frames(chains.size());
    for (size_t k = 0; k < chains.size(); ++k)
        for (size_t f = 0; f + 1 < chains[k].size(); f += 2)
            frames[k].push_back(parse_frame(chains[k][f], chains[k][f + 1]));
    return frames;
}

} // namespace simt::detail::platform
