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
    // A programmatic dependent launch overlaps the launch before, unless the host copied to the
    // device in between (the copy waits for that launch, and this one for the copy).
    dependent_launch_ = request.programmatic_dependency && !shadow_.host_wrote_since_launch();
    note_views();
    shadow_.clear_host_wrote_since_launch();
    shadow_.begin_launch(
        request.kernel); // what earlier launches recorded is ordered before this one
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
    sync->block = &b;
    b.sync = sync.get();
    if (published_at_.size() <= b.linear) published_at_.resize(b.linear + 1, 0);
}

ThreadSync& GlobalMemoryChecker::sync_of(Thread& t) {
    if (!t.sync) {
        auto& owned = t.block->sync->threads;
        owned.push_back(std::make_unique<ThreadSync>());
        t.sync = owned.back().get();
    }
    return *t.sync;
}

bool GlobalMemoryChecker::seen_after(const BlockSync& b, uint32_t reader,
                                     uint32_t read_clock) const {
    // The block saw a strong store that the reader's block made after the read (a barrier or
    // fence later: its clock moved on).
    const uint32_t reader_block = block_of(reader);
    return reader_block != b.block->linear && b.observed &&
           b.observed->get(reader_block) > read_clock;
}

Thread* GlobalMemoryChecker::thread_of(uint32_t grid_thread) {
    auto it = blocks_.find(block_of(grid_thread));
    if (it == blocks_.end()) return nullptr; // its block has finished
    return &it->second->block->threads[(grid_thread - 1) % threads_per_block_];
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
    known.set(t.block->linear, t.block->clock);
    sync_of(t).release = b.known; // shared until the block's clock changes again
    b.fence_clock = ++t.block->clock;
    ++b.fences;
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
    // The block's earlier stores are visible to the whole device now (visible()).
    published_at_[t.block->linear] = now_ + 1;
}

void GlobalMemoryChecker::barrier_completed(Block& b) {
    if (!b.sync) return;
    b.sync->barrier_clock = b.sync->fence_clock = ++b.clock;
    ++b.sync->fences;
}

void GlobalMemoryChecker::show_old_value(uintptr_t word, uint32_t old_value) {
    uint32_t current;
    std::memcpy(&current, reinterpret_cast<const void*>(word), 4);
    restore_.emplace_back(word, current);
    note_views();
    std::memcpy(reinterpret_cast<void*>(word), &old_value, 4);
}

void GlobalMemoryChecker::restore_views() {
    // The reader's load has happened (no other thread runs between its hook and its load).
    for (auto it = restore_.rbegin(); it != restore_.rend(); ++it)
        std::memcpy(reinterpret_cast<void*>(it->first), &it->second, 4);
    restore_.clear();
    note_views();
}

