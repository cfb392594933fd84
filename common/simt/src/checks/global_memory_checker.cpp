#include "global_memory_checker.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <sstream>

#include "../engine.h"
#include "global_memory_fast_path.h"
#include "../memory_registry.h"
#include "../source_lines.h"

namespace simt::detail {

void VectorClock::join(const VectorClock& other) {
    if (other.entries.size() > entries.size()) entries.resize(other.entries.size(), 0);
    for (size_t i = 0; i < other.entries.size(); ++i)
        entries[i] = std::max(entries[i], other.entries[i]);
}

void AddressList::grow() {
    const size_t capacity = capacity_ ? capacity_ * 2 : 256;
    auto data = std::make_unique<uintptr_t[]>(capacity);
    if (size_) std::memcpy(data.get(), data_.get(), size_ * sizeof(uintptr_t));
    data_ = std::move(data);
    capacity_ = capacity;
}

namespace {
// The block's clock, made private to it before a change (snapshots share it until then).
VectorClock& own(std::shared_ptr<VectorClock>& clock) {
    if (!clock)
        clock = std::make_shared<VectorClock>();
    else if (clock.use_count() > 1)
        clock = std::make_shared<VectorClock>(*clock);
    return *clock;
}
} // namespace

GlobalMemoryChecker::GlobalMemoryChecker(const LaunchRequest& request, FindingSink& sink,
                                         bool warp_synchronous, bool relaxed_visibility,
                                         uint64_t seed)
    : sink_(sink), shadow_(global_shadow()), warp_synchronous_(warp_synchronous),
      // Relaxed visibility is about what other blocks see: a grid of one block has none.
      relaxed_visibility_(relaxed_visibility &&
                          uint64_t{request.grid.x} * request.grid.y * request.grid.z > 1),
      threads_per_block_(request.block.x * request.block.y * request.block.z),
      rng_((seed * 0x2545F4914F6CDD1Dull + 7) | 1) {
    shadow_.begin_launch(); // what earlier launches recorded is ordered before this one
    const uint64_t blocks = uint64_t{request.grid.x} * request.grid.y * request.grid.z;
    if (blocks > kMaxOrderedBlocks) {
        check_ordering_ = false;
        std::fprintf(stderr,
                     "simt: note: this launch has %llu blocks; ordering between blocks is "
                     "checked for grids of up to %u blocks, so global races between blocks are "
                     "not reported for it (the other checks stay on)\n",
                     static_cast<unsigned long long>(blocks), kMaxOrderedBlocks);
    }
}

void GlobalMemoryChecker::block_started(Block& b) {
    auto& sync = blocks_[b.linear];
    sync = std::make_unique<BlockSync>();
    b.sync = sync.get();
}

ThreadSync& GlobalMemoryChecker::sync_of(Thread& t) {
    if (!t.sync) {
        auto& owned = t.block->sync->threads;
        owned.push_back(std::make_unique<ThreadSync>());
        t.sync = owned.back().get();
    }
    return *t.sync;
}

void GlobalMemoryChecker::block_finished(Block& b) {
    if (!b.sync->threads.empty()) // (most blocks made none: no need to touch every thread)
        for (Thread& t : b.threads) t.sync = nullptr;
    b.sync = nullptr;
    blocks_.erase(b.linear);
}

uint32_t GlobalMemoryChecker::intern_slow(const void* site) {
    auto [it, added] = site_ids_.emplace(site, static_cast<uint32_t>(sites_.size()));
    if (added) sites_.push_back(site);
    return it->second;
}

std::string GlobalMemoryChecker::line(uint32_t site) const {
    return resolve_source(site_at(site)).to_string();
}

void GlobalMemoryChecker::acquire(Thread& t) {
    ThreadSync& ts = sync_of(t);
    if (ts.pending.empty()) return;
    VectorClock& known = own(t.block->sync->known);
    for (const ClockSnapshot& s : ts.pending) known.join(*s);
    ts.pending.clear();
}

void GlobalMemoryChecker::release(Thread& t) {
    BlockSync& b = *t.block->sync;
    VectorClock& known = own(b.known);
    known.set(t.block->linear, b.clock);
    sync_of(t).release = b.known; // shared until the block's clock changes again
    b.clock++;
}

void GlobalMemoryChecker::fence(Thread& t, MemoryScope scope, const void* site) {
    if (!t.block->sync) return;
    restore_views();
    ThreadSync& ts = sync_of(t);
    ts.last_fence_site = site;
    ts.last_fence_scope = scope;
    if (scope == MemoryScope::block) return; // orders nothing for other blocks
    ts.device_fences++;
    acquire(t);
    release(t);
    // The block's earlier stores are visible to the whole device now.
    BlockSync& b = *t.block->sync;
    for (uintptr_t w : b.unpublished) {
        const GlobalShadow::Word word = shadow_.word(w);
        if (word.written_now() && block_of(word.write().writer) == t.block->linear)
            word.write().visible_at = 0;
    }
    b.unpublished.clear();
}

void GlobalMemoryChecker::barrier_completed(Block& b) {
    if (!b.sync) return;
    b.sync->clock++;
    b.sync->barrier_clock = b.sync->clock;
}

void GlobalMemoryChecker::show_old_value(uintptr_t word, uint32_t old_value) {
    uint32_t current;
    std::memcpy(&current, reinterpret_cast<const void*>(word), 4);
    restore_.emplace_back(word, current);
    std::memcpy(reinterpret_cast<void*>(word), &old_value, 4);
}

void GlobalMemoryChecker::restore_views() {
    // The reader's load has happened (no other thread runs between its hook and its load).
    for (auto it = restore_.rbegin(); it != restore_.rend(); ++it)
        std::memcpy(reinterpret_cast<void*>(it->first), &it->second, 4);
    restore_.clear();
}

void GlobalMemoryChecker::access(Thread& t, const Region& r, uintptr_t address, size_t bytes,
                                 AccessKind kind, Strength strength, const void* site) {
    if (!t.block->sync) return;
    restore_views();
    ++now_;
    const uint32_t site_id = intern(site);
    const uintptr_t first = address & ~uintptr_t{3};
    const uintptr_t last = (address + bytes - 1) & ~uintptr_t{3};
    const bool initcheck = r.kind == RegionKind::device;
    bool repeated = false;
    if (kind == AccessKind::read && strength == Strength::plain) {
        repeated = t.last_plain_read == address && t.last_plain_site == site_id;
        t.last_plain_read = address;
        t.last_plain_site = site_id;
        if (repeated) sink_.spin_poll(&t, site); // a spin on a plain load nobody ends
    }
    if (kind != AccessKind::write && initcheck) {
        // Uninitialized only if no word of the access was written (a struct copy may carry
        // padding or a member nobody stored, in correct code too).
        bool any_written = false;
        for (uintptr_t w = first; w <= last && !any_written; w += 4)
            any_written = shadow_.initialized(w);
        if (!any_written)
            sink_.report(
                FaultKind::uninitialized_global_read, "ginit:" + std::to_string(site_id),
                [&] {
                    return "uninitialized global memory read: " + where(r, first) + " (" +
                           std::to_string(bytes) +
                           " bytes) is read, but nothing wrote it: no cudaMemcpy, cudaMemset "
                           "or kernel store since it was allocated";
                },
                site, &t, {AccessRecord{&t, 0, role_of(kind), false, address, bytes, site, true}});
    }
    // The words of one store become visible to other blocks together (no torn 8-byte flags).
    const uint32_t delay =
        relaxed_visibility_ && kind == AccessKind::write ? visibility_delay() : 0;
    for (uintptr_t w = first; w <= last; w += 4)
        check_word(t, r, w, shadow_.word(w), kind, strength, site_id, repeated, delay,
                   word_bytes(w, address, bytes));
}

const ThreadSync::Observation* GlobalMemoryChecker::later_flag_from(const ThreadSync& ts,
                                                                    uintptr_t word,
                                                                    const GlobalWrite& e) const {
    const uint32_t writer_block = block_of(e.writer);
    const ThreadSync::Observation* best = nullptr;
    for (const ThreadSync::Observation& o : ts.seen)
        if (o.word != word && o.writer_block == writer_block && o.write_time > e.write_time)
            best = &o;
    return best;
}

void GlobalMemoryChecker::observe(Thread& t, uintptr_t word, const GlobalWrite& e,
                                  uint32_t read_site) {
    // A strong load that sees another block's strong store: what it may acquire, and what a
    // later diagnosis needs.
    auto it = strong_stores_.find(word);
    if (it == strong_stores_.end() || it->second.writer != e.writer ||
        it->second.write_time != e.write_time)
        return;
    const StrongStore& s = it->second;
    ThreadSync& ts = sync_of(t);
    if (s.release) {
        if (ts.pending.empty() || ts.pending.back() != s.release) ts.pending.push_back(s.release);
        if (ts.pending.size() > 32) { // merge, so that a long look-back stays bounded
            auto merged = std::make_shared<VectorClock>();
            for (const ClockSnapshot& p : ts.pending) merged->join(*p);
            ts.pending.assign(1, std::move(merged));
        }
    }
    const uint32_t writer_block = block_of(e.writer);
    if (writer_block == t.block->linear) return;
    ThreadSync::Observation& o = ts.seen[ts.next_seen++ % ThreadSync::kObservations];
    o.word = word;
    o.writer_block = writer_block;
    o.write_time = e.write_time;
    o.flag_site = e.write_site;
    o.read_site = read_site;
    o.released = s.release != nullptr;
    o.released_clock = s.release ? s.release->get(writer_block) : 0;
    o.writer_fence_site = s.writer_fence_site;
    o.writer_fence_scope = s.writer_fence_scope;
    o.fences_then = ts.device_fences;
}

void GlobalMemoryChecker::check_word(Thread& t, const Region& r, uintptr_t w,
                                     GlobalShadow::Word word, AccessKind kind, Strength strength,
                                     uint32_t site, bool repeated_plain_read,
                                     uint32_t visibility_delay, uint8_t bytes) {
    const uint32_t self = grid_thread(t);
    const uint32_t block = t.block->linear;
    BlockSync& bs = *t.block->sync;
    const bool reads = kind != AccessKind::write;
    const bool writes = kind != AccessKind::read;
    const bool atomic = is_atomic(strength);
    // The last write and read of this launch, if any, and whether they share a byte with this
    // access (only then can they race with it).
    GlobalWrite* const e = word.written_now() ? &word.write() : nullptr;
    const GlobalRead* const last_read = word.read_now() ? &word.read() : nullptr;
    const bool write_overlaps = e && (e->write_bytes & bytes) != 0;
    const bool read_overlaps = last_read && (last_read->read_bytes & bytes) != 0;

    if (e && atomic && e->visible_at != 0) e->visible_at = 0; // atomics act at the device's L2

    if (reads && write_overlaps && e->writer != self &&
        !ordered(t, e->writer, e->write_clock, e->write_warp_sync)) {
        const uint32_t writer_block = block_of(e->writer);
        const bool both_atomic = atomic && is_atomic(e->write_strength);
        const bool both_strong = is_strong(strength) && is_strong(e->write_strength);
        if (both_atomic) {
            if (writer_block != block &&
                (strength == Strength::atomic_block || e->write_strength == Strength::atomic_block))
                report_race(t, r, w, Race::read_after_write, e->writer, e->write_site,
                            e->write_strength, site);
        } else if (const ThreadSync::Observation* flag =
                       writer_block != block && t.sync && !r.is_self_tagged(w)
                           ? later_flag_from(*t.sync, w, *e)
                           : nullptr) {
            report_ordering(t, r, w, *e, *flag, site);
        } else if (!both_strong) {
            if (repeated_plain_read)
                report_spin(t, r, w, site, e->writer, e->write_site);
            else if (!is_atomic(e->write_strength))
                report_race(t, r, w, Race::read_after_write, e->writer, e->write_site,
                            e->write_strength, site);
            // A plain read of a word that atomics update is the first step of every CAS loop
            // (`old = *p; while ((seen = atomicCAS(p, old, f(old))) != old) old = seen;`): at
            // worst it reads an old value, which the CAS then rejects. Not reported.
        }
        // Relaxed visibility: a store another block has not made visible yet.
        if (relaxed_visibility_ && writer_block != block && !writes && now_ < e->visible_at)
            show_old_value(w, e->old_value);
    }
    if (reads && is_strong(strength) && e && e->writer != self &&
        (!relaxed_visibility_ || now_ >= e->visible_at || block_of(e->writer) == block))
        observe(t, w, *e, site);
    if (reads && is_strong(strength) && !e && word.kernel_left())
        stale_reads_[w] = StaleRead{self, site, 0, 0}; // what an earlier launch left
    else if (reads && !stale_reads_.empty()) {
        auto it = stale_reads_.find(w);
        if (it != stale_reads_.end() && it->second.reader == self) stale_reads_.erase(it);
    }

    if (writes) {
        if (write_overlaps && e->writer != self &&
            !ordered(t, e->writer, e->write_clock, e->write_warp_sync)) {
            const bool both_atomic = atomic && is_atomic(e->write_strength);
            const bool cross = block_of(e->writer) != block;
            if (both_atomic ? (cross && (strength == Strength::atomic_block ||
                                         e->write_strength == Strength::atomic_block))
                            : !(is_strong(strength) && is_strong(e->write_strength)))
                report_race(t, r, w, Race::write_after_write, e->writer, e->write_site,
                            e->write_strength, site);
        }
        if (read_overlaps && last_read->reader != self &&
            !ordered(t, last_read->reader, last_read->read_clock, last_read->read_warp_sync)) {
            const bool cross = block_of(last_read->reader) != block;
            if (last_read->read_polled && !is_strong(last_read->read_strength))
                report_spin(t, r, w, last_read->read_site, self, site);
            else if (!cross && !atomic &&
                     !(is_strong(strength) && is_strong(last_read->read_strength)))
                report_race(t, r, w, Race::write_after_read, last_read->reader,
                            last_read->read_site, last_read->read_strength, site);
            // Between blocks, a write after another block's unordered read is not reported: the
            // read's value usually fed what the reader published before, which a GPU keeps in
            // order (in-place compaction relies on it).
        }
        if (!stale_reads_.empty()) {
            auto it = stale_reads_.find(w);
            if (it != stale_reads_.end() && it->second.reader != self && !it->second.overwriter) {
                it->second.overwriter = self;
                it->second.overwrite_site = site;
            }
        }
        if (relaxed_visibility_ && !atomic) delay_visibility<true>(bs, w, word, visibility_delay);
        record_write(t, self, word, strength, site, bytes);
        if (is_strong(strength)) {
            const ThreadSync& ts = sync_of(t);
            StrongStore& st = strong_stores_[w];
            ClockSnapshot carried = ts.release;
            if (atomic && kind == AccessKind::atomic && st.release && carried != st.release) {
                // A read-modify-write continues the release sequence of the word.
                if (carried) {
                    auto joined = std::make_shared<VectorClock>(*st.release);
                    joined->join(*carried);
                    carried = std::move(joined);
                } else {
                    carried = st.release;
                }
            }
            st = StrongStore{self, now_, std::move(carried), ts.last_fence_site,
                             ts.last_fence_scope};
        } else if (!strong_stores_.empty()) {
            strong_stores_.erase(w);
        }
    }
    if (reads && kind != AccessKind::atomic)
        record_read(t, self, word, strength, site, repeated_plain_read, bytes);
    else if (kind == AccessKind::atomic)
        word.clear_read_now(); // its read is part of the write
}

void GlobalMemoryChecker::launch_finished() {
    restore_views();
    for (const auto& stale : stale_reads_) {
        const uintptr_t word = stale.first; // (named: lambdas may not capture bindings in clang 14)
        const StaleRead& s = stale.second;
        if (!s.overwriter) continue;
        const Region* r = memory_registry().find(word);
        if (!r) continue;
        sink_.report(
            FaultKind::stale_read, "stale:" + std::to_string(s.read_site),
            [&] {
                return "stale value from an earlier launch: " + where(*r, word) + " was read by " +
                       sink_.describe_grid_thread(s.reader) + " at " + line(s.read_site) +
                       ", which saw what a kernel of an earlier launch left there; " +
                       sink_.describe_grid_thread(s.overwriter) + " writes it only later, at " +
                       line(s.overwrite_site) +
                       ". Reset flags and descriptors (cudaMemset) before every launch that "
                       "uses them";
            },
            site_at(s.read_site), nullptr,
            {AccessRecord{nullptr, s.reader, AccessRole::load, false, word, 4, site_at(s.read_site),
                          false},
             AccessRecord{nullptr, s.overwriter, AccessRole::store, false, word, 4,
                          site_at(s.overwrite_site), false}});
    }
    stale_reads_.clear();
}

} // namespace simt::detail
