#include "fault_format.h"

#include <dlfcn.h>

#include <cxxabi.h>

#include <cstdlib>
#include <memory>
#include <sstream>

#include "memory_registry.h"
#include "source_lines.h"

namespace simt::detail {

std::string kernel_name(const void* kernel) {
    Dl_info info{};
    if (dladdr(kernel, &info) && info.dli_sname) {
        int status = 0;
        std::unique_ptr<char, void (*)(void*)> demangled(
            abi::__cxa_demangle(info.dli_sname, nullptr, nullptr, &status), std::free);
        return status == 0 && demangled ? demangled.get() : info.dli_sname;
    }
    // Not exported (static or PIE without -rdynamic): ask the debug info.
    SourceLocation loc = resolve_source(static_cast<const char*>(kernel) + 1);
    return loc.function.empty() ? "kernel" : loc.function;
}

std::string format_fault(FaultKind kind, const std::string& what, const std::string& thread,
                         const void* site, const void* kernel) {
    std::ostringstream out;
    out << "simt: " << to_string(kind) << " in kernel " << kernel_name(kernel) << "\n";
    out << "  " << what << "\n";
    if (site) {
        SourceLocation loc = resolve_source(site);
        out << "  at " << loc.to_string();
        if (!loc.function.empty()) out << " in " << loc.function;
        out << "\n";
    }
    if (!thread.empty()) out << "  by " << thread << "\n";
    return out.str();
}

std::string explain_bad_address(uintptr_t address, size_t bytes, const char* verb) {
    std::ostringstream out;
    out << "illegal " << verb << " of " << bytes << " bytes at address 0x" << std::hex << address
        << std::dec << ": ";
    const MemoryRegistry& registry = memory_registry();
    if (address < 4096) {
        out << "a null pointer (plus " << address << " bytes)";
        return out.str();
    }
    if (const Region* r = registry.find(address)) {
        out << "the access runs past the end of a " << describe(*r) << " of " << r->bytes
            << " bytes (offset " << (address - r->base) << ")";
        return out.str();
    }
    if (const Region* f = registry.find_freed(address)) {
        out << "this is inside a " << describe(*f) << " of " << f->bytes
            << " bytes that was already freed ("
            << (f->heap ? "free or delete in a kernel: a use after free" : "cudaFree") << ")";
        return out.str();
    }
    if (const Region* below = registry.nearest_below(address);
        below && (below->kind == RegionKind::device || below->kind == RegionKind::managed)) {
        uintptr_t end = below->base + below->bytes;
        if (address >= end && address - end < 1 << 20) {
            // How far the access reaches beyond the allocation, as for shared variables: one
            // int past the end is "4 bytes past the end".
            out << (address + bytes - end) << " bytes past the end of a " << describe(*below)
                << " of " << below->bytes << " bytes (index out of range?)";
            return out.str();
        }
    }
    out << "not device memory (a host pointer passed to the kernel? use cudaMalloc and "
           "cudaMemcpy)";
    return out.str();
}

} // namespace simt::detail
