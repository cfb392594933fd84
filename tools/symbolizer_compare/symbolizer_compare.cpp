// Prototype for issue 17: answers the same source-line queries through the addr2line co-process
// (platform_linux_addr2line.cpp, as the emulator runs it) and through libbacktrace, on another
// executable's file addresses, and prints the time to the first answer, the cost per lookup, the
// memory and every address where the two disagree. Built by hand (see README.md beside it).
#include <backtrace.h>
#include <cxxabi.h>
#include <link.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "platform.h"

namespace {

using simt::detail::platform::SymbolFrame;
using Chain = std::vector<SymbolFrame>;
using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point start) {
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// Peak resident memory of this process so far, in KiB (VmHWM).
long peak_rss_kib() {
    std::ifstream status("/proc/self/status");
    std::string key;
    long value = 0;
    while (status >> key) {
        if (key == "VmHWM:") {
            status >> value;
            return value;
        }
        status.ignore(1 << 20, '\n');
    }
    return -1;
}

std::string demangled(const char* name) {
    if (name == nullptr) return {};
    int status = 0;
    std::unique_ptr<char, decltype(&std::free)> plain(
        abi::__cxa_demangle(name, nullptr, nullptr, &status), &std::free);
    return status == 0 && plain ? std::string(plain.get()) : std::string(name);
}

void report_error(void*, const char* message, int code) {
    std::fprintf(stderr, "libbacktrace: %s (%d)\n", message, code);
}
void ignore_error(void*, const char*, int) {}

int add_frame(void* data, uintptr_t, const char* file, int line, const char* function) {
    auto& chain = *static_cast<Chain*>(data);
    if (file == nullptr && function == nullptr) return 0;
    chain.push_back({demangled(function), file ? file : "", file ? line : 0});
    return 0;
}
void add_symbol(void* data, uintptr_t, const char* symbol, uintptr_t, uintptr_t) {
    auto& chain = *static_cast<Chain*>(data);
    if (symbol != nullptr) chain.push_back({demangled(symbol), "", 0});
}

// libbacktrace maps a PIE named as "the executable" at this process's own load bias.
uintptr_t own_load_bias() {
    uintptr_t bias = 0;
    dl_iterate_phdr(
        [](dl_phdr_info* info, size_t, void* out) {
            *static_cast<uintptr_t*>(out) = info->dlpi_addr;
            return 1; // the first entry is the executable
        },
        &bias);
    return bias;
}

Chain libbacktrace_chain(backtrace_state* state, uintptr_t pc) {
    Chain chain;
    backtrace_pcinfo(state, pc, add_frame, ignore_error, &chain);
    if (chain.empty()) backtrace_syminfo(state, pc, add_symbol, ignore_error, &chain);
    return chain;
}

std::string show(const Chain& chain) {
    std::string s;
    for (const auto& f : chain)
        s += "[" + f.function + " @ " + f.file + ":" + std::to_string(f.line) + "] ";
    return s.empty() ? "(nothing)" : s;
}

// "basename:line " for each frame: what a third symbolizer's answer is compared with.
std::string lines_of(const Chain& chain) {
    std::string s;
    for (const auto& f : chain) {
        const auto slash = f.file.rfind('/');
        s += (f.file.empty() ? "??" : f.file.substr(slash == std::string::npos ? 0 : slash + 1)) +
             ":" + std::to_string(f.line) + " ";
    }
    return s;
}

bool same(const SymbolFrame& a, const SymbolFrame& b) {
    return a.function == b.function && a.file == b.file && a.line == b.line;
}

// The same file named relative to the compilation directory by one and absolute by the other.
bool same_file_modulo_directory(const std::string& a, const std::string& b) {
    const auto tail = [](const std::string& path) {
        std::string t = path;
        while (t.rfind("../", 0) == 0) t.erase(0, 3);
        return t;
    };
    const std::string ta = tail(a), tb = tail(b);
    const auto ends_with = [](const std::string& s, const std::string& end) {
        return s.size() >= end.size() && s.compare(s.size() - end.size(), end.size(), end) == 0;
    };
    return ends_with(a, tb) || ends_with(b, ta);
}

enum class Difference { none, file_directory_only, function_name_only, line, chain_length };

Difference classify(const Chain& a, const Chain& b) {
    if (a.size() != b.size()) return Difference::chain_length;
    Difference worst = Difference::none;
    for (size_t f = 0; f < a.size(); ++f) {
        if (a[f].line != b[f].line || !same_file_modulo_directory(a[f].file, b[f].file))
            return Difference::line;
        if (a[f].function != b[f].function)
            worst = Difference::function_name_only;
        else if (a[f].file != b[f].file && worst == Difference::none)
            worst = Difference::file_directory_only;
    }
    return worst;
}

} // namespace

