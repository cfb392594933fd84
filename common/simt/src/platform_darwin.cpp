// macOS (Mach-O, dyld) side of platform.h: images through the _dyld_* image list and their load
// commands, the fault PC from the Mach thread state. Source lines are in platform_darwin_atos.cpp.
// Written for macOS on arm64 (x86-64 too) but never compiled or run: this project has no Mac
// (docs/platforms.md).
#include "platform.h"

#include <dlfcn.h>
#include <mach-o/dyld.h>
#include <mach-o/loader.h>
#include <mach/vm_prot.h>
#include <signal.h>
#include <sys/ucontext.h>
#include <unistd.h>

#include <algorithm>

namespace simt::detail::platform {

namespace {

// Calls `visit(segment, slide)` for every 64-bit segment of loaded image `index`.
template <class Visit>
void for_each_segment(uint32_t index, Visit visit) {
    const auto* header = reinterpret_cast<const mach_header_64*>(_dyld_get_image_header(index));
    if (!header || header->magic != MH_MAGIC_64) return;
    const intptr_t slide = _dyld_get_image_vmaddr_slide(index);
    const char* command = reinterpret_cast<const char*>(header + 1);
    for (uint32_t c = 0; c < header->ncmds; ++c) {
        const auto* load = reinterpret_cast<const load_command*>(command);
        if (load->cmd == LC_SEGMENT_64)
            visit(*reinterpret_cast<const segment_command_64*>(load), slide);
        command += load->cmdsize;
    }
}

} // namespace

std::vector<AddressRange> readonly_image_ranges() {
    std::vector<AddressRange> ranges;
    const uint32_t images = _dyld_image_count();
    for (uint32_t i = 0; i < images; ++i) {
        for_each_segment(i, [&](const segment_command_64& segment, intptr_t slide) {
            // __PAGEZERO has no access at all; writable segments (__DATA) are not read-only.
            const bool readable = segment.initprot & VM_PROT_READ;
            const bool writable = segment.initprot & VM_PROT_WRITE;
            if (!readable || writable || segment.vmsize == 0) return;
            const uintptr_t lo = static_cast<uintptr_t>(segment.vmaddr + slide);
            ranges.push_back(AddressRange{lo, lo + static_cast<uintptr_t>(segment.vmsize)});
        });
    }
    return ranges;
}

std::optional<LoadedModule> module_containing(uintptr_t address) {
    Dl_info info{};
    if (!dladdr(reinterpret_cast<const void*>(address), &info) || !info.dli_fname ||
        !info.dli_fbase)
        return std::nullopt;
    // dli_fname is the image's real path (dyld's), usable by atos in another process.
    return LoadedModule{info.dli_fname, reinterpret_cast<uintptr_t>(info.dli_fbase)};
}

size_t stack_guard_bytes() {
    const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE)); // 16 KiB on Apple silicon
#if defined(__arm64__) || defined(__aarch64__)
    // As on Linux: a compiler's stack-clash probes on arm64 may be 64 KiB apart.
    return std::max<size_t>(page, 64 * 1024);
#else
    return page;
#endif
}

std::span<const int> guard_page_signals() {
    // A touch of a PROT_NONE page is SIGBUS on macOS in most cases, SIGSEGV in others.
    static constexpr int signals[] = {SIGBUS, SIGSEGV};
    return signals;
}

const void* fault_pc(const void* signal_context) {
    const auto* context = static_cast<const ucontext_t*>(signal_context);
    if (!context->uc_mcontext) return nullptr;
#if defined(__arm64__)
    // The accessor strips pointer authentication where the thread state is opaque (arm64e).
    return reinterpret_cast<const void*>(
        __darwin_arm_thread_state64_get_pc(context->uc_mcontext->__ss));
#elif defined(__x86_64__)
    return reinterpret_cast<const void*>(context->uc_mcontext->__ss.__rip);
#else
    return nullptr;
#endif
}

} // namespace simt::detail::platform
