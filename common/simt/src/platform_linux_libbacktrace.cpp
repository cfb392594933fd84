// Linux side of platform::symbolize through libbacktrace (GCC's, shipped in libgcc-N-dev): reads
// the debug information of every loaded image in this process, no helper process.
// PROTOTYPE for issue 17: measured against platform_linux_addr2line.cpp, not built by default.
#include <backtrace.h>
#include <cxxabi.h>

#include <cstdlib>
#include <memory>
#include <mutex>

#include "platform.h"

namespace simt::detail::platform {

namespace {

// libbacktrace's names are the DWARF linkage names: mangled, where addr2line -C demangles.
std::string demangled(const char* name) {
    if (name == nullptr) return {};
    int status = 0;
    std::unique_ptr<char, decltype(&std::free)> plain(
        abi::__cxa_demangle(name, nullptr, nullptr, &status), &std::free);
    return status == 0 && plain ? std::string(plain.get()) : std::string(name);
}

void ignore_error(void*, const char*, int) {}

// One state for the whole process: libbacktrace finds the images itself (dl_iterate_phdr) and
// reads each one's debug information at its first lookup. It cannot be freed, so it is made once.
backtrace_state* process_state() {
    static backtrace_state* state = backtrace_create_state(nullptr, 1, ignore_error, nullptr);
    return state;
}

int add_frame(void* data, uintptr_t, const char* file, int line, const char* function) {
    auto& chain = *static_cast<std::vector<SymbolFrame>*>(data);
    if (file == nullptr && function == nullptr) return 0; // nothing known: an empty chain
    chain.push_back({demangled(function), file ? file : "", file ? line : 0});
    return 0; // 0: go on to the next (outer) inlined frame
}

// Without line information, the name of the symbol, as addr2line -f prints it.
void add_symbol(void* data, uintptr_t, const char* symbol, uintptr_t, uintptr_t) {
    auto& chain = *static_cast<std::vector<SymbolFrame>*>(data);
    if (symbol != nullptr) chain.push_back({demangled(symbol), "", 0});
}

std::mutex state_mutex;

} // namespace

std::vector<std::vector<SymbolFrame>> symbolize(const LoadedModule&,
                                                const std::vector<uintptr_t>& addresses) {
    std::lock_guard lock(state_mutex);
    std::vector<std::vector<SymbolFrame>> frames(addresses.size());
    backtrace_state* state = process_state();
    if (state == nullptr) return frames;
    for (size_t k = 0; k < addresses.size(); ++k) {
        backtrace_pcinfo(state, addresses[k], add_frame, ignore_error, &frames[k]);
        if (frames[k].empty())
            backtrace_syminfo(state, addresses[k], add_symbol, ignore_error, &frames[k]);
    }
    return frames;
}

} // namespace simt::detail::platform
