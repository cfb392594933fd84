#include "shared_memory_checker.h"

#include <algorithm>
#include <sstream>

#include "../engine.h"
#include "../source_lines.h"
#include "shared_element_name.h"

namespace simt::detail {

const SharedAllocation* SharedMemoryChecker::variable_at(const Block* b, size_t offset) {
    for (const SharedAllocation& v : b->shared_vars)
        if (offset - v.offset < v.bytes) return &v;
    return nullptr;
}

bool SharedMemoryChecker::ordered_before(const Thread& me, uint32_t other, uint32_t epoch,
                                         uint32_t warp_sync, uint32_t clock) const {
    return ordered(&me, me.block, me.warp, other, epoch, warp_sync, clock);
}

ShadowWord* SharedMemoryChecker::shadow_at(Block& b, size_t storage, size_t* offset) {
    if (!b.shadow_words) return nullptr;
    for (const SharedAllocation& v : b.shared_vars)
        if (storage - v.storage < v.bytes) {
            const size_t at = v.offset + (storage - v.storage);
            if (offset) *offset = at;
            return &b.shadow_words[at / 4];
        }
    return nullptr;
}

void SharedMemoryChecker::record_async_read(Thread& me, size_t storage, size_t bytes,
                                            const void* site) {
    for (size_t at = storage & ~size_t{3}; at < storage + bytes; at += 4)
        if (ShadowWord* s = shadow_at(*me.block, at))
            record_read(*s, &me, me.block, me.warp, site, kWholeWord);
}

void SharedMemoryChecker::locate(Thread& thread, size_t storage, size_t bytes, AccessKind kind,
                                 const void* site) {
    Block* b = thread.block;
    const size_t in_last = storage - b->last_lo;
    if (in_last < b->last_span4 && in_last + bytes <= b->last_span4) return;
    // Variables lie in the buffer in the order of shared_vars.
    for (size_t i = 0; i < b->shared_vars.size(); ++i) {
        const SharedAllocation& v = b->shared_vars[i];
        if (storage - v.storage < v.bytes && storage + bytes <= v.storage + v.bytes) {
            b->last_lo = v.storage;
            b->last_span4 = v.bytes / 4 * 4;
            b->last_span8 = v.bytes / 8 * 8;
            b->last_var = i;
            b->last_shadow = b->shadow_words ? b->shadow_words + v.offset / 4 : nullptr;
            return;
        }
    }
    report_out_of_bounds(&thread, storage, bytes, kind, site);
}

void SharedMemoryChecker::access(Thread& thread, size_t storage, size_t bytes, AccessKind kind,
                                 const void* site) {
    Thread* me = &thread;
    Block* b = me->block;
    // From here on offsets are the kernel's (locate() made the variable the block's last one).
    const size_t offset = b->shared_vars[b->last_var].offset + (storage - b->last_lo);
    if (bytes != 4 || (offset & 3) != 0 || kind == AccessKind::atomic) {
        check_words(me, offset, bytes, kind, site);
        return;
    }
    const uint32_t self = me->linear + 1;
    const size_t word = offset / 4;
    ShadowWord& s = b->shadow_words[word];
    Warp* w = me->warp;
    if (kind == AccessKind::read) {
        if (s.writer != self) {
            if (s.writer == 0)
                report_uninitialized(me, offset, bytes, site);
            else if (!ordered(me, b, w, s.writer, s.write_epoch, s.write_warp_sync, s.write_clock))
                report_race(me, offset, bytes, kind, Race::read_after_write, site);
        }
        record_read(s, me, b, w, site, kWholeWord);
    } else {
        if (s.writer != self && s.writer != 0 &&
            !ordered(me, b, w, s.writer, s.write_epoch, s.write_warp_sync, s.write_clock))
            report_race(me, offset, bytes, kind, Race::write_after_write, site);
        if (s.reader != self && s.reader != 0 &&
            !ordered(me, b, w, s.reader, s.read_epoch, s.read_warp_sync, s.read_clock))
            report_race(me, offset, bytes, kind, Race::write_after_read, site);
        if (s.other_reader != self && s.other_reader != 0 &&
            !ordered(me, b, w, s.other_reader, s.other_read_epoch, s.other_read_warp_sync,
                     s.other_read_clock))
            report_race(me, offset, bytes, kind, Race::write_after_other_read, site);
        record_write(s, me, b, w, site, false, kWholeWord);
    }
}

// The general case: parts of a word, accesses that span several words, and atomics. Only the
// bytes accessed count: two threads that write neighbouring chars of one word do not race.
void SharedMemoryChecker::check_words(Thread* me, size_t offset, size_t bytes, AccessKind kind,
                                      const void* site) {
    Block* b = me->block;
    const uint32_t self = me->linear + 1;
    Warp* w = me->warp;
    const size_t first = offset / 4, last = (offset + bytes - 1) / 4;
    const bool reads = kind != AccessKind::write, writes = kind != AccessKind::read;
    const bool atomic = kind == AccessKind::atomic;
    // The mask of the bytes of `word` that the access touches.
    auto touched = [&](size_t word) {
        const size_t lo = std::max(offset, word * 4), hi = std::min(offset + bytes, word * 4 + 4);
        return static_cast<uint8_t>(((1u << (hi - lo)) - 1) << (lo - word * 4));
    };
    if (reads) {
        // Uninitialized only if no byte of the access was written: a GPU copies a struct with
        // its padding (or an unwritten member) freely, and so may a correct program. An
        // atomicExch stores what it is given whatever was there, so it may initialize a word (as
        // in device memory: GlobalMemoryChecker::access); other atomics store what depends on the
        // old value (atomicCAS's comparison too), and are reported.
        bool any_written = atomic && me->exchanging;
        for (size_t word = first; word <= last; ++word)
            any_written = any_written || (b->shadow_words[word].written_bytes & touched(word)) != 0;
        if (!any_written) report_uninitialized(me, offset, bytes, site);
    }
    for (size_t word = first; word <= last; ++word) {
        ShadowWord& s = b->shadow_words[word];
        const uint8_t mine = touched(word);
        const size_t at = std::max(offset, word * 4); // its first byte in this word
        const bool unordered_write =
            s.writer != 0 && s.writer != self && (s.write_bytes & mine) != 0 &&
            !(atomic && s.write_atomic) &&
            !ordered(me, b, w, s.writer, s.write_epoch, s.write_warp_sync, s.write_clock);
        if (reads && unordered_write)
            report_race(me, at, std::min<size_t>(bytes, 4), kind, Race::read_after_write, site);
        if (writes) {
            if (unordered_write)
                report_race(me, at, std::min<size_t>(bytes, 4), kind, Race::write_after_write,
                            site);
            if (s.reader != 0 && s.reader != self && (s.read_bytes & mine) != 0 &&
                !ordered(me, b, w, s.reader, s.read_epoch, s.read_warp_sync, s.read_clock))
                report_race(me, at, std::min<size_t>(bytes, 4), kind, Race::write_after_read, site);
            if (s.other_reader != 0 && s.other_reader != self && (s.other_read_bytes & mine) != 0 &&
                !ordered(me, b, w, s.other_reader, s.other_read_epoch, s.other_read_warp_sync,
                         s.other_read_clock))
                report_race(me, at, std::min<size_t>(bytes, 4), kind, Race::write_after_other_read,
                            site);
            record_write(s, me, b, w, site, atomic, mine);
        } else {
            record_read(s, me, b, w, site, mine);
        }
    }
}

} // namespace simt::detail
