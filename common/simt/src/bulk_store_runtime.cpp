// Hopper's bulk stores and the proxy fence on the emulator: bulk_store_runtime.h.
#include "bulk_store_runtime.h"

#include <cstring>
#include <deque>
#include <set>
#include <sstream>
#include <unordered_map>
#include <utility>
#include <vector>

#include "../compat/cuda/ptx"

#include "engine.h"
#include "mbarrier_runtime.h"
#include "memory_registry.h"
#include "source_lines.h"

namespace simt::detail {

struct BlockBulkStores {
    // A fence.proxy.async of shared memory: when it came (Block::clock, then advanced), in which
    // barrier epoch and after how many collectives of the thread's warp.
    struct Fence {
        uint32_t clock;
        uint32_t epoch;
        uint32_t warp_sync;
    };
    struct Store {
        uintptr_t destination;
        uintptr_t source; // in shared memory
        std::vector<unsigned char> bytes;
        const void* site;
        uint32_t issue_clock; // writes of the source with a later clock came after the issue
        bool read_done = false;
    };
    struct PerThread {
        // Its proxy fences, oldest first: those since its last fence of an earlier barrier epoch,
        // and that one (a write before it is fenced for anyone after the barriers since).
        std::vector<Fence> fences;
        std::vector<uint32_t> known_at_last_fence; // its mbarrier view then (with mbarriers)
        std::vector<Store> uncommitted;
        std::deque<std::vector<Store>> groups; // committed, oldest first, not yet complete
    };
    std::unordered_map<uint32_t, PerThread> threads; // by linear index in the block
    std::set<const void*> store_sites;
};

namespace {

constexpr size_t kFencesKept = 64;

BlockBulkStores& bulk_state(Thread& me) {
    Block& b = *me.block;
    if (!b.bulk_stores) b.bulk_stores = std::make_shared<BlockBulkStores>();
    return *b.bulk_stores;
}

// Whether the generic-proxy write that shadow word `s` remembers reaches a bulk store that `me`
// issues now: a proxy fence lies on the way from the write to the issue.
bool proxy_fenced(const Thread& me, const SharedMemoryChecker& checks, const BlockBulkStores& state,
                  const ShadowWord& s) {
    const uint32_t writer = s.writer - 1;
    // The writer's first fence after the write, ordered before the issue.
    if (auto it = state.threads.find(writer); it != state.threads.end())
        for (const BlockBulkStores::Fence& f : it->second.fences)
            if (f.clock >= s.write_clock)
                return writer == me.linear ||
                       checks.ordered_before(me, s.writer, f.epoch, f.warp_sync, f.clock);
    // The issuer's last fence, with the write ordered before that fence.
    auto mine = state.threads.find(me.linear);
    if (mine == state.threads.end() || mine->second.fences.empty()) return false;
    const BlockBulkStores::Fence& f = mine->second.fences.back();
    if (s.write_epoch < f.epoch) return true;
    if (writer / 32 == me.warp->index &&
        (checks.warp_synchronous() || s.write_warp_sync < f.warp_sync))
        return true;
    const auto& known = mine->second.known_at_last_fence;
    return writer < known.size() && s.write_clock <= known[writer];
}

// The source's words that threads wrote (generic proxy) in a way the store's issue is ordered
// after, but with no proxy fence between: the store may copy what was there before. (A write
// not ordered before the issue at all is a race, which the store's read reports.)
void check_proxy_fence(Engine& e, Thread& me, BlockBulkStores& state, uintptr_t source,
                       std::uint32_t size, const void* site) {
    SharedMemoryChecker* checks = e.shared_checks();
    Block& b = *me.block;
    if (!checks || !b.shadow_words) return;
    const size_t storage = source - b.shared_base();
    for (size_t at = 0; at < size; at += 4) {
        size_t offset = 0;
        const ShadowWord* s = SharedMemoryChecker::shadow_at(b, storage + at, &offset);
        if (!s || s->writer == 0 || is_bulk_copy_site(b, s->write_site)) continue;
        if (s->writer - 1 != me.linear &&
            !checks->ordered_before(me, s->writer, s->write_epoch, s->write_warp_sync,
                                    s->write_clock))
            continue;
        if (proxy_fenced(me, *checks, state, *s)) continue;
        const Thread& writer = b.threads[s->writer - 1];
        const void* write_site = s->write_site;
        const std::string where = e.describe_shared_address(source + at);
        e.report(
            FaultKind::shared_race,
            "proxy:" + std::to_string(reinterpret_cast<uintptr_t>(write_site)) + ":" +
                std::to_string(reinterpret_cast<uintptr_t>(site)),
            [&] {
                return "shared memory written without a proxy fence before a bulk store reads "
                       "it: " +
                       where + " was written by " + e.describe_thread(writer) + " at " +
                       source_line(write_site) +
                       " (an ordinary write) and is read by the bulk store (cp.async.bulk, the "
                       "asynchronous proxy) issued here with no fence.proxy.async between them, so "
                       "the store may copy what the word held before. After the writes, "
                       "cuda::ptx::fence_proxy_async(cuda::ptx::space_shared) in each writing "
                       "thread, then __syncthreads(), then the store";
            },
            site, &me,
            {AccessRecord{&me, 0, AccessRole::load, true, offset, 4, site, true},
             AccessRecord{&writer, 0, AccessRole::store, true, offset, 4, write_site, false}});
        return; // one report per store
    }
}

// The store has read its source: a write of the source since its issue raced that read.
void finish_reading(Engine& e, Thread& me, BlockBulkStores::Store& store) {
    store.read_done = true;
    SharedMemoryChecker* checks = e.shared_checks();
    Block& b = *me.block;
    if (!checks || !b.shadow_words) return;
    const size_t storage = store.source - b.shared_base();
    for (size_t at = 0; at < store.bytes.size(); at += 4) {
        size_t offset = 0;
        const ShadowWord* s = SharedMemoryChecker::shadow_at(b, storage + at, &offset);
        if (!s || s->writer == 0 || s->write_clock <= store.issue_clock) continue;
        const Thread& writer = b.threads[s->writer - 1];
        const void* write_site = s->write_site;
        const void* store_site = store.site;
        const std::string where = e.describe_shared_address(store.source + at);
        // The key of the race check's own report of this pair, so that the two never both come.
        e.report(
            FaultKind::shared_race,
            "war:" + std::to_string(reinterpret_cast<uintptr_t>(store_site)) + ":" +
                std::to_string(reinterpret_cast<uintptr_t>(write_site)),
            [&] {
                const std::string writes =
                    is_bulk_copy_site(b, write_site)
                        ? " was refilled by the bulk copy (cp.async.bulk into shared memory) "
                          "that " +
                              e.describe_thread(writer) + " issued at "
                        : " was written by " + e.describe_thread(writer) + " at ";
                return "shared memory race with a bulk store: " + where + writes +
                       source_line(write_site) +
                       " while the bulk store (cp.async.bulk) issued at " +
                       source_line(store_site) + " by " + e.describe_thread(me) +
                       " could still be reading it: a store reads its source until the issuing "
                       "thread's cp_async_bulk_wait_group_read returns, so it may copy either "
                       "value. Write the source again only after that wait (e.g. "
                       "cuda::ptx::cp_async_bulk_wait_group_read(cuda::ptx::n32_t<0>())) and a "
                       "__syncthreads() after it";
            },
            write_site, &writer,
            {AccessRecord{&writer, 0, AccessRole::store, true, offset, 4, write_site, false},
             AccessRecord{&me, 0, AccessRole::load, true, offset, 4, store_site, true}});
        break; // one report per store
    }
    // Its read lasted until now: a write not ordered after this moment races it.
    SharedMemoryChecker::record_async_read(me, storage, store.bytes.size(), store.site);
}

// The store's writes to global memory, as the issuing thread's, with the store's line.
void write_global(Engine& e, const BlockBulkStores::Store& store) {
    for (size_t at = 0; at < store.bytes.size(); at += 16) {
        e.on_memory_access(store.destination + at, 16, AccessKind::write, false, store.site);
        std::memcpy(reinterpret_cast<void*>(store.destination + at), store.bytes.data() + at, 16);
    }
}

void bulk_store(void* dst, const void* src, std::uint32_t size, const void* site) {
    const char* op = "cuda::ptx::cp_async_bulk";
    Engine& e = engine_for(op);
    Thread& me = *e.current();
    Block& b = *me.block;
    const auto to = reinterpret_cast<uintptr_t>(dst);
    const auto from = reinterpret_cast<uintptr_t>(src);
    uint32_t issue_clock = 0;
    {
        RuntimeScope scope(&me);
        if (size == 0 || size % 16 != 0 || to % 16 != 0 || from % 16 != 0) {
            std::ostringstream what;
            what << "misaligned or mis-sized bulk store (cp.async.bulk from shared to global "
                    "memory): "
                 << size << " bytes from " << e.describe_shared_address(from)
                 << " to global address 0x" << std::hex << to << std::dec
                 << "; the size must be a nonzero multiple of 16 bytes and both addresses "
                    "16-byte aligned (store a tail of another size with ordinary stores)";
            e.fault(FaultKind::misaligned_address, cudaErrorMisalignedAddress, what.str(), site,
                    &me);
        }
        if (from - b.shared_base() >= b.shared_capacity ||
            from - b.shared_base() + size > b.shared_capacity)
            e.fault(FaultKind::illegal_address, cudaErrorIllegalAddress,
                    "bulk store (cp.async.bulk) from shared memory whose source is not in the "
                    "block's shared memory",
                    site, &me);
        const Region* region = memory_registry().find_range(to, size);
        if (!region || !region->writable_from_device || region->kind == RegionKind::parameters) {
            std::ostringstream what;
            what << "bulk store (cp.async.bulk) of " << size << " bytes to global address 0x"
                 << std::hex << to << std::dec
                 << ", which does not lie inside one device allocation that kernels may write";
            e.fault(FaultKind::illegal_address, cudaErrorIllegalAddress, what.str(), site, &me);
        }
        BlockBulkStores& state = bulk_state(me);
        state.store_sites.insert(site);
        check_proxy_fence(e, me, state, from, size, site);
        issue_clock = b.clock;
        ++b.clock; // a write of the source from now on comes after the issue
    }
    // The store's read, checked as the issuing thread's now (a write not ordered before the issue
    // races it; bytes never written are uninitialized); the bytes are taken now.
    std::vector<unsigned char> bytes(size);
    for (std::uint32_t at = 0; at < size; at += 16) {
        e.on_memory_access(from + at, 16, AccessKind::read, false, site);
        std::memcpy(bytes.data() + at, reinterpret_cast<const void*>(from + at), 16);
    }
    RuntimeScope scope(&me);
    bulk_state(me).threads[me.linear].uncommitted.push_back(
        BlockBulkStores::Store{to, from, std::move(bytes), site, issue_clock});
}

void record_fence(const void* site) {
    Engine& e = engine_for("cuda::ptx::fence_proxy_async");
    Thread& me = *e.current();
    {
        RuntimeScope scope(&me);
        Block& b = *me.block;
        auto& mine = bulk_state(me).threads[me.linear];
        const BlockBulkStores::Fence fence{b.clock, b.barrier_epoch, me.warp->sync_epoch};
        ++b.clock; // a write from now on comes after the fence
        auto& fences = mine.fences;
        // Of the fences of earlier barrier epochs, the last one is as good as any.
        if (!fences.empty() && fences.back().epoch < fence.epoch)
            fences.erase(fences.begin(), fences.end() - 1);
        if (fences.size() >= kFencesKept) fences.erase(fences.begin());
        fences.push_back(fence);
        if (me.mbarrier_known)
            mine.known_at_last_fence.assign(me.mbarrier_known,
                                            me.mbarrier_known + b.threads.size());
    }
    e.fence_point(site, MemoryScope::block);
}

void wait_group(int newest_pending, bool read_only) {
    Engine& e = engine_for(read_only ? "cuda::ptx::cp_async_bulk_wait_group_read"
                                     : "cuda::ptx::cp_async_bulk_wait_group");
    Thread& me = *e.current();
    if (!me.block->bulk_stores) return; // no store was ever issued
    std::vector<BlockBulkStores::Store> complete;
    {
        RuntimeScope scope(&me);
        auto& groups = bulk_state(me).threads[me.linear].groups;
        const size_t older = groups.size() > static_cast<size_t>(newest_pending)
                                 ? groups.size() - static_cast<size_t>(newest_pending)
                                 : 0;
        for (size_t g = 0; g < older; ++g)
            for (auto& store : groups[g])
                if (!store.read_done) finish_reading(e, me, store);
        if (!read_only)
            for (size_t g = 0; g < older; ++g) {
                for (auto& store : groups.front()) complete.push_back(std::move(store));
                groups.pop_front();
            }
    }
    for (const auto& store : complete) write_global(e, store);
}

} // namespace

void bulk_stores_at_exit(Thread& me) {
    Engine& e = engine_for("a kernel's exit");
    std::vector<BlockBulkStores::Store> pending;
    {
        RuntimeScope scope(&me);
        BlockBulkStores& state = *me.block->bulk_stores;
        auto it = state.threads.find(me.linear);
        if (it == state.threads.end()) return;
        auto& mine = it->second;
        for (auto& group : mine.groups)
            for (auto& store : group) pending.push_back(std::move(store));
        const size_t committed = pending.size();
        for (auto& store : mine.uncommitted) pending.push_back(std::move(store));
        mine.groups.clear();
        mine.uncommitted.clear();
        for (size_t i = 0; i < pending.size(); ++i) {
            const auto& store = pending[i];
            if (store.read_done) continue;
            const void* site = store.site;
            const bool uncommitted = i >= committed;
            e.report(
                FaultKind::shared_race,
                "bulk-exit:" + std::to_string(reinterpret_cast<uintptr_t>(site)),
                [&] {
                    return "bulk store still in flight when its thread exits: the bulk store "
                           "(cp.async.bulk) issued at " +
                           source_line(site) + " by " + e.describe_thread(me) +
                           (uncommitted ? " was never committed to a group, and nothing waited "
                                          "for it"
                                        : " was committed, but nothing waited for it") +
                           ", so it may still be reading its shared-memory source, which ends "
                           "with the block. Before the thread exits: "
                           "cuda::ptx::cp_async_bulk_commit_group(), then "
                           "cuda::ptx::cp_async_bulk_wait_group_read(cuda::ptx::n32_t<0>()) (or "
                           "cp_async_bulk_wait_group, to have its writes complete too)";
                },
                site, &me,
                {AccessRecord{&me, 0, AccessRole::load, true,
                              store.source - me.block->shared_base(), store.bytes.size(), site,
                              true}});
        }
    }
    for (const auto& store : pending) write_global(e, store);
}

std::string bulk_store_race_advice(const Block& block, const void* other_site, const void* site,
                                   bool against_write) {
    if (!block.bulk_stores) return {};
    const auto& sites = block.bulk_stores->store_sites;
    if (!against_write && sites.count(other_site))
        return "; the read is the bulk store at " + source_line(other_site) +
               ", which reads its source until the issuing thread's "
               "cp_async_bulk_wait_group_read returns: write the source only after that wait and "
               "a __syncthreads() (or an mbarrier phase) after it";
    if (against_write && sites.count(site))
        return "; this bulk store reads what was written at " + source_line(other_site) +
               " with nothing ordering the write before it: write, "
               "cuda::ptx::fence_proxy_async(cuda::ptx::space_shared), __syncthreads(), then "
               "issue the store";
    return {};
}

std::string bulk_store_global_race_advice(const Block& block, const void* other_site,
                                          const void* site) {
    if (!block.bulk_stores) return {};
    const auto& sites = block.bulk_stores->store_sites;
    const void* store = sites.count(other_site) ? other_site : sites.count(site) ? site : nullptr;
    if (!store) return {};
    return "; the bulk store at " + source_line(store) +
           " writes global memory when a cp_async_bulk_wait_group of its issuing thread covers it "
           "(the emulator writes it then, or when that thread exits): other threads may touch "
           "the destination only after that wait and a __syncthreads() (or an mbarrier phase) "
           "after it";
}

} // namespace simt::detail

