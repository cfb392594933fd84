// Hopper's bulk stores (cp.async.bulk from shared to global memory, with its commit and wait
// groups) and the proxy fence on the emulator; the kernel's side is common/simt/compat/cuda/ptx.
//
// The model follows PTX ("cp.async.bulk", "cp.async.bulk.wait_group", "Async Proxy"):
// - A store runs in the asynchronous proxy. It reads its shared-memory source from its issue
//   until the issuing thread's wait_group_read (or wait_group) covers its group, and its writes
//   to global memory are complete, visible to the issuing thread, after a wait_group covering it.
//   The emulator reads the source at the issue (checked there as the issuing thread's reads),
//   records that read again at the wait that ends it, and writes global memory at the wait_group
//   (checked there as the issuing thread's writes, with the store's line), or when the issuing
//   thread exits.
// - A thread's shared-memory writes (generic proxy) reach a store only through a proxy fence on
//   the way from the write to the store's issue: the writer's fence_proxy_async after its write,
//   ordered before the issue (the CUDA programming guide's pattern: write, fence, __syncthreads(),
//   issue), or the issuing thread's own fence after the write was ordered before it
//   (__syncthreads(), then the issuer's fence, then the store). Without one the store may copy
//   stale bytes: reported.
// - A write to the source after the issue and before the wait that ends the read, a store never
//   waited for before its thread exits (the block's shared memory ends with the block), and a
//   misaligned or mis-sized store are reported with their lines.
// Internal to the runtime.
#pragma once

#include <cstdint>
#include <string>

namespace simt::detail {

struct Block;
struct BlockBulkStores;
struct Thread;

// The running thread `me` is about to exit: its stores still in flight end (a store whose read
// of its source was never waited for is reported) and write global memory.
void bulk_stores_at_exit(Thread& me);

// For a shared-memory race report in a block that issued bulk stores: what to do when one of
// the two sites is a store's read of its source (empty when neither is).
std::string bulk_store_race_advice(const Block& block, const void* other_site, const void* site,
                                   bool against_write);

// The same for a global-memory race between two threads of such a block, where one side is a
// store's write of its destination (made at the issuing thread's wait_group, or at its exit).
std::string bulk_store_global_race_advice(const Block& block, const void* other_site,
                                          const void* site);

} // namespace simt::detail
