// The inline half of the global-memory checks (GlobalMemoryChecker), on the engine's fast path:
// most global accesses of a correct kernel are plain loads and stores of words that no other
// thread touched unordered. They are checked and recorded here without leaving the fast path;
// anything that may need a report, a flag's release or acquire, or an old value shown goes to
// GlobalMemoryChecker::access(). Include it after engine.h (it needs Thread, Warp, Block);
// Engine::checked_global_read() and checked_global_write() are its callers, and
// Engine::access_general() for the polls (volatile loads) and the plain accesses that come to
// the general path.
#pragma once

#include <cstring>

#include "global_memory_checker.h"

namespace simt::detail {

inline uint32_t GlobalMemoryChecker::grid_thread(const Thread& t) const {
    return t.grid_id; // block * threads per block + thread + 1 (Engine::dispatch_block)
}

inline uint32_t GlobalMemoryChecker::index_in_block(const Thread& t, uint32_t other) const {
    // Thread numbers are block * threads per block + thread + 1: a subtraction tells whether
    // `other` is in t's block (no division on the common path).
    return other - (t.grid_id - t.linear);
}

inline uint32_t GlobalMemoryChecker::block_of(const Thread& t, uint32_t other) const {
    return index_in_block(t, other) < threads_per_block_ ? t.block->linear : block_of(other);
}

inline bool GlobalMemoryChecker::ordered(const Thread& t, uint32_t other, uint32_t other_clock,
                                         uint16_t other_warp_sync) const {
    const uint32_t local = index_in_block(t, other);
    if (local == t.linear) return true;
    const BlockSync& mine = *t.block->sync;
    if (local < threads_per_block_) {
        if (other_clock < mine.barrier_clock) return true; // a __syncthreads() since
        if (local / 32 == t.warp->index &&
            (warp_synchronous_ || other_warp_sync != static_cast<uint16_t>(t.warp->sync_epoch)))
            return true;
        // mbarrier phases: `other` arrived after the access, and this thread waited for that
        // phase (or one after it), directly or through a chain of phases (mbarrier_runtime.h).
        return t.mbarrier_known != nullptr && other_clock <= t.mbarrier_known[local];
    }
    if (!check_ordering_) return true;
    return mine.known && mine.known->get(block_of(other)) >= other_clock;
}

// The bytes of the word at `word` that [address, address + bytes) covers (bit i: byte i).
inline uint8_t word_bytes(uintptr_t word, uintptr_t address, size_t bytes) {
    const uintptr_t lo = address > word ? address : word;
    const uintptr_t hi = address + bytes < word + 4 ? address + bytes : word + 4;
    return static_cast<uint8_t>(((1u << (hi - lo)) - 1u) << (lo - word));
}

// The bytes of its word that an aligned access of at most 4 bytes covers.
inline uint8_t aligned_word_bytes(uintptr_t address, size_t bytes) {
    return static_cast<uint8_t>(((1u << bytes) - 1u) << (address & 3));
}

inline bool GlobalMemoryChecker::fast_path_open(uint32_t site_id) const {
    return site_id != 0 && !views_pending_;
}

inline bool GlobalMemoryChecker::fast_thread(const Thread& t) const {
    // One test for the common case: no views pending, not a dependent launch, no early reads.
    if (!fast_closed_ && !(t.sync && t.sync->early_count != 0)) return true;
    return !views_pending_ && !needs_thread_checks(t);
}

inline bool GlobalMemoryChecker::before_dependency_sync(const Thread& t) const {
    return dependent_launch_ && !(t.sync && t.sync->dependency_synced);
}

inline bool GlobalMemoryChecker::needs_thread_checks(const Thread& t) const {
    // Before cudaGridDependencySynchronize() in a dependent launch, or with reads that a flag
    // may show came too early: every access of the thread takes the general path.
    return before_dependency_sync(t) || (t.sync && t.sync->early_count != 0);
}

inline bool GlobalMemoryChecker::unordered_write(const Thread& t, GlobalShadow::Word word,
                                                 uint8_t mine) const {
    if (!word.written_now()) return false;
    const GlobalWrite& e = word.write();
    return (e.write_bytes & mine) && !ordered(t, e.writer, e.write_clock, e.write_warp_sync);
}

inline void GlobalMemoryChecker::record_read(const Thread& t, uint32_t self,
                                             GlobalShadow::Word word, Strength strength,
                                             uint32_t site, bool polled, uint8_t bytes) {
    // The whole record at once: storing its bit fields one by one would read the record first
    // (a cache miss: the word was last read a barrier step ago).
    GlobalRead e{};
    e.reader = self;
    e.read_clock = t.block->clock;
    e.read_site = site;
    e.read_warp_sync = static_cast<uint16_t>(t.warp->sync_epoch);
    e.read_strength = strength;
    e.read_polled = polled;
    e.read_bytes = bytes & 0xF;
    std::memcpy(static_cast<void*>(&word.read()), &e, sizeof e);
    word.set_read_now();
}

inline void GlobalMemoryChecker::record_write(const Thread& t, uint32_t self,
                                              GlobalShadow::Word word, Strength strength,
                                              uint32_t site, uint8_t bytes, uint8_t store_words,
                                              uint8_t store_index) {
    // What the record takes from the thread, read before the record is written (the stores
    // could alias them, and the compiler would read them again after each).
    const uint32_t clock = t.block->clock;
    const auto fences = static_cast<uint8_t>(t.block->sync->fences);
    const auto warp_sync = static_cast<uint16_t>(t.warp->sync_epoch);
    const uint32_t time = now_;
    GlobalWrite& e = word.write();
    if (!word.written_now()) {
        e.visible_at = 0;
        e.has_history = false;
        word.set_written_now();
    }
    e.writer = self;
    e.write_clock = clock;
    e.write_time = time;
    e.write_site = site;
    e.write_warp_sync = warp_sync;
    e.write_strength = strength;
    e.write_bytes = bytes;
    e.store_words = store_words;
    e.store_index = store_index;
    e.write_fences = fences;
    word.mark_initialized();
}

inline uint32_t GlobalMemoryChecker::visibility_delay() {
    // Stores reach other blocks after 1 to 4096 further global-memory accesses of the grid,
    // each store on its own: out of program order.
    rng_ ^= rng_ << 13; // xorshift64
    rng_ ^= rng_ >> 7;
    rng_ ^= rng_ << 17;
    return 1 + static_cast<uint32_t>(rng_ % 4096);
}

inline bool GlobalMemoryChecker::visible(const Thread& t, const GlobalWrite& e) const {
    return now_ >= e.visible_at || e.write_time < published_at_[block_of(t, e.writer)];
}

inline void GlobalMemoryChecker::delay_visibility(const Thread& t, uintptr_t address,
                                                  GlobalShadow::Word word, uint32_t delay) {
    GlobalWrite& e = word.write();
    // A store still pending for other blocks: they go on seeing the value from before it.
    const bool pending = word.written_now() && !visible(t, e);
    if (!pending) std::memcpy(&e.old_value, reinterpret_cast<const void*>(address), 4);
    if (!word.written_now()) {
        e.has_history = false;
        word.set_written_now();
    }
    e.visible_at = now_ + delay;
}

inline bool GlobalMemoryChecker::fast_read(Thread& t, const Region& r, uintptr_t address,
                                           size_t bytes, const void* site) {
    const uint32_t site_id = cached_site(site);
    GlobalShadow::PageRef page;
    if (!t.block->sync || site_id == 0 || !shadow_.cached_page(address, page) ||
        !fast_read_word(t, r.kind == RegionKind::device, address,
                        GlobalShadow::word_on(page, address), bytes, site_id))
        return false;
    remember_span(site, bytes, AccessKind::read, r, page, address, site_id);
    return true;
}

inline bool GlobalMemoryChecker::fast_write(Thread& t, const Region& r, uintptr_t address,
                                            size_t bytes, const void* site) {
    const uint32_t site_id = cached_site(site);
    GlobalShadow::PageRef page;
    if (!t.block->sync || site_id == 0 || !shadow_.cached_page(address, page) ||
        !fast_write_word(t, address, GlobalShadow::word_on(page, address), bytes, site_id))
        return false;
    remember_span(site, bytes, AccessKind::write, r, page, address, site_id);
    return true;
}

inline void GlobalMemoryChecker::remember_span(const void* site, size_t bytes, AccessKind kind,
                                               const Region& r, GlobalShadow::PageRef page,
                                               uintptr_t address, uint32_t site_id) {
    // Only where the engine's fast path would have checked the access here: not the kernel's
    // parameters (never checked), and no store to a region whose kernel stores must reach the
    // general path (Region::kernel_writes_tracked) or that kernels may not write (fast_read and
    // fast_write also run for accesses that came through the general path).
    if (r.kind == RegionKind::parameters ||
        (kind != AccessKind::read && (!r.writable_from_device || r.kernel_writes_tracked)))
        return;
    SiteSpan& s = site_spans_[(reinterpret_cast<uintptr_t>(site) >> 2) % kSiteCache];
    const uintptr_t page_lo = address & ~((uintptr_t{1} << GlobalShadow::kPageShift) - 1);
    const uintptr_t page_end = page_lo + (uintptr_t{1} << GlobalShadow::kPageShift);
    const uintptr_t lo = r.base > page_lo ? r.base : page_lo;
    const uintptr_t end = r.base + r.bytes < page_end ? r.base + r.bytes : page_end;
    s.site = site;
    s.lo = lo;
    s.fits = end - lo >= bytes ? end - lo - bytes + 1 : 0; // (the access itself fits)
    s.page = page;
    s.region = &r;
    s.id = site_id;
    s.generation = memory_map_generation;
    s.shape = span_shape(bytes, kind);
    s.device = r.kind == RegionKind::device;
}

inline const Region* GlobalMemoryChecker::span_region(uintptr_t address, size_t bytes,
                                                      AccessKind kind, const void* site) const {
    const SiteSpan& s = site_spans_[(reinterpret_cast<uintptr_t>(site) >> 2) % kSiteCache];
    return s.site == site && address - s.lo < s.fits && s.shape == span_shape(bytes, kind) &&
                   s.generation == memory_map_generation
               ? s.region
               : nullptr;
}

inline bool GlobalMemoryChecker::fast_at_site(Thread& t, uintptr_t address, size_t bytes,
                                              AccessKind kind, const void* site) {
    const SiteSpan* s = &site_spans_[(reinterpret_cast<uintptr_t>(site) >> 2) % kSiteCache];
    asm("" : "+r"(s)); // one address for the slot, not its offset recomputed at each field
    if (s->site != site || address - s->lo >= s->fits || s->shape != span_shape(bytes, kind) ||
        s->generation != memory_map_generation)
        return false;
    const GlobalShadow::Word word = GlobalShadow::word_on(s->page, address);
    return kind == AccessKind::read ? fast_read_word(t, s->device, address, word, bytes, s->id)
                                    : fast_write_word(t, address, word, bytes, s->id);
}

inline bool GlobalMemoryChecker::fast_read_word(Thread& t, bool device, uintptr_t address,
                                                GlobalShadow::Word word, size_t bytes,
                                                uint32_t site_id) {
    if (!fast_thread(t)) return false;
    if (bytes > 4) return fast_read_words(t, device, address, word, bytes, site_id);
    const uint8_t mine = aligned_word_bytes(address, bytes);
    if (unordered_write(t, word, mine)) return false;
    // A word that strong stores wrote: its history (check_history) and the CAS-loop rule.
    if (word.written_now() && is_strong(word.write().write_strength)) return false;
    const bool repeated = t.last_plain_read == address && t.last_plain_site == site_id;
    if (repeated || (device && !word.initialized())) return false;
    ++now_;
    t.last_plain_read = address;
    t.last_plain_site = site_id;
    record_read(t, grid_thread(t), word, Strength::plain, site_id, false, mine);
    return true;
}

inline bool GlobalMemoryChecker::plain_store_fits(const Thread& t, GlobalShadow::Word word,
                                                  uint8_t mine) const {
    // A word that strong stores wrote in this launch: its last strong store's record and its
    // history go with the general path.
    if (word.written_now() && (is_strong(word.write().write_strength) || word.write().has_history))
        return false;
    if (unordered_write(t, word, mine)) return false;
    if (word.read_now()) {
        const GlobalRead& e = word.read();
        if ((e.read_bytes & mine) && !ordered(t, e.reader, e.read_clock, e.read_warp_sync))
            return false;
    }
    return true;
}

inline void GlobalMemoryChecker::end_poll_by_own_write(Thread& t, uintptr_t address, size_t bytes) {
    // A thread that stores to (or updates) the word of its last plain read does not spin on
    // it: the next read of it, at the same line, is no poll (a compare-and-swap loop's first
    // guess, in a function called again).
    if ((t.last_plain_read & ~uintptr_t{3}) - (address & ~uintptr_t{3}) < bytes + (address & 3))
        t.last_plain_read = 0;
}

inline bool GlobalMemoryChecker::fast_write_word(Thread& t, uintptr_t address,
                                                 GlobalShadow::Word word, size_t bytes,
                                                 uint32_t site_id) {
    if (!fast_thread(t)) return false;
    if (bytes > 4) return fast_write_words(t, address, word, bytes, site_id);
    const uint8_t mine = aligned_word_bytes(address, bytes);
    if (!plain_store_fits(t, word, mine)) return false;
    end_poll_by_own_write(t, address, bytes);
    ++now_;
    if (relaxed_visibility_) delay_visibility(t, address & ~uintptr_t{3}, word, visibility_delay());
    record_write(t, grid_thread(t), word, Strength::plain, site_id, mine);
    return true;
}

// A vector load (8 or 16 aligned bytes, 2 or 4 whole words of one page): every word must pass
// the one-word fast read's tests before any is recorded, so that the general path gets the
// access unchanged otherwise. A load whose words are all ordered after their writes cannot be
// torn.
inline bool GlobalMemoryChecker::fast_read_words(Thread& t, bool device, uintptr_t address,
                                                 GlobalShadow::Word first, size_t bytes,
                                                 uint32_t site_id) {
    constexpr size_t kMaxWords = 4;
    const size_t count = bytes / 4;
    if (count > kMaxWords) return false;
    if (t.last_plain_read == address && t.last_plain_site == site_id) return false; // a spin?
    GlobalShadow::Word word = first;
    for (size_t i = 0; i < count; ++i, word = word.next())
        if (unordered_write(t, word, 0xF) ||
            (word.written_now() && is_strong(word.write().write_strength)) ||
            (device && !word.initialized()))
            return false;
    ++now_;
    t.last_plain_read = address;
    t.last_plain_site = site_id;
    const uint32_t self = grid_thread(t);
    word = first;
    for (size_t i = 0; i < count; ++i, word = word.next())
        record_read(t, self, word, Strength::plain, site_id, false, 0xF);
    return true;
}

// A vector store (8 or 16 aligned bytes): the words of one store, recorded as such (a reader
// that loads them apart can be told it may see halves of two stores), visible to other blocks
// together.
inline bool GlobalMemoryChecker::fast_write_words(Thread& t, uintptr_t address,
                                                  GlobalShadow::Word first, size_t bytes,
                                                  uint32_t site_id) {
    constexpr size_t kMaxWords = 4;
    const size_t count = bytes / 4;
    if (count > kMaxWords) return false;
    GlobalShadow::Word word = first;
    for (size_t i = 0; i < count; ++i, word = word.next())
        if (!plain_store_fits(t, word, 0xF)) return false;
    end_poll_by_own_write(t, address, bytes);
    ++now_;
    const uint32_t delay = relaxed_visibility_ ? visibility_delay() : 0;
    const uint32_t self = grid_thread(t);
    word = first;
    for (size_t i = 0; i < count; ++i, word = word.next()) {
        if (relaxed_visibility_) delay_visibility(t, address + 4 * i, word, delay);
        record_write(t, self, word, Strength::plain, site_id, 0xF, static_cast<uint8_t>(count),
                     static_cast<uint8_t>(i));
    }
    return true;
}

// What access() and check_word() do for a strong load of words with no write record of this
// launch, when no view is to be restored nor stale read settled (fast_path_open), the launch is
// not a dependent one still waiting for the one before, and the thread's early reads (values it
// read before a flag could announce them) are of other words (a read of one forgets it): nothing
// to race with, acquire, show late or tear, so only the read is recorded. A look-back keeps
// early reads from the windows it has read while it polls the next one. A word that an earlier
// launch of this kernel left (a stale read) or an access that no one ever wrote any word of
// (uninitialized) goes to access(), which reports it.
inline bool GlobalMemoryChecker::fast_strong_read(Thread& t, const Region& r, uintptr_t address,
                                                  size_t bytes, Strength strength,
                                                  const void* site) {
    const uint32_t site_id = cached_site(site);
    GlobalShadow::Word first;
    if (!t.block->sync || !fast_path_open(site_id) || before_dependency_sync(t) ||
        !shadow_.cached_word(address, first))
        return false;
    const size_t count = bytes <= 4 ? 1 : bytes / 4;
    if (t.sync)
        for (unsigned i = 0; i < t.sync->early_count; ++i)
            if (t.sync->early[i].word - (address & ~uintptr_t{3}) < 4 * count) return false;
    bool initialized = r.kind != RegionKind::device || t.exchanging; // (access()'s initcheck)
    GlobalShadow::Word word = first;
    for (size_t i = 0; i < count; ++i, word = word.next()) {
        if (word.written_now() || word.kernel_left_by_this_kernel()) return false;
        initialized = initialized || word.initialized();
    }
    if (!initialized) return false;
    ++now_;
    const uint32_t self = grid_thread(t);
    const uint8_t mine = bytes < 4 ? aligned_word_bytes(address, bytes) : 0xF;
    word = first;
    for (size_t i = 0; i < count; ++i, word = word.next())
        record_read(t, self, word, strength, site_id, false, mine);
    return true;
}

} // namespace simt::detail
