#include "source_lines.h"

#include <algorithm>
#include <map>
#include <mutex>

#include "platform.h"

namespace simt::detail {

namespace {

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

SourceLocation location_of(const platform::SymbolFrame& frame) {
    SourceLocation loc;
    loc.function = frame.function;
    loc.file = frame.file;
    loc.line = frame.line;
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
    // Group the unknown ones by module: one batch per module.
    std::map<std::string, platform::LoadedModule> modules;
    std::map<std::string, std::vector<size_t>> by_module;
    for (size_t i = 0; i < pcs.size(); ++i) {
        auto hit = cache().find(pcs[i]);
        if (hit != cache().end()) {
            out[i] = hit->second;
            continue;
        }
        const auto module = platform::module_containing(reinterpret_cast<uintptr_t>(pcs[i]));
        if (!module) continue;
        modules.emplace(module->path, *module);
        by_module[module->path].push_back(i);
    }
    for (auto& [path, indices] : by_module) {
        // Return addresses point after the call; step back into the calling instruction.
        std::vector<uintptr_t> addresses;
        for (size_t i : indices) addresses.push_back(reinterpret_cast<uintptr_t>(pcs[i]) - 1);
        const auto chains = platform::symbolize(modules.at(path), addresses);
        for (size_t k = 0; k < indices.size() && k < chains.size(); ++k) {
            // Innermost frame first. Skip the emulator's own inline wrappers (device.h, ...):
            // the student wants the line of their call.
            const auto& chain = chains[k];
            SourceLocation chosen;
            size_t chosen_frame = chain.size();
            for (size_t f = 0; f < chain.size(); ++f) {
                const SourceLocation loc = location_of(chain[f]);
                if (f == 0 || chosen.file.empty()) chosen = loc;
                if (is_users(loc)) {
                    chosen = loc;
                    chosen_frame = f;
                    break;
                }
            }
            // The user's frames from the chosen one outwards, then outermost first.
            for (size_t f = chosen_frame; f < chain.size(); ++f) {
                const SourceLocation loc = location_of(chain[f]);
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

std::string source_line(const void* pc) {
    return resolve_source(pc).to_string();
}

} // namespace simt::detail
