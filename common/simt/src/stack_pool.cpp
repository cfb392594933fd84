#include "stack_pool.h"

#include <sys/mman.h>
#include <unistd.h>

#include <new>

#include "platform.h"

namespace simt::detail {

namespace {
size_t page_size() {
    static const size_t size = static_cast<size_t>(sysconf(_SC_PAGESIZE));
    return size;
}
size_t round_up(size_t n, size_t to) {
    return (n + to - 1) / to * to;
}
// Whole pages, at least what the compiler's stack probes may skip (platform.h).
size_t guard_size() {
    static const size_t size = round_up(platform::stack_guard_bytes(), page_size());
    return size;
}
} // namespace

StackPool::~StackPool() {
    for (const Slab& s : free_) munmap(s.base, s.total);
}

boost::context::stack_context StackPool::allocate(size_t usable_bytes) {
    size_t usable = round_up(usable_bytes, page_size());
    if (usable != cached_size_) trim_to(usable);
    Slab slab{};
    if (!free_.empty()) {
        slab = free_.back();
        free_.pop_back();
    } else {
        slab.total = usable + guard_size();
        slab.base = mmap(nullptr, slab.total, PROT_READ | PROT_WRITE,
                         MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (slab.base == MAP_FAILED) throw std::bad_alloc();
        // The lowest pages stay inaccessible: a stack overflow faults instead of corrupting.
        mprotect(slab.base, guard_size(), PROT_NONE);
    }
    boost::context::stack_context ctx;
    ctx.size = slab.total - guard_size();
    ctx.sp = static_cast<char*>(slab.base) + slab.total; // stacks grow down
    return ctx;
}

void StackPool::release(const boost::context::stack_context& stack) {
    if (stack.sp == nullptr) return;
    size_t total = stack.size + guard_size();
    void* base = static_cast<char*>(stack.sp) - total;
    if (stack.size != cached_size_) {
        munmap(base, total);
        return;
    }
    free_.push_back(Slab{base, total});
}

const char* StackPool::top_ahead(size_t k, size_t usable_bytes) const {
    if (round_up(usable_bytes, page_size()) != cached_size_ || k >= free_.size()) return nullptr;
    const Slab& s = free_[free_.size() - 1 - k];
    return static_cast<const char*>(s.base) + s.total;
}

size_t StackPool::guard_bytes() {
    return guard_size();
}

size_t StackPool::slab_bytes(size_t usable_bytes) {
    return round_up(usable_bytes, page_size()) + guard_size();
}

void StackPool::trim_to(size_t usable_bytes) {
    for (const Slab& s : free_) munmap(s.base, s.total);
    free_.clear();
    cached_size_ = usable_bytes;
}

StackPool& stack_pool() {
    static StackPool pool;
    return pool;
}

} // namespace simt::detail
