// The device heap (simt/device_heap.h): malloc/free and new/delete in kernels. Like a GPU's, the
// heap has a fixed size, cudaLimitMallocHeapSize (8 MiB unless set before its first use), taken
// from one mapping made at the first allocation; an allocation that does not fit returns null.
// Each allocation is registered as device memory (memory_registry.h, Region::heap), so the
// checks treat it as any: an access past its end (allocations lie 16 bytes apart, in gaps no
// allocation uses) or after its free is an illegal address, a read of a word no thread wrote an
// uninitialized read, and races are races. A freed block is reused only once the heap has been
// gone through (next fit), so a use after free is found even when the heap is busy. Freeing
// what malloc or new did not return (twice, a cudaMalloc pointer, a pointer into an allocation)
// ends the launch with a report that says which. cudaDeviceReset frees the heap.
#include <sys/mman.h>

#include <cstring>
#include <map>
#include <sstream>

#include "device_heap.h"

#include "checks/global_shadow.h"
#include "data_flow.h"
#include "engine.h"
#include "memory_registry.h"
#include "simt/device_heap.h"
#include "simt/limits_and_hints.h"
#include "simt/runtime_api.h"

namespace simt::detail {
namespace {

constexpr size_t kAlignment = 16; // what CUDA's malloc promises
constexpr size_t kGap = 16;       // between allocations: a step past one's end hits no other

class HeapState {
  public:
    bool in_use() const { return arena_ != nullptr; }

    // Null when it does not fit (or the heap has no bytes).
    void* allocate(size_t bytes) {
        if (!arena_ && !map_arena()) return nullptr;
        const size_t need = round_up(bytes == 0 ? 1 : bytes) + kGap;
        auto hole = find_hole(cursor_, arena_bytes_, need);
        if (hole == free_.end()) hole = find_hole(0, cursor_, need);
        if (hole == free_.end()) return nullptr;
        const size_t offset = hole->first, hole_bytes = hole->second;
        free_.erase(hole);
        if (hole_bytes > need) free_.emplace(offset + need, hole_bytes - need);
        cursor_ = offset + need;
        const uintptr_t base = reinterpret_cast<uintptr_t>(arena_) + offset;
        live_.emplace(base, Block{bytes, need});
        // Fresh heap memory holds garbage on a GPU: a fixed pattern, and nothing written yet.
        std::memset(reinterpret_cast<void*>(base), 0xCD, bytes);
        memory_registry().add(base, bytes, RegionKind::device, {}, true, /*heap=*/true);
        global_shadow().forget_words(base, bytes);
        data_flow().mark(base, bytes, false);
        return reinterpret_cast<void*>(base);
    }

    // The live allocation containing `address`: its start and requested size (false if none).
    bool containing(uintptr_t address, uintptr_t* base, size_t* bytes) const {
        auto it = live_.upper_bound(address);
        if (it == live_.begin()) return false;
        --it;
        if (address - it->first >= it->second.used) return false;
        *base = it->first;
        *bytes = it->second.bytes;
        return true;
    }

    // Frees the allocation that starts at `base` (which must be one).
    void release(uintptr_t base) {
        auto it = live_.find(base);
        const Block block = it->second;
        live_.erase(it);
        memory_registry().remove(base);
        global_shadow().forget_words(base, block.bytes);
        data_flow().mark(base, block.bytes, false);
        size_t offset = base - reinterpret_cast<uintptr_t>(arena_), length = block.used;
        // Coalesce with the holes on either side.
        auto next = free_.lower_bound(offset);
        if (next != free_.end() && next->first == offset + length) {
            length += next->second;
            next = free_.erase(next);
        }
        if (next != free_.begin()) {
            auto before = std::prev(next);
            if (before->first + before->second == offset) {
                offset = before->first;
                length += before->second;
                free_.erase(before);
            }
        }
        free_.emplace(offset, length);
    }

    bool is_live(uintptr_t base) const { return live_.count(base) != 0; }

    // Frees everything and gives the mapping back (cudaDeviceReset).
    void reset() {
        for (const auto& [base, block] : live_) {
            memory_registry().remove(base);
            global_shadow().forget_words(base, block.bytes);
            data_flow().mark(base, block.bytes, false);
        }
        live_.clear();
        free_.clear();
        if (arena_) munmap(arena_, arena_bytes_);
        arena_ = nullptr;
        arena_bytes_ = 0;
        cursor_ = 0;
    }

  private:
    struct Block {
        size_t bytes; // as asked
        size_t used;  // of the heap: rounded up, and the gap after it
    };
    static size_t round_up(size_t bytes) {
        return bytes > ~size_t{0} - 2 * kAlignment
                   ? ~size_t{0} - 2 * kAlignment
                   : (bytes + kAlignment - 1) / kAlignment * kAlignment;
    }