namespace ptx = cuda::ptx;

void ptx::cp_async_bulk(space_global_t, space_shared_t, void* dst, const void* src,
                        const std::uint32_t& size) {
    simt::detail::bulk_store(dst, src, size, __builtin_return_address(0));
}
void ptx::cp_async_bulk_commit_group() {
    using namespace simt::detail;
    Engine& e = engine_for("cuda::ptx::cp_async_bulk_commit_group");
    Thread& me = *e.current();
    RuntimeScope scope(&me);
    auto& mine = bulk_state(me).threads[me.linear];
    // PTX: with no store since the last commit, the group is empty.
    mine.groups.push_back(std::move(mine.uncommitted));
    mine.uncommitted.clear();
}
void ptx::simt_bulk_wait_group(int newest_pending, bool read_only) {
    simt::detail::wait_group(newest_pending, read_only);
}
void ptx::fence_proxy_async() {
    simt::detail::record_fence(__builtin_return_address(0));
}
void ptx::fence_proxy_async(space_shared_t) {
    simt::detail::record_fence(__builtin_return_address(0));
}
void ptx::fence_proxy_async(space_cluster_t) {
    simt::detail::record_fence(__builtin_return_address(0));
}
void ptx::fence_proxy_async(space_global_t) {
    // Orders global memory only: no shared-memory write reaches a bulk store through it.
    simt::detail::engine_for("cuda::ptx::fence_proxy_async")
        .fence_point(__builtin_return_address(0), simt::detail::MemoryScope::block);
}
