// The bookkeeping behind simt/provenance.h: for each 4-byte word of the watched outputs, the host
// call that wrote it last (or none: a kernel did, or nothing wrote it), whether a kernel stored
// to it, and its value when the watch began (a word that changed with neither a kernel store nor
// a host call was changed by host code through the pointer: the emulator's device memory is host
// memory); and which device memory holds the watched inputs or host-made copies of them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace simt::detail {

class Provenance {
  public:
    bool armed() const { return armed_; }
    void begin();
    void watch_input(uintptr_t base, size_t bytes);
    void watch_output(uintptr_t base, size_t bytes);
    // Host code wrote [dst, dst + bytes) of device memory through `call`; `caller` is the return
    // address into the code that called it (its line goes into the message).
    void host_wrote(uintptr_t dst, size_t bytes, const char* call, const void* caller);
    // Host code read [src, src + bytes) of device memory into host memory.
    void host_read(uintptr_t src, size_t bytes, const char* call, const void* caller);
    // Host code copied device memory to device memory: an input copied elsewhere stays an input.
    void host_copied(uintptr_t dst, uintptr_t src, size_t bytes, const char* call,
                     const void* caller);
    // A kernel stored to (or made an atomic on) [address, address + bytes).
    void kernel_wrote(uintptr_t address, size_t bytes);
    std::string end();

  private:
    struct HostCall {
        std::string call;
        const void* caller = nullptr;
    };
    struct Output {
        uintptr_t base = 0;
        size_t bytes = 0;
        std::vector<uint32_t> host_writer;  // per word: 0, or 1 + index into calls_
        std::vector<uint8_t> kernel_stored; // per word: a kernel stored to it during the watch
        std::vector<uint32_t> before;       // per word: its value when the watch began
    };
    using Range = std::pair<uintptr_t, uintptr_t>; // [first, last)
    bool overlaps_input(uintptr_t first, uintptr_t last) const;
    uint32_t remember(const char* call, const void* caller);
    void untrack_all();

    bool armed_ = false;
    std::vector<Output> outputs_;
    std::vector<Range> inputs_; // the watched inputs and device copies of them
    std::vector<HostCall> calls_;
    bool input_read_ = false;
    HostCall input_reader_;
};

Provenance& provenance();

} // namespace simt::detail