    bool map_arena() {
        size_t limit = 0;
        cudaDeviceGetLimit(&limit, cudaLimitMallocHeapSize);
        arena_bytes_ = (limit + 4095) / 4096 * 4096;
        if (arena_bytes_ == 0) arena_bytes_ = 4096; // in use, though nothing fits
        void* p = mmap(nullptr, arena_bytes_, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (p == MAP_FAILED) {
            arena_bytes_ = 0;
            return false;
        }
        arena_ = static_cast<unsigned char*>(p);
        free_.clear();
        if (limit > 0) free_.emplace(0, limit);
        cursor_ = 0;
        return true;
    }

    // The first hole at an offset in [from, to) with at least `need` bytes.
    std::map<size_t, size_t>::iterator find_hole(size_t from, size_t to, size_t need) {
        for (auto it = free_.lower_bound(from); it != free_.end() && it->first < to; ++it)
            if (it->second >= need) return it;
        // A hole that starts before `from` may reach past it.
        if (from > 0) {
            auto it = free_.lower_bound(from);
            if (it != free_.begin() && std::prev(it)->second >= need) return std::prev(it);
        }
        return free_.end();
    }

    unsigned char* arena_ = nullptr;
    size_t arena_bytes_ = 0;
    size_t cursor_ = 0;               // next fit starts here
    std::map<size_t, size_t> free_;   // offset -> bytes, coalesced
    std::map<uintptr_t, Block> live_; // address -> its block
};

HeapState& heap() {
    static HeapState h;
    return h;
}

std::string heap_hex(uintptr_t p) {
    std::ostringstream s;
    s << "0x" << std::hex << p;
    return s.str();
}

// Ends the launch: `how` (free, delete, delete[]) was given what the heap did not hand out.
[[noreturn]] void bad_release(Engine& engine, uintptr_t p, const char* how, const void* site) {
    std::string what = std::string(how) + " of " + heap_hex(p) + ": ";
    const Region* live = memory_registry().find(p);
    const Region* freed = memory_registry().find_freed(p);
    uintptr_t base = 0;
    size_t bytes = 0;
    if (heap().containing(p, &base, &bytes)) {
        what += "a pointer " + std::to_string(p - base) +
                " bytes into a device heap allocation of " + std::to_string(bytes) +
                " bytes (only what malloc or new returned may be freed)";
    } else if (!live && freed && freed->heap && freed->base == p) {
        what += "a double free: this device heap allocation of " + std::to_string(freed->bytes) +
                " bytes was already freed";
    } else if (live && !live->heap && live->kind == RegionKind::device) {
        what += "memory from cudaMalloc, which only cudaFree on the host may free";
    } else if (live) {
        what += std::string("a ") + describe(*live) + ", not memory from malloc or new in a kernel";
    } else if (freed && freed->heap) {
        what += "inside a device heap allocation of " + std::to_string(freed->bytes) +
                " bytes that was already freed";
    } else {
        what += "not memory from malloc or new in a kernel";
    }
    engine.fault(FaultKind::illegal_address, cudaErrorIllegalAddress, what, site);
}

void* allocate_at(size_t bytes, const char* what) {
    Engine& engine = engine_for(what);
    RuntimeScope scope(engine.current());
    return heap().allocate(bytes);
}

void release_at(void* p, const char* how, const void* site) {
    if (!p) return;
    Engine& engine = engine_for(how);
    RuntimeScope scope(engine.current());
    const auto address = reinterpret_cast<uintptr_t>(p);
    if (!heap().is_live(address)) bad_release(engine, address, how, site);
    heap().release(address);
}

} // namespace

bool device_heap_in_use() {
    return heap().in_use();
}

void device_heap_reset() {
    heap().reset();
}

void device_heap_release(void* p, const char* how) {
    release_at(p, how, __builtin_return_address(0));
}

size_t device_heap_array_count(const void* p, size_t element_bytes, size_t cookie_max) {
    Engine& engine = engine_for("delete[]");
    RuntimeScope scope(engine.current());
    const auto address = reinterpret_cast<uintptr_t>(p);
    uintptr_t base = 0;
    size_t bytes = 0;
    if (!heap().containing(address, &base, &bytes) || address - base > cookie_max ||
        address - base > bytes)
        bad_release(engine, address, "delete[]", __builtin_return_address(0));
    return (bytes - (address - base)) / element_bytes;
}

void device_heap_release_array(void* p, size_t cookie_max) {
    const void* site = __builtin_return_address(0);
    Engine& engine = engine_for("delete[]");
    RuntimeScope scope(engine.current());
    const auto address = reinterpret_cast<uintptr_t>(p);
    uintptr_t base = 0;
    size_t bytes = 0;
    if (!heap().containing(address, &base, &bytes) || address - base > cookie_max)
        bad_release(engine, address, "delete[]", site);
    heap().release(base);
}

} // namespace simt::detail

void* simt::device_malloc(size_t bytes) {
    return detail::allocate_at(bytes, "malloc");
}

void simt::device_free(void* p) {
    detail::release_at(p, "free", __builtin_return_address(0));
}

void* operator new(std::size_t bytes, simt::DeviceHeapTag) noexcept {
    return simt::detail::allocate_at(bytes, "new");
}
void* operator new[](std::size_t bytes, simt::DeviceHeapTag) noexcept {
    return simt::detail::allocate_at(bytes, "new[]");
}
void operator delete(void* p, simt::DeviceHeapTag) noexcept {
    simt::detail::release_at(p, "delete", __builtin_return_address(0));
}
void operator delete[](void* p, simt::DeviceHeapTag) noexcept {
    simt::detail::release_at(p, "delete[]", __builtin_return_address(0));
}