int main(int argc, char** argv) {
    if (argc != 3) {
        std::fprintf(stderr, "usage: %s EXECUTABLE ADDRESS_FILE (hex file addresses, one a line)\n",
                     argv[0]);
        return 2;
    }
    const std::string exe = argv[1];
    std::vector<uintptr_t> addresses;
    {
        std::ifstream in(argv[2]);
        std::string word;
        while (in >> word) addresses.push_back(std::stoull(word, nullptr, 16));
    }
    if (addresses.size() < 2) {
        std::fprintf(stderr, "need at least 2 addresses in %s\n", argv[2]);
        return 2;
    }
    const std::vector<uintptr_t> rest(addresses.begin() + 1, addresses.end());

    // libbacktrace first, so that its growth of this process's memory is what VmHWM shows.
    const long rss_before = peak_rss_kib();
    auto start = Clock::now();
    backtrace_state* state = backtrace_create_state(exe.c_str(), 0, report_error, nullptr);
    const uintptr_t bias = own_load_bias();
    std::vector<Chain> lb(addresses.size());
    lb[0] = libbacktrace_chain(state, addresses[0] + bias);
    const double lb_first = ms_since(start);
    start = Clock::now();
    for (size_t i = 1; i < addresses.size(); ++i)
        lb[i] = libbacktrace_chain(state, addresses[i] + bias);
    const double lb_rest = ms_since(start);
    const long rss_after = peak_rss_kib();

    const simt::detail::platform::LoadedModule module{exe, 0};
    start = Clock::now();
    auto a2l = simt::detail::platform::symbolize(module, {addresses[0]});
    const double a2l_first = ms_since(start);
    start = Clock::now();
    auto a2l_rest_chains = simt::detail::platform::symbolize(module, rest);
    const double a2l_rest = ms_since(start);
    a2l.insert(a2l.end(), a2l_rest_chains.begin(), a2l_rest_chains.end());

    size_t differ = 0, differ_inner = 0, shown = 0, frames_lb = 0, frames_a2l = 0;
    size_t by_kind[5] = {};
    const bool quiet = std::getenv("QUIET") != nullptr;
    for (size_t i = 0; i < addresses.size(); ++i) {
        frames_lb += lb[i].size();
        frames_a2l += a2l[i].size();
        bool equal = lb[i].size() == a2l[i].size();
        for (size_t f = 0; equal && f < lb[i].size(); ++f) equal = same(lb[i][f], a2l[i][f]);
        if (equal) continue;
        ++differ;
        const Difference kind = classify(a2l[i], lb[i]);
        ++by_kind[static_cast<int>(kind)];
        const bool inner_equal = !lb[i].empty() && !a2l[i].empty() &&
                                 lb[i][0].file == a2l[i][0].file && lb[i][0].line == a2l[i][0].line;
        if (!inner_equal) ++differ_inner;
        if (quiet && kind > Difference::function_name_only)
            std::printf("differs 0x%llx | %s| %s\n", static_cast<unsigned long long>(addresses[i]),
                        lines_of(a2l[i]).c_str(), lines_of(lb[i]).c_str());
        if (!quiet && kind > Difference::function_name_only && shown++ < 12)
            std::printf("0x%llx\n  addr2line:    %s\n  libbacktrace: %s\n",
                        static_cast<unsigned long long>(addresses[i]), show(a2l[i]).c_str(),
                        show(lb[i]).c_str());
    }
    const double n = static_cast<double>(rest.size());
    std::printf("addresses %zu; frames addr2line %zu, libbacktrace %zu\n", addresses.size(),
                frames_a2l, frames_lb);
    std::printf("addr2line:    first answer %.1f ms, then %.2f us per lookup\n", a2l_first,
                1000 * a2l_rest / n);
    std::printf("libbacktrace: first answer %.1f ms, then %.2f us per lookup, peak RSS +%ld KiB\n",
                lb_first, 1000 * lb_rest / n, rss_after - rss_before);
    std::printf("chains differing: %zu (innermost file:line differing: %zu); by kind: directory of"
                " the file only %zu, function name only %zu, a line or file %zu, chain length"
                " %zu\n",
                differ, differ_inner, by_kind[1], by_kind[2], by_kind[3], by_kind[4]);
    return 0;
}
