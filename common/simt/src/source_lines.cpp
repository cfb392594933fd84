#include "source_lines.h"

#include <dlfcn.h>
#include <link.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <sstream>

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

std::string shell_quote(const std::string& s) {
    std::string out = "'";
    for (char c : s) out += (c == '\'') ? std::string("'\\''") : std::string(1, c);
    return out + "'";
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

std::mutex cache_mutex;
std::map<const void*, SourceLocation>& cache() {
    static std::map<const void*, SourceLocation> c;
    return c;
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
    // Group the unknown ones by module, one addr2line per module.
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
        std::ostringstream cmd;
        // -i: the chain of inlined frames; -a: each address first, to tell the chains apart.
        cmd << "addr2line -a -i -f -C -e " << shell_quote(path);
        for (size_t i : indices) cmd << " 0x" << std::hex << relative[i];
        cmd << " 2>/dev/null";
        FILE* pipe = popen(cmd.str().c_str(), "r");
        if (!pipe) continue;
        char buffer[4096];
        std::vector<std::vector<std::string>> chains;
        while (fgets(buffer, sizeof buffer, pipe)) {
            std::string line(buffer);
            while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.pop_back();
            if (line.rfind("0x", 0) == 0 && line.find(':') == std::string::npos)
                chains.emplace_back();
            else if (!chains.empty())
                chains.back().push_back(line);
        }
        pclose(pipe);
        for (size_t k = 0; k < indices.size() && k < chains.size(); ++k) {
            // Innermost frame first. Skip the emulator's own inline wrappers (device.h, ...):
            // the student wants the line of their call.
            const auto& chain = chains[k];
            SourceLocation chosen;
            for (size_t f = 0; f + 1 < chain.size(); f += 2) {
                SourceLocation loc = parse_location(chain[f], chain[f + 1]);
                if (f == 0 || chosen.file.empty()) chosen = loc;
                if (!loc.file.empty() && loc.file.rfind(emulator_root(), 0) != 0) {
                    chosen = loc;
                    break;
                }
            }
            out[indices[k]] = chosen;
        }
    }
    for (size_t i = 0; i < pcs.size(); ++i) cache()[pcs[i]] = out[i];
    return out;
}

SourceLocation resolve_source(const void* pc) { return resolve_sources({pc}).front(); }

} // namespace simt::detail
