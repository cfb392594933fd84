// The inline half of the shared-memory checks (SharedMemoryChecker), on the engine's fast path of
// every access: it needs the engine's Thread, Warp and Block, so engine.h includes it at its end.
#pragma once

namespace simt::detail {

inline bool SharedMemoryChecker::ordered(const Thread* me, const Block* b, const Warp* w,
                                         uint32_t other, uint32_t epoch, uint32_t warp_sync,
                                         uint32_t clock) const {
    if (epoch != b->barrier_epoch) return true;
    if ((other - 1) / 32 == w->index && (warp_synchronous_ || warp_sync != w->sync_epoch))
        return true;
    return me->mbarrier_known != nullptr && clock <= me->mbarrier_known[other - 1];
}

// For record_read (static): a read by `other` in this barrier epoch is ordered before the current
// thread's access only by a warp-wide collective between them, when both are lanes of one warp.
// (The pre-volta mode's trust in lockstep is applied when the write is checked.)
inline bool SharedMemoryChecker::ordered_reads(const Warp* w, uint32_t other, uint32_t warp_sync) {
    return (other - 1) / 32 == w->index && warp_sync != w->sync_epoch;
}

// What the shadow word remembers of the access that just passed the checks. A thread's accesses
// to parts of one word with nothing ordering them in between add up (a char written after its
// neighbour); a whole word replaces what came before (a constant store on the fast path).
inline void SharedMemoryChecker::record_read(ShadowWord& s, const Thread* me, const Block* b,
                                             const Warp* w, const void* site, uint8_t bytes) {
    const uint32_t self = me->linear + 1;
    const bool adds = bytes != kWholeWord && s.reader == self && s.read_epoch == b->barrier_epoch &&
                      s.read_warp_sync == w->sync_epoch;
    if (s.reader != self && s.reader != 0 && s.read_epoch == b->barrier_epoch &&
        !ordered_reads(w, s.reader, s.read_warp_sync)) {
        s.other_reader = s.reader; // still unordered with what comes next: keep it
        s.other_read_epoch = s.read_epoch;
        s.other_read_warp_sync = s.read_warp_sync;
        s.other_read_site = s.read_site;
        s.other_read_bytes = s.read_bytes;
        s.other_read_clock = s.read_clock;
    }
    s.read_bytes = adds ? static_cast<uint8_t>(s.read_bytes | bytes) : bytes;
    s.reader = self;
    s.read_epoch = b->barrier_epoch;
    s.read_warp_sync = w->sync_epoch;
    s.read_site = site;
    s.read_clock = b->clock;
}

inline void SharedMemoryChecker::record_write(ShadowWord& s, const Thread* me, const Block* b,
                                              const Warp* w, const void* site, bool atomic,
                                              uint8_t bytes) {
    const uint32_t self = me->linear + 1;
    const bool adds = bytes != kWholeWord && s.writer == self &&
                      s.write_epoch == b->barrier_epoch && s.write_warp_sync == w->sync_epoch;
    s.write_bytes = adds ? static_cast<uint8_t>(s.write_bytes | bytes) : bytes;
    s.written_bytes =
        bytes == kWholeWord ? kWholeWord : static_cast<uint8_t>(s.written_bytes | bytes);
    s.writer = self;
    s.write_epoch = b->barrier_epoch;
    s.write_warp_sync = w->sync_epoch;
    s.write_site = site;
    s.write_atomic = atomic;
    s.write_clock = b->clock;
}

// The checks of one whole word on the fast path: true if nothing is to be reported (the access
// is then recorded by fast_record).
inline bool SharedMemoryChecker::fast_clean(const ShadowWord& s, const Thread* me, const Block* b,
                                            const Warp* w, AccessKind kind) const {
    const uint32_t self = me->linear + 1;
    if (kind == AccessKind::read)
        return s.writer == self || (s.writer != 0 && ordered(me, b, w, s.writer, s.write_epoch,
                                                             s.write_warp_sync, s.write_clock));
    return (s.writer == self || s.writer == 0 ||
            ordered(me, b, w, s.writer, s.write_epoch, s.write_warp_sync, s.write_clock)) &&
           (s.reader == self || s.reader == 0 ||
            ordered(me, b, w, s.reader, s.read_epoch, s.read_warp_sync, s.read_clock)) &&
           (s.other_reader == self || s.other_reader == 0 ||
            ordered(me, b, w, s.other_reader, s.other_read_epoch, s.other_read_warp_sync,
                    s.other_read_clock));
}

inline void SharedMemoryChecker::fast_record(ShadowWord& s, const Thread* me, const Block* b,
                                             const Warp* w, AccessKind kind, const void* site) {
    if (kind == AccessKind::read)
        record_read(s, me, b, w, site, kWholeWord);
    else
        record_write(s, me, b, w, site, false, kWholeWord);
}

inline bool SharedMemoryChecker::fast_access(Thread* me, Block* b, Warp* w, size_t in_var,
                                             size_t bytes, AccessKind kind, const void* site) {
    // One whole word, or two (an aligned 8-byte access: check_words would check and record
    // each of them whole, as here); the engine has found it aligned and inside the variable of
    // the block's last access, and variables start on 16 bytes. A part of a word goes the
    // general way. Both words are checked before either is recorded, so that a word with
    // something to report leaves the shadow as it was for the general path.
    ShadowWord* s = &b->last_shadow[in_var / 4];
    if (bytes == 4) [[likely]] {
        if (!fast_clean(s[0], me, b, w, kind)) [[unlikely]]
            return false;
    } else if (bytes == 8) {
        if (!fast_clean(s[0], me, b, w, kind) || !fast_clean(s[1], me, b, w, kind)) [[unlikely]]
            return false;
        fast_record(s[1], me, b, w, kind, site);
    } else [[unlikely]] {
        return false;
    }
    fast_record(s[0], me, b, w, kind, site);
    return true;
}

} // namespace simt::detail
