#include "source_lines.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <link.h>
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

namespace simt::detail {

namespace {

struct ModuleOf {
    uintptr_t pc = 0;
    uintptr_t bias = 0;
    std::string path;
    bool found = false;
};

// addr2line runs in another process, so "/proc/self/exe" must be resolved here.
std::string own_executable() {
    static const std::string path = [] {
        char buffer[4096];
        ssize_t n = readlink("/proc/self/exe", buffer, sizeof buffer - 1);
        return n > 0 ? std::string(buffer, static_cast<size_t>(n)) : std::string("/proc/self/exe");
    }();
    return path;
}

int find_module(dl_phdr_info* info, size_t, void* data) {
    auto* m = static_cast<ModuleOf*>(data);
    for (int i = 0; i < info->dlpi_phnum; ++i) {
        const auto& ph = info->dlpi_phdr[i];
        if (ph.p_type != PT_LOAD) continue;
        uintptr_t lo = info->dlpi_addr + ph.p_vaddr;
        if (m->pc >= lo && m->pc < lo + ph.p_memsz) {
            m->bias = info->dlpi_addr;
            m->path = (info->dlpi_name && info->dlpi_name[0]) ? info->dlpi_name : own_executable();
            m->found = true;
            return 1;
        }
    }
    return 0;
}

// Files under common/simt/ are the emulator's; found from this file's own path.
const std::string& emulator_root() {
    static const std::string root = [] {
        std::string self = __FILE__; // .../common/simt/src/source_lines.cpp
        auto pos = self.rfind("/src/");
        return pos == std::string::npos ? std::string("//none//") : self.substr(0, pos + 1);
    }();
    return root;
}

// A frame in code the student (or the program) wrote, not in the emulator's own headers.
bool is_users(const SourceLocation& loc) {
    return !loc.file.empty() && loc.file.rfind(emulator_root(), 0) != 0;
}

SourceLocation parse_location(const std::string& function, const std::string& where) {
    SourceLocation loc;
    if (function != "??") loc.function = function;
    std::string w = where.substr(0, where.find(" (discriminator"));
    auto colon = w.rfind(':');
    if (colon == std::string::npos) return loc;
    std::string file = w.substr(0, colon);
    if (file == "??") return loc;
    loc.file = file;
    loc.line = std::atoi(w.c_str() + colon + 1);
    return loc;
}

// One addr2line process per module, started at the first lookup and fed addresses through a
// socket for the rest of the run: starting it (and its reading of the debug information) is
// what costs, about 75 ms for a test program, so it is paid once instead of once per lookup.
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

    pid_t pid_ = -1;
    int fd_ = -1;
    std::string buffer_;
};

std::mutex cache_mutex;
std::map<const void*, SourceLocation>& cache() {
    static std::map<const void*, SourceLocation> c;
    return c;
}

std::map<std::string, std::unique_ptr<Symbolizer>>& symbolizers() {
    static std::map<std::string, std::unique_ptr<Symbolizer>> s;
    return s;
}

} // namespace

std::string SourceLocation::to_string() const {
    if (file.empty()) return function.empty() ? "unknown location" : "in " + function;
    auto slash = file.rfind('/');
    std::string base = slash == std::string::npos ? file : file.substr(slash + 1);
    return base + ":" + std::to_string(line);
}

std::vector<SourceLocation> resolve_sources(const std::vector<const void*>& pcs) {
    std::lock_guard lock(cache_mutex);
    std::vector<SourceLocation> out(pcs.size());
    // Group the unknown ones by module: one batch per module.
    std::map<std::string, std::vector<size_t>> by_module;
    std::map<size_t, uintptr_t> relative;
    for (size_t i = 0; i < pcs.size(); ++i) {
        auto hit = cache().find(pcs[i]);
        if (hit != cache().end()) {
            out[i] = hit->second;
            continue;
        }
        ModuleOf m;
        m.pc = reinterpret_cast<uintptr_t>(pcs[i]);
        dl_iterate_phdr(find_module, &m);
        if (!m.found) continue;
        // Return addresses point after the call; step back into the calling instruction.
        relative[i] = m.pc - 1 - m.bias;
        by_module[m.path].push_back(i);
    }
    for (auto& [path, indices] : by_module) {
        auto& symbolizer = symbolizers()[path];
        if (!symbolizer) symbolizer = std::make_unique<Symbolizer>(path);
        std::vector<uintptr_t> addresses;
        for (size_t i : indices) addresses.push_back(relative[i]);
        const auto chains = symbolizer->lookup(addresses);
        for (size_t k = 0; k < indices.size(); ++k) {
            // Innermost frame first. Skip the emulator's own inline wrappers (device.h, ...):
            // the student wants the line of their call.
            const auto& chain = chains[k];
            SourceLocation chosen;
            size_t chosen_frame = chain.size();
            for (size_t f = 0; f + 1 < chain.size(); f += 2) {
                SourceLocation loc = parse_location(chain[f], chain[f + 1]);
                if (f == 0 || chosen.file.empty()) chosen = loc;
                if (is_users(loc)) {
                    chosen = loc;
                    chosen_frame = f;
                    break;
                }
            }
            // The user's frames from the chosen one outwards, then outermost first.
            for (size_t f = chosen_frame; f + 1 < chain.size(); f += 2) {
                const SourceLocation loc = parse_location(chain[f], chain[f + 1]);
                if (is_users(loc)) chosen.frame_lines.push_back(loc.line);
            }
            std::reverse(chosen.frame_lines.begin(), chosen.frame_lines.end());
            out[indices[k]] = chosen;
        }
    }
    for (size_t i = 0; i < pcs.size(); ++i) cache()[pcs[i]] = out[i];
    return out;
}

SourceLocation resolve_source(const void* pc) {
    return resolve_sources({pc}).front();
}

} // namespace simt::detail