void GlobalMemoryChecker::access(Thread& t, const Region& r, uintptr_t address, size_t bytes,
                                 AccessKind kind, Strength strength, const void* site) {
    if (!t.block->sync) return;
    restore_views();
    ++now_;
    const uint32_t site_id = intern(site);
    const uintptr_t first = address & ~uintptr_t{3};
    const uintptr_t last = (address + bytes - 1) & ~uintptr_t{3};
    // An atomicExch stores what it is given whatever was there: its read of the old value is not
    // a use of uninitialized memory (a flag set with atomicExch on fresh memory).
    const bool initcheck = r.kind == RegionKind::device && !t.exchanging;
    bool repeated = false;
    if (kind == AccessKind::read && strength == Strength::plain) {
        repeated = t.last_plain_read == address && t.last_plain_site == site_id;
        t.last_plain_read = address;
        t.last_plain_site = site_id;
        if (repeated) sink_.spin_poll(&t, site); // a spin on a plain load nobody ends
    } else if (kind != AccessKind::read) {
        end_poll_by_own_write(t, address, bytes);
    }
    if (kind != AccessKind::write && initcheck) {
        // Uninitialized only if no word of the access was written (a struct copy may carry
        // padding or a member nobody stored, in correct code too).
        bool any_written = false;
        for (uintptr_t w = first; w <= last && !any_written; w += 4)
            any_written = shadow_.initialized(w);
        if (!any_written)
            sink_.report(FaultKind::uninitialized_global_read, "ginit:" + std::to_string(site_id),
                         [&] {
                             return "uninitialized global memory read: " + where(r, address) +
                                    " (" + std::to_string(bytes) +
                                    (bytes == 1 ? " byte" : " bytes") +
                                    ") is read, but nothing wrote it: no cudaMemcpy, cudaMemset or "
                                    "kernel store since it was allocated";
                         },
                         site, &t,
                         {AccessRecord{&t, 0, role_of(kind), false, address, bytes, site, true}});
    }
    if (kind == AccessKind::read && first != last && check_ordering_)
        check_torn_load(t, r, address, bytes, site_id);
    // Words read again are no longer early reads (all of them before any is checked: a flag may
    // share this load with its value).
    if (kind != AccessKind::write && t.sync && t.sync->early_count)
        for (uintptr_t w = first; w <= last; w += 4) forget_early_read(*t.sync, w);
    // The words of one store become visible to other blocks together (no torn 8-byte flags).
    const uint32_t delay =
        relaxed_visibility_ && kind == AccessKind::write ? visibility_delay() : 0;
    const AccessShape shape{first, last};
    for (uintptr_t w = first; w <= last; w += 4)
        check_word(t, r, w, shadow_.word(w), kind, strength, site_id, repeated, delay,
                   word_bytes(w, address, bytes), shape);
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
    note_seen(*t.block->sync, e.writer, s.fence_clock, s.observed);
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

void GlobalMemoryChecker::note_seen(BlockSync& mine, uint32_t writer, uint32_t clock,
                                    const ClockSnapshot& theirs) {
    const uint32_t writer_block = block_of(writer);
    if (writer_block == mine.block->linear) return;
    if (mine.observed && mine.observed->get(writer_block) >= clock &&
        (!theirs || theirs == mine.observed))
        return; // nothing new
    VectorClock& seen = own(mine.observed);
    if (theirs) seen.join(*theirs);
    seen.set(writer_block, std::max(seen.get(writer_block), clock));
}

void GlobalMemoryChecker::check_word(Thread& t, const Region& r, uintptr_t w,
                                     GlobalShadow::Word word, AccessKind kind, Strength strength,
                                     uint32_t site, bool repeated_plain_read,
                                     uint32_t visibility_delay, uint8_t bytes, AccessShape shape) {
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

    if (before_dependency_sync(t) && (word.written_before() || (writes && word.read_before())))
        report_dependency(t, r, w, writes, word.written_before(), site);
    if (e && e->has_history) check_history(t, r, w, kind, strength, site, bytes);
    // strong_stores_ holds the words whose last store in this launch was strong.
    const bool last_store_strong = e && is_strong(e->write_strength);

    if (e && atomic && e->visible_at != 0) e->visible_at = 0; // atomics act at the device's L2

    if (reads && write_overlaps && e->writer != self &&
        !ordered(t, e->writer, e->write_clock, e->write_warp_sync)) {
        const uint32_t writer_block = block_of(e->writer);
        const bool both_atomic = atomic && is_atomic(e->write_strength);
        const bool both_strong = is_strong(strength) && is_strong(e->write_strength);
        bool reported = false;
        if (both_atomic) {
            if (writer_block != block &&
                (strength == Strength::atomic_block || e->write_strength == Strength::atomic_block))
                report_race(t, r, first_shared_byte(w, e->write_bytes & bytes),
                            Race::read_after_write, e->writer, e->write_site, e->write_strength,
                            site);
        } else if (const ThreadSync::Observation* flag =
                       writer_block != block && t.sync && !r.is_self_tagged(w)
                           ? later_flag_from(*t.sync, w, *e)
                           : nullptr) {
            report_ordering(t, r, w, *e, *flag, site);
            reported = true;
        } else if (!both_strong) {
            reported = true;
            if (repeated_plain_read)
                report_spin(t, r, w, site, 0, e->writer, e->write_site);
            else if (!is_atomic(e->write_strength))
                report_race(t, r, first_shared_byte(w, e->write_bytes & bytes),
                            Race::read_after_write, e->writer, e->write_site, e->write_strength,
                            site);
            else // a plain read of a word that atomics update: a CAS loop's first step is one
                defer(DeferredRace{self, w, site, e->writer, e->write_site, e->write_strength,
                                   Race::read_after_write, true,
                                   static_cast<uint8_t>(e->write_bytes & bytes)});
        }
        // The value may have been read before the flag that announces it (checked when the
        // thread reads that flag).
        if (writer_block != block && !reported && kind == AccessKind::read && !r.is_self_tagged(w))
            note_early_read(t, w, *e, site, false);
        // A load of part of a store of several words.
        if (writer_block != block && e->store_words > 1) check_split_load(t, r, w, *e, site, shape);
        // Relaxed visibility: a store another block has not made visible yet. A strong load
        // then sees the store before it, if that was another block's strong store too.
        if (relaxed_visibility_ && writer_block != block && !writes && !visible(t, *e)) {
            show_old_value(w, e->old_value);
            if (is_strong(strength))
                if (auto it = strong_stores_.find(w);
                    it != strong_stores_.end() && it->second.previous_writer)
                    note_seen(bs, it->second.previous_writer, it->second.previous_clock,
                              it->second.previous_observed);
        }
    }
    if (reads && is_strong(strength) && e && e->writer != self &&
        (!relaxed_visibility_ || block_of(e->writer) == block || visible(t, *e))) {
        if (t.sync && t.sync->early_count && block_of(e->writer) != block)
            check_early_reads(t, w, *e, site); // a flag, seen: were its values read before it?
        observe(t, w, *e, site);
    }
    if (reads && is_strong(strength) && !e && word.kernel_left_by_this_kernel()) {
        stale_reads_[w] = StaleRead{self, site, 0, 0}; // what an earlier launch left
        note_views();
    } else if (reads && !stale_reads_.empty()) {
        auto it = stale_reads_.find(w);
        if (it != stale_reads_.end() && it->second.reader == self) stale_reads_.erase(it);
        note_views();
    }

    if (writes) {
        if (write_overlaps && e->writer != self &&
            !ordered(t, e->writer, e->write_clock, e->write_warp_sync)) {
            const bool both_atomic = atomic && is_atomic(e->write_strength);
            const bool cross = block_of(e->writer) != block;
            if (both_atomic ? (cross && (strength == Strength::atomic_block ||
                                         e->write_strength == Strength::atomic_block))
                            : !(is_strong(strength) && is_strong(e->write_strength)))
                report_race(t, r, first_shared_byte(w, e->write_bytes & bytes),
                            Race::write_after_write, e->writer, e->write_site, e->write_strength,
                            site, strength);
        }
        if (read_overlaps && last_read->reader != self &&
            !ordered(t, last_read->reader, last_read->read_clock, last_read->read_warp_sync) &&
            !seen_after(bs, last_read->reader, last_read->read_clock)) {
            const bool cross = block_of(last_read->reader) != block;
            const bool both_strong = is_strong(strength) && is_strong(last_read->read_strength);
            if (last_read->read_polled && !is_strong(last_read->read_strength)) {
                report_spin(t, r, w, last_read->read_site, last_read->reader, self, site);
            } else if (!both_strong) {
                const bool cas_exempt = atomic && !is_strong(last_read->read_strength);
                if (!cross && !cas_exempt)
                    report_race(t, r, first_shared_byte(w, last_read->read_bytes & bytes),
                                Race::write_after_read, last_read->reader, last_read->read_site,
                                last_read->read_strength, site);
                else // reported at the end of the launch, unless something names it better
                    defer(DeferredRace{last_read->reader, w, last_read->read_site, self, site,
                                       strength, Race::write_after_read, cas_exempt,
                                       static_cast<uint8_t>(last_read->read_bytes & bytes)});
            }
            // The reader saw what was there before this store: if it later reads a flag this
            // block sets after the store, it used a value from before the flag.
            if (cross && !r.is_self_tagged(w))
                if (Thread* reader = thread_of(last_read->reader)) {
                    GlobalWrite now{};
                    now.writer = self;
                    now.write_time = now_;
                    now.write_site = site;
                    note_early_read(*reader, w, now, last_read->read_site, true);
                }
        }
        if (!stale_reads_.empty()) {
            auto it = stale_reads_.find(w);
            if (it != stale_reads_.end() && it->second.reader != self && !it->second.overwriter) {
                it->second.overwriter = self;
                it->second.overwrite_site = site;
            }
        }
        // (Before delay_visibility, which marks the record as this launch's.)
        if (is_strong(strength)) remember_history(t, w, word, strength, site);
        if (relaxed_visibility_ && !atomic) delay_visibility(t, w, word, visibility_delay);
        record_write(t, self, word, strength, site, bytes,
                     static_cast<uint8_t>((shape.last - shape.first) / 4 + 1),
                     static_cast<uint8_t>((w - shape.first) / 4));
        if (is_strong(strength)) {
            word.write().has_history = true; // remember_history() made its entry
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
            StrongStore next{self,
                             now_,
                             std::move(carried),
                             ts.last_fence_site,
                             ts.last_fence_scope,
                             bs.observed,
                             bs.fence_clock,
                             st.writer,
                             st.fence_clock,
                             st.observed};
            st = std::move(next);
        } else if (last_store_strong) {
            strong_stores_.erase(w);
        }
    }
    if (reads && kind != AccessKind::atomic)
        record_read(t, self, word, strength, site, repeated_plain_read, bytes);
    else if (kind == AccessKind::atomic)
        word.clear_read_now(); // its read is part of the write
    // The thread's compare-and-swap on the word: its plain read before was a CAS loop's guess.
    if (kind == AccessKind::atomic && t.comparing && !deferred_.empty()) compare_and_swap(t, w);
}

// ---- Message passing, the reader's half: values read before their flag --------------------

void GlobalMemoryChecker::note_early_read(Thread& t, uintptr_t w, const GlobalWrite& e,
                                          uint32_t read_site, bool before_write) {
    ThreadSync& ts = sync_of(t);
    forget_early_read(ts, w);
    if (ts.early_count == ThreadSync::kEarlyReads) { // full: the oldest goes
        for (unsigned i = 1; i < ts.early_count; ++i) ts.early[i - 1] = ts.early[i];
        --ts.early_count;
    }
    ts.early[ts.early_count++] =
        ThreadSync::EarlyRead{w, e.writer, e.write_time, e.write_site, read_site, before_write};
}

void GlobalMemoryChecker::forget_early_read(ThreadSync& ts, uintptr_t w) {
    for (unsigned i = 0; i < ts.early_count; ++i)
        if (ts.early[i].word == w) {
            for (unsigned j = i + 1; j < ts.early_count; ++j) ts.early[j - 1] = ts.early[j];
            --ts.early_count;
            return;
        }
}

void GlobalMemoryChecker::check_early_reads(Thread& t, uintptr_t flag_word, const GlobalWrite& flag,
                                            uint32_t read_site) {
    ThreadSync& ts = *t.sync;
    const uint32_t flag_block = block_of(flag.writer);
    for (unsigned i = 0; i < ts.early_count;) {
        const ThreadSync::EarlyRead u = ts.early[i];
        // A value that the flag's block wrote before the flag (not a word of the flag's own
        // store): the thread read it before the flag said it was there.
        if (u.word != flag_word && block_of(u.writer) == flag_block &&
            u.write_time < flag.write_time) {
            report_early_read(t, u, flag_word, flag.writer, flag.write_site, read_site);
            // That names the race better than the deferred write-after-read report would.
            std::erase_if(deferred_, [&](const DeferredRace& d) {
                return d.reader == grid_thread(t) && d.word == u.word && !d.cas_exempt;
            });
            for (unsigned j = i + 1; j < ts.early_count; ++j) ts.early[j - 1] = ts.early[j];
            --ts.early_count;
            continue;
        }
        ++i;
    }
}

// ---- What the last-write record forgets: history of strongly written words ---------------

void GlobalMemoryChecker::remember_history(Thread& t, uintptr_t w, GlobalShadow::Word word,
                                           Strength strength, uint32_t site) {
    WordHistory& h = history_[w];
    // (record_write, after this, keeps the flag: the record is this launch's from then on.)
    if (word.written_now() && !is_strong(word.write().write_strength)) {
        const GlobalWrite& e = word.write(); // the plain store this one replaces in the record
        h.has_plain = true;
        h.plain_bytes = e.write_bytes;
        h.plain = StrongWriter{e.writer, e.write_clock, e.write_site, e.write_warp_sync,
                               e.write_strength};
    }
    const StrongWriter mine{grid_thread(t), t.block->clock, site,
                            static_cast<uint16_t>(t.warp->sync_epoch), strength};
    if (!h.strong.empty() && block_of(h.strong.back().writer) == t.block->linear) {
        h.strong.back() = mine;
        return;
    }
    if (h.strong.size() == kStrongWritersPerWord) { // bounded: the older half goes
        h.strong.erase(h.strong.begin(), h.strong.begin() + kStrongWritersPerWord / 2);
        history_trimmed_ = true;
    }
    h.strong.push_back(mine);
}

void GlobalMemoryChecker::check_history(Thread& t, const Region& r, uintptr_t w, AccessKind kind,
                                        Strength strength, uint32_t site, uint8_t bytes) {
    auto it = history_.find(w);
    if (it == history_.end()) return;
    const WordHistory& h = it->second;
    const uint32_t self = grid_thread(t);
    const Race race = kind == AccessKind::read ? Race::read_after_write : Race::write_after_write;
    // A plain store that strong ones replaced in the record: any access unordered with it races.
    if (h.has_plain && (h.plain_bytes & bytes) && h.plain.writer != self &&
        !ordered(t, h.plain.writer, h.plain.clock, h.plain.warp_sync)) {
        report_race(t, r, w, race, h.plain.writer, h.plain.site, Strength::plain, site, strength);
        return;
    }
    if (is_strong(strength)) return; // strong against strong: no race
    // A plain access against the strong stores of other threads (not only the latest one).
    for (auto s = h.strong.rbegin(); s != h.strong.rend(); ++s) {
        if (s->writer == self || ordered(t, s->writer, s->clock, s->warp_sync)) continue;
        if (race == Race::read_after_write && is_atomic(s->strength))
            defer(DeferredRace{self, w, site, s->writer, s->site, s->strength, race, true});
        else
            report_race(t, r, w, race, s->writer, s->site, s->strength, site, strength);
        return;
    }
}

// ---- Deferred races ------------------------------------------------------------------------

void GlobalMemoryChecker::defer(const DeferredRace& d) {
    for (const DeferredRace& o : deferred_)
        if (o.reader == d.reader && o.word == d.word && o.race == d.race) return; // known
    if (deferred_.size() == kMaxDeferred) { // bounded: report the oldest now
        report_deferred(deferred_.front());
        deferred_.erase(deferred_.begin());
    }
    deferred_.push_back(d);
}

void GlobalMemoryChecker::compare_and_swap(Thread& t, uintptr_t w) {
    const uint32_t self = grid_thread(t);
    std::erase_if(deferred_, [&](const DeferredRace& d) {
        return d.cas_exempt && d.reader == self && d.word == w;
    });
}

// ---- Torn descriptors: one value in two accesses ---------------------------------------------

void GlobalMemoryChecker::check_torn_load(Thread& t, const Region& r, uintptr_t address,
                                          size_t bytes, uint32_t site) {
    // A load of several words, each last written by another block with nothing ordering it
    // before this load: written by different stores, the load can see one new and one old.
    const GlobalWrite* first = nullptr;
    const uintptr_t end = address + bytes;
    for (uintptr_t w = address & ~uintptr_t{3}; w < end; w += 4) {
        GlobalShadow::Word word = shadow_.word(w);
        if (!word.written_now()) continue;
        const GlobalWrite& e = word.write();
        if (block_of(e.writer) == t.block->linear ||
            ordered(t, e.writer, e.write_clock, e.write_warp_sync))
            continue;
        if (!first) {
            first = &e;
            continue;
        }
        const bool same_store = e.writer == first->writer && e.write_time == first->write_time;
        // Stores of one block with a device fence (or barrier) between them are ordered.
        const bool fenced =
            block_of(e.writer) == block_of(first->writer) && e.write_fences != first->write_fences;
        if (!same_store && !fenced) {
            report_torn_store(t, r, address, bytes, *first, e, site);
            return;
        }
    }
}

void GlobalMemoryChecker::check_split_load(Thread& t, const Region& r, uintptr_t w,
                                           const GlobalWrite& e, uint32_t site, AccessShape shape) {
    const uintptr_t store_first = w - 4 * uintptr_t{e.store_index};
    const uintptr_t store_last = store_first + 4 * (uintptr_t{e.store_words} - 1);
    if (shape.first <= store_first && shape.last >= store_last) return; // the whole store
    ThreadSync& ts = sync_of(t);
    for (const ThreadSync::PartialLoad& p : ts.partial)
        if (p.first_word == store_first && p.word != w && p.word != 0 &&
            block_of(p.writer) == block_of(e.writer)) {
            report_split_load(t, r, p, w, site, (shape.last - shape.first) + 4, e.store_words);
            return;
        }
    ts.partial[ts.next_partial++ % ThreadSync::kPartialLoads] =
        ThreadSync::PartialLoad{store_first, w, e.writer, e.write_time, e.write_site, site};
}

// ---- Programmatic dependent launch -------------------------------------------------------------

void GlobalMemoryChecker::grid_dependency_synchronized(Thread& t) {
    if (t.block->sync) sync_of(t).dependency_synced = true;
}

void GlobalMemoryChecker::launch_finished() {
    restore_views();
    for (const DeferredRace& d : deferred_) report_deferred(d);
    deferred_.clear();
    if (history_trimmed_)
        std::fprintf(stderr,
                     "simt: note: in this launch more than %zu blocks made volatile or atomic "
                     "stores to one word; the checks keep the last %zu of them per word, so a "
                     "plain access racing an older one may not be reported\n",
                     kStrongWritersPerWord, kStrongWritersPerWord / 2);
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
    note_views();
}

} // namespace simt::detail
