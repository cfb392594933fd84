// Every range of memory that device code may touch: cudaMalloc'd and managed allocations, pinned
// host memory, __device__/__constant__ symbols and the running launch's parameter block. A kernel
// access outside all of them is an illegal address, as on a GPU.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace simt::detail {

enum class RegionKind { device, managed, pinned_host, symbol, parameters };
const char* to_string(RegionKind kind);
struct Region;
// What reports call the region: to_string(kind), or "device heap allocation".
const char* describe(const Region& region);

struct Region {
    uintptr_t base = 0;
    size_t bytes = 0;
    RegionKind kind = RegionKind::device;
    std::string name; // symbol name, or empty
    uint64_t serial = 0;
    bool writable_from_device = true;
    // A kind-`device` allocation from the device heap (malloc or new in a kernel:
    // device_heap.cpp), which the runtime's copies and cudaFree refuse, as on a GPU.
    bool heap = false;
    // Kernel stores here must reach Engine::access_general (not the fast path), which tells the
    // provenance watch (provenance.h) that a kernel wrote them: set while the region holds words
    // of a watched output that host code wrote last.
    bool kernel_writes_tracked = false;
    // Byte ranges [first, last) of self-tagged words (simt::accept_self_tagged_words): each word
    // there carries its own status, so reading one after another word of its writer's is not a
    // read of data that the other word announced.
    std::vector<std::pair<uintptr_t, uintptr_t>> self_tagged;
    bool is_self_tagged(uintptr_t address) const {
        for (const auto& [first, last] : self_tagged)
            if (address >= first && address < last) return true;
        return false;
    }
};

class MemoryRegistry {
  public:
    const Region& add(uintptr_t base, size_t bytes, RegionKind kind, std::string name = {},
                      bool writable = true, bool heap = false);
    // Removes the region that starts exactly at base; false if there is none.
    bool remove(uintptr_t base, Region* removed = nullptr);
    // The region containing address, or nullptr. Cheap for repeated hits on the same region.
    const Region* find(uintptr_t address) const;
    // The region whose [base, base+bytes) contains the whole access, or nullptr.
    const Region* find_range(uintptr_t address, size_t bytes) const;
    // Marks [address, address + bytes) of one live region as self-tagged words (kept until the
    // region is freed); false if the range is not inside one region.
    bool mark_self_tagged(uintptr_t address, size_t bytes);
    // Sets kernel_writes_tracked of the live region containing address; false if there is none.
    bool track_kernel_writes(uintptr_t address, bool tracked);
    // Whether the access lies in one of the regions of the last few hits (and may write there if
    // `write`): the emulator's fast path, which looks no further. Kernels alternate between a
    // few regions (input, output, parameters), which one entry would keep missing.
    const Region* cached(uintptr_t address, size_t bytes, bool write) const {
        const Region* r = recent_containing(address);
        return r && bytes <= r->base + r->bytes - address &&
                       (!write || (r->writable_from_device && !r->kernel_writes_tracked))
                   ? r
                   : nullptr;
    }
    // A recently freed region containing address (for "use after free" in reports).
    const Region* find_freed(uintptr_t address) const;
    // The nearest live region below address (for "past the end of" in reports).
    const Region* nearest_below(uintptr_t address) const;
    size_t device_bytes_in_use() const { return device_bytes_; }

  private:
    std::map<uintptr_t, Region> live_;
    std::map<uintptr_t, Region> freed_; // bounded history
    // The regions of the last few lookups, most recent first (find() keeps the order: the
    // general path's lookups, polls most of all, find theirs in the first entry or two).
    static constexpr unsigned kRecent = 4;
    mutable const Region* recent_[kRecent] = {};
    void forget_recent() const;
    const Region* recent_containing(uintptr_t address) const {
        for (const Region* r : recent_)
            if (r && address - r->base < r->bytes) return r;
        return nullptr;
    }
    uint64_t next_serial_ = 1;
    size_t device_bytes_ = 0;
};

MemoryRegistry& memory_registry();

} // namespace simt::detail
