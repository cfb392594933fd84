// Fiber stacks for emulated threads: mmap'd with guard pages below (as many as the compiler's
// stack probes need: platform.h), kept for reuse so that a
// launch of many blocks does not pay for mmap/munmap per thread.
#pragma once

#include <cstddef>
#include <vector>

#include <boost/context/stack_context.hpp>

namespace simt::detail {

class StackPool {
  public:
    ~StackPool();
    boost::context::stack_context allocate(size_t usable_bytes);
    void release(const boost::context::stack_context& stack);
    // The top of the stack that the k-th allocate() from now hands out, if the pool holds it
    // and it has the size asked for (else null): for a prefetch of the lines it will write.
    const char* top_ahead(size_t k, size_t usable_bytes) const;
    // Drops cached stacks of another size (the option changed).
    void trim_to(size_t usable_bytes);
    // The inaccessible bytes below each stack (platform::stack_guard_bytes(), in whole pages).
    static size_t guard_bytes();
    // The address space a stack of usable_bytes takes with its guard (the distance between the
    // tops of two stacks mapped one after the other).
    static size_t slab_bytes(size_t usable_bytes);

  private:
    struct Slab {
        void* base;
        size_t total;
    };
    size_t cached_size_ = 0;
    std::vector<Slab> free_;
};

StackPool& stack_pool();

} // namespace simt::detail
