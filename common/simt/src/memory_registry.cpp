#include "memory_registry.h"

#include <algorithm>

#include "checks/global_shadow.h" // memory_map_generation

namespace simt::detail {

const char* to_string(RegionKind kind) {
    switch (kind) {
    case RegionKind::device:
        return "device allocation";
    case RegionKind::managed:
        return "managed allocation";
    case RegionKind::pinned_host:
        return "pinned host allocation";
    case RegionKind::symbol:
        return "__device__ symbol";
    case RegionKind::parameters:
        return "kernel parameters";
    }
    return "region";
}

const char* describe(const Region& region) {
    return region.heap ? "device heap allocation" : to_string(region.kind);
}

const Region& MemoryRegistry::add(uintptr_t base, size_t bytes, RegionKind kind, std::string name,
                                  bool writable, bool heap) {
    freed_.erase(base);
    Region r{base, bytes, kind, std::move(name), next_serial_++, writable, heap, false, {}};
    if ((kind == RegionKind::device || kind == RegionKind::managed) && !heap)
        device_bytes_ += bytes;
    forget_recent();
    return live_.insert_or_assign(base, std::move(r)).first->second;
}

bool MemoryRegistry::remove(uintptr_t base, Region* removed) {
    auto it = live_.find(base);
    if (it == live_.end()) return false;
    if ((it->second.kind == RegionKind::device || it->second.kind == RegionKind::managed) &&
        !it->second.heap)
        device_bytes_ -= it->second.bytes;
    if (removed) *removed = it->second;
    if (freed_.size() > 4096) freed_.erase(freed_.begin());
    freed_.insert_or_assign(base, it->second);
    live_.erase(it);
    forget_recent();
    return true;
}

void MemoryRegistry::forget_recent() const {
    for (const Region*& r : recent_) r = nullptr;
    ++memory_map_generation;
}

const Region* MemoryRegistry::find(uintptr_t address) const {
    for (unsigned i = 0; i < kRecent; ++i) {
        const Region* r = recent_[i];
        if (r && address - r->base < r->bytes) {
            std::copy_backward(recent_, recent_ + i, recent_ + i + 1); // r first
            recent_[0] = r;
            return r;
        }
    }
    auto it = live_.upper_bound(address);
    if (it == live_.begin()) return nullptr;
    --it;
    if (address - it->second.base < it->second.bytes) {
        std::copy_backward(recent_, recent_ + kRecent - 1, recent_ + kRecent);
        recent_[0] = &it->second;
        return &it->second;
    }
    return nullptr;
}

bool MemoryRegistry::mark_self_tagged(uintptr_t address, size_t bytes) {
    auto it = live_.upper_bound(address);
    if (it == live_.begin()) return false;
    Region& r = (--it)->second;
    if (address - r.base >= r.bytes || bytes > r.base + r.bytes - address) return false;
    const std::pair<uintptr_t, uintptr_t> range{address, address + bytes};
    if (std::find(r.self_tagged.begin(), r.self_tagged.end(), range) == r.self_tagged.end())
        r.self_tagged.push_back(range);
    return true;
}

bool MemoryRegistry::track_kernel_writes(uintptr_t address, bool tracked) {
    auto it = live_.upper_bound(address);
    if (it == live_.begin()) return false;
    Region& r = (--it)->second;
    if (address - r.base >= r.bytes) return false;
    r.kernel_writes_tracked = tracked;
    ++memory_map_generation; // a cached region may no longer take fast writes
    return true;
}

const Region* MemoryRegistry::find_range(uintptr_t address, size_t bytes) const {
    const Region* r = find(address);
    if (!r) return nullptr;
    return address + bytes <= r->base + r->bytes ? r : nullptr;
}

const Region* MemoryRegistry::find_freed(uintptr_t address) const {
    auto it = freed_.upper_bound(address);
    if (it == freed_.begin()) return nullptr;
    --it;
    return address - it->second.base < it->second.bytes ? &it->second : nullptr;
}

const Region* MemoryRegistry::nearest_below(uintptr_t address) const {
    auto it = live_.upper_bound(address);
    if (it == live_.begin()) return nullptr;
    --it;
    return &it->second;
}

MemoryRegistry& memory_registry() {
    static MemoryRegistry registry;
    return registry;
}

} // namespace simt::detail
