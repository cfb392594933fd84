// What the emulator needs from the operating system, the executable format and the processor, in
// one place. Everything else in the runtime is portable C++ and POSIX.
//   platform_linux.cpp, platform_linux_addr2line.cpp   Linux (ELF, glibc): x86-64 and aarch64
//   platform_darwin.cpp, platform_darwin_atos.cpp      macOS (Mach-O, dyld): arm64 and x86-64
// common/simt/CMakeLists.txt picks one pair; docs/platforms.md says what is verified where.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace simt::detail::platform {

// --- loaded images (the program and its shared libraries) ---

struct AddressRange {
    uintptr_t lo = 0, hi = 0; // [lo, hi)
};

// The mapped ranges of every loaded image that the image itself never writes (code, string
// literals, static const tables). Read once by the caller; images loaded later are not seen.
std::vector<AddressRange> readonly_image_ranges();

struct LoadedModule {
    std::string path;   // the file, as the symbolizer must be told (never "/proc/self/exe")
    uintptr_t base = 0; // where it is loaded: the ELF load bias, the Mach-O header's address
};

// The image whose mapped code or data contains `address`, if any.
std::optional<LoadedModule> module_containing(uintptr_t address);

// --- source lines ---

struct SymbolFrame {
    std::string function; // empty if unknown
    std::string file;     // empty if unknown
    int line = 0;
};

// For each address (absolute, inside `module`), its chain of frames through inlined functions,
// innermost first; an empty chain where nothing is known. Runs the platform's symbolizer
// (addr2line, atos), which reads the debug information of `module`.
std::vector<std::vector<SymbolFrame>> symbolize(const LoadedModule& module,
                                                const std::vector<uintptr_t>& addresses);

// --- stack guards and faults ---

// How many inaccessible bytes each fiber stack needs below it, so that a thread that overflows
// touches them before anything else: the compiler's stack probe interval (-fstack-clash-
// protection), and at least a page. GCC probes every 4 KiB on x86-64 but every 64 KiB on
// aarch64, where a one-page guard would be jumped over.
size_t stack_guard_bytes();

// The signals a touch of an inaccessible (PROT_NONE) page raises: SIGSEGV on Linux; macOS
// raises SIGBUS for some and SIGSEGV for others.
std::span<const int> guard_page_signals();

// The address of the faulting instruction, from the third argument of an SA_SIGINFO handler;
// nullptr where this platform's context is not understood. Async-signal-safe.
const void* fault_pc(const void* signal_context);

} // namespace simt::detail::platform
