// Linux (ELF, glibc) side of platform.h: images through dl_iterate_phdr, the fault PC from
// ucontext_t. Source lines are in platform_linux_addr2line.cpp.
#include "platform.h"

#include <link.h>
#include <signal.h>
#include <ucontext.h>
#include <unistd.h>

#include <algorithm>

namespace simt::detail::platform {

namespace {

// The main program's dlpi_name is empty; the symbolizer runs in another process, so
// "/proc/self/exe" must be resolved here.
std::string own_executable() {
    static const std::string path = [] {
        char buffer[4096];
        const ssize_t n = readlink("/proc/self/exe", buffer, sizeof buffer - 1);
        return n > 0 ? std::string(buffer, static_cast<size_t>(n)) : std::string("/proc/self/exe");
    }();
    return path;
}

int collect_readonly(dl_phdr_info* info, size_t, void* data) {
    auto* ranges = static_cast<std::vector<AddressRange>*>(data);
    for (int i = 0; i < info->dlpi_phnum; ++i) {
        const auto& ph = info->dlpi_phdr[i];
        // Read-only segments, and the part of a writable one that is read-only after
        // relocation (RELRO: the vtables of a position-independent program, which a virtual call
        // of an object that device code made reads).
        if ((ph.p_type == PT_LOAD && !(ph.p_flags & PF_W)) || ph.p_type == PT_GNU_RELRO) {
            const uintptr_t lo = info->dlpi_addr + ph.p_vaddr;
            ranges->push_back(AddressRange{lo, lo + ph.p_memsz});
        }
    }
    return 0;
}

struct ModuleSearch {
    uintptr_t address = 0;
    std::optional<LoadedModule> found;
};

int find_module(dl_phdr_info* info, size_t, void* data) {
    auto* search = static_cast<ModuleSearch*>(data);
    for (int i = 0; i < info->dlpi_phnum; ++i) {
        const auto& ph = info->dlpi_phdr[i];
        if (ph.p_type != PT_LOAD) continue;
        const uintptr_t lo = info->dlpi_addr + ph.p_vaddr;
        if (search->address >= lo && search->address < lo + ph.p_memsz) {
            const bool main_program = !info->dlpi_name || !info->dlpi_name[0];
            search->found =
                LoadedModule{main_program ? own_executable() : info->dlpi_name, info->dlpi_addr};
            return 1;
        }
    }
    return 0;
}

} // namespace

std::vector<AddressRange> readonly_image_ranges() {
    std::vector<AddressRange> ranges;
    dl_iterate_phdr(collect_readonly, &ranges);
    return ranges;
}

std::optional<LoadedModule> module_containing(uintptr_t address) {
    ModuleSearch search{address, std::nullopt};
    dl_iterate_phdr(find_module, &search);
    return search.found;
}

size_t stack_guard_bytes() {
    const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
#if defined(__aarch64__)
    // GCC's -fstack-clash-protection on aarch64 assumes a 64 KiB guard
    // (--param stack-clash-protection-guard-size=16): a frame may move the stack pointer
    // almost that far before its first probe.
    return std::max<size_t>(page, 64 * 1024);
#else
    return page;
#endif
}

std::span<const int> guard_page_signals() {
    static constexpr int signals[] = {SIGSEGV};
    return signals;
}

const void* fault_pc(const void* signal_context) {
    const auto* context = static_cast<const ucontext_t*>(signal_context);
#if defined(__x86_64__)
    return reinterpret_cast<const void*>(context->uc_mcontext.gregs[REG_RIP]);
#elif defined(__aarch64__)
    return reinterpret_cast<const void*>(context->uc_mcontext.pc);
#else
    (void)context;
    return nullptr;
#endif
}

} // namespace simt::detail::platform
