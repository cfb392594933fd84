// The inline half of the global-memory checks (GlobalMemoryChecker), on the engine's fast path:
// most global accesses of a correct kernel are plain loads and stores of words that no other
// thread touched unordered. They are checked and recorded here without leaving the fast path;
// anything that may need a report, a flag's release or acquire, or an old value shown goes to
// GlobalMemoryChecker::access(). Include it after engine.h (it needs Thread, Warp, Block);
// Engine::access_checked_global() is its caller.
#pragma once

#include <cstring>

#include "global_memory_checker.h"

namespace simt::detail {

inline uint32_t GlobalMemoryChecker::grid_thread(const Thread& t) const {
    return t.block->linear * threads_per_block_ + t.linear + 1;
}

inline bool GlobalMemoryChecker::ordered(const Thread& t, uint32_t other, uint32_t other_clock,
                                         uint16_t other_warp_sync) const {
    const uint32_t self = grid_thread(t);
    if (other == self) return true;
    const uint32_t block = block_of(other);
    const BlockSync& mine = *t.block->sync;
    if (block == t.block->linear) {
        if (other_clock < mine.barrier_clock) return true; // a __syncthreads() since
        const uint32_t warp = ((other - 1) % threads_per_block_) / 32;
        if (warp == t.warp->index)
            return lockstep_ || other_warp_sync != static_cast<uint16_t>(t.warp->sync_epoch);
        return false;
    }
    if (!check_ordering_) return true;
    return mine.known && mine.known->get(block) >= other_clock;
}

// The first touch of a word in this launch: everything earlier launches did is ordered before.
inline void GlobalMemoryChecker::begin_launch_entry(GlobalWord& e) const {
    if (e.launch == launch_) return;
    e.kernel_written = e.kernel_written || e.writer != 0;
    e.writer = e.reader = 0;
    e.launch = launch_;
    e.visible_at = 0;
}

inline void GlobalMemoryChecker::record_read(const Thread& t, uint32_t self, GlobalWord& e,
                                             Strength strength, uint32_t site, bool polled) {
    e.reader = self;
    e.read_clock = t.block->sync->clock;
    e.read_site = site;
    e.read_warp_sync = static_cast<uint16_t>(t.warp->sync_epoch);
    e.read_strength = strength;
    e.read_polled = polled;
}

// `e` must come from the shadow's last word() or cached_word() call (it marks that word written).
inline void GlobalMemoryChecker::record_write(const Thread& t, uint32_t self, GlobalWord& e,
                                              Strength strength, uint32_t site) {
    e.writer = self;
    e.write_clock = t.block->sync->clock;
    e.write_time = now_;
    e.write_site = site;
    e.write_warp_sync = static_cast<uint16_t>(t.warp->sync_epoch);
    e.write_strength = strength;
    shadow_.mark_last_initialized();
}

inline uint32_t GlobalMemoryChecker::visibility_delay() {
    // Stores reach other blocks after 1 to 4096 further global-memory accesses of the grid,
    // each store on its own: out of program order.
    rng_ ^= rng_ << 13; // xorshift64
    rng_ ^= rng_ >> 7;
    rng_ ^= rng_ << 17;
    return 1 + static_cast<uint32_t>(rng_ % 4096);
}

// Relaxed visibility: other blocks see the word's old value for `delay` more global accesses,
// or until a device-scope fence of the writing block publishes it.
inline void GlobalMemoryChecker::delay_visibility(BlockSync& b, uintptr_t word, GlobalWord& e,
                                                  uint32_t delay) {
    if (now_ >= e.visible_at || e.writer == 0)
        std::memcpy(&e.old_value, reinterpret_cast<const void*>(word), 4);
    e.visible_at = now_ + delay;
    if (b.unpublished.size() < kMaxUnpublished)
        b.unpublished.push_back(word);
    else
        e.visible_at = 0; // bounded memory: this one is visible at once
}

inline bool GlobalMemoryChecker::fast_access(Thread& t, const Region& r, uintptr_t address,
                                             size_t bytes, AccessKind kind, const void* site) {
    BlockSync* b = t.block->sync;
    if (!b || (address & 3) + bytes > 4 || !restore_.empty() || !stale_reads_.empty()) return false;
    bool initialized = false;
    GlobalWord* e = shadow_.cached_word(address, initialized);
    if (!e) return false;
    const uint32_t site_id = intern(site);
    const uint32_t self = grid_thread(t);
    begin_launch_entry(*e);
    const bool writer_ordered = e->writer == 0 || e->writer == self ||
                                ordered(t, e->writer, e->write_clock, e->write_warp_sync);
    if (kind == AccessKind::read) {
        const bool repeated = t.last_plain_read == address && t.last_plain_site == site_id;
        if (!writer_ordered || repeated || (!initialized && r.kind == RegionKind::device))
            return false;
        ++now_;
        t.last_plain_read = address;
        t.last_plain_site = site_id;
        record_read(t, self, *e, Strength::plain, site_id, false);
        return true;
    }
    if (!writer_ordered || !strong_stores_.empty() ||
        (e->reader != 0 && e->reader != self &&
         !ordered(t, e->reader, e->read_clock, e->read_warp_sync)) ||
        (relaxed_visibility_ && b->unpublished.size() >= kMaxUnpublished))
        return false;
    ++now_;
    if (relaxed_visibility_) delay_visibility(*b, address & ~uintptr_t{3}, *e, visibility_delay());
    record_write(t, self, *e, Strength::plain, site_id);
    return true;
}

} // namespace simt::detail
