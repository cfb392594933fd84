#include "shared_memory_checker.h"

#include <sstream>

#include "../engine.h"
#include "../source_lines.h"

namespace simt::detail {

const SharedAllocation* SharedMemoryChecker::variable_at(const Block* b, size_t offset) {
    for (const SharedAllocation& v : b->shared_vars)
        if (offset - v.offset < v.bytes) return &v;
    return nullptr;
}

std::string SharedMemoryChecker::describe(const Block* b, size_t offset) const {
    const SharedAllocation* v = variable_at(b, offset);
    std::ostringstream s;
    if (v)
        s << "byte " << (offset - v->offset) << " of '" << v->name << "' (" << v->bytes
          << " bytes)";
    else
        s << "shared offset " << offset;
    return s.str();
}

void SharedMemoryChecker::access(Thread& thread, size_t offset, size_t bytes, AccessKind kind,
                                 const void* site) {
    Thread* me = &thread;
    Block* b = me->block;
    // Most accesses hit the variable of the block's last access, and one word.
    if (offset - b->last_lo >= b->last_span || offset - b->last_lo + bytes > b->last_span)
        find_variable(me, offset, bytes, kind, site);
    if ((offset & 3) + bytes > 4 || kind == AccessKind::atomic) {
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
                report_uninitialized(me, word, site);
            else if (!ordered(b, w, s.writer, s.write_epoch, s.write_warp_sync))
                report_race(me, word, Race::read_after_write, site);
        }
        record_read(s, self, b, w, site);
    } else {
        if (s.writer != self && s.writer != 0 &&
            !ordered(b, w, s.writer, s.write_epoch, s.write_warp_sync))
            report_race(me, word, Race::write_after_write, site);
        if (s.reader != self && s.reader != 0 &&
            !ordered(b, w, s.reader, s.read_epoch, s.read_warp_sync))
            report_race(me, word, Race::write_after_read, site);
        record_write(s, self, b, w, site, false);
    }
}

void SharedMemoryChecker::find_variable(Thread* me, size_t offset, size_t bytes, AccessKind kind,
                                        const void* site) {
    Block* b = me->block;
    const SharedAllocation* v = variable_at(b, offset);
    if (v && offset + bytes <= v->offset + v->bytes) {
        b->last_lo = v->offset;
        b->last_span = v->bytes;
        return;
    }
    RuntimeScope scope(me);
    std::ostringstream msg;
    msg << "out-of-bounds shared memory " << (kind == AccessKind::read ? "read" : "write") << " of "
        << bytes << " bytes at shared offset " << offset << ": ";
    if (v)
        msg << "it runs past the end of '" << v->name << "' (" << v->bytes << " bytes)";
    else if (const SharedAllocation* below = [&]() -> const SharedAllocation* {
                 const SharedAllocation* best = nullptr;
                 for (const SharedAllocation& x : b->shared_vars)
                     if (x.offset + x.bytes <= offset && (!best || x.offset > best->offset))
                         best = &x;
                 return best;
             }())
        msg << (offset - (below->offset + below->bytes)) << " bytes past the end of '"
            << below->name << "' (" << below->bytes << " bytes)";
    else
        msg << "no __shared__ variable is there";
    sink_.fatal(FaultKind::illegal_address, cudaErrorIllegalAddress, msg.str(), site);
}

// The general case: accesses that span several words, and atomics.
void SharedMemoryChecker::check_words(Thread* me, size_t offset, size_t bytes, AccessKind kind,
                                      const void* site) {
    Block* b = me->block;
    const uint32_t self = me->linear + 1;
    Warp* w = me->warp;
    const size_t first = offset / 4, last = (offset + bytes - 1) / 4;
    const bool reads = kind != AccessKind::write, writes = kind != AccessKind::read;
    const bool atomic = kind == AccessKind::atomic;
    if (reads) {
        // Uninitialized only if no byte of the access was written: a GPU copies a struct with
        // its padding (or an unwritten member) freely, and so may a correct program.
        bool any_written = false;
        for (size_t word = first; word <= last; ++word)
            any_written = any_written || b->shadow_words[word].writer != 0;
        if (!any_written) report_uninitialized(me, first, site);
    }
    for (size_t word = first; word <= last; ++word) {
        ShadowWord& s = b->shadow_words[word];
        const bool unordered_write = s.writer != 0 && s.writer != self &&
                                     !(atomic && s.write_atomic) &&
                                     !ordered(b, w, s.writer, s.write_epoch, s.write_warp_sync);
        if (reads && unordered_write) report_race(me, word, Race::read_after_write, site);
        if (writes) {
            if (unordered_write) report_race(me, word, Race::write_after_write, site);
            if (s.reader != 0 && s.reader != self &&
                !ordered(b, w, s.reader, s.read_epoch, s.read_warp_sync))
                report_race(me, word, Race::write_after_read, site);
            record_write(s, self, b, w, site, atomic);
        } else {
            record_read(s, self, b, w, site);
        }
    }
}

void SharedMemoryChecker::report_uninitialized(Thread* me, size_t word, const void* site) {
    RuntimeScope scope(me);
    sink_.report(
        FaultKind::uninitialized_read,
        "uninit:" + std::to_string(reinterpret_cast<uintptr_t>(site)),
        [&] {
            return "uninitialized shared memory read: " + describe(me->block, word * 4) +
                   " is read before any thread of the block wrote it";
        },
        site, me);
}

void SharedMemoryChecker::report_race(Thread* me, size_t word, Race race, const void* site) {
    RuntimeScope scope(me);
    Block* b = me->block;
    const ShadowWord& s = b->shadow_words[word];
    const bool against_write = race != Race::write_after_read;
    const uint32_t other_index = against_write ? s.writer : s.reader;
    const Thread& other = b->threads[other_index - 1];
    const bool same_warp = (other_index - 1) / 32 == me->warp->index;
    const void* other_site = against_write ? s.write_site : s.read_site;
    const char* tag = race == Race::write_after_read   ? "war:"
                      : race == Race::read_after_write ? "raw:"
                                                       : "waw:";
    const std::string key = tag + std::to_string(reinterpret_cast<uintptr_t>(other_site)) + ":" +
                            std::to_string(reinterpret_cast<uintptr_t>(site));
    sink_.report(
        FaultKind::shared_race, key,
        [&] {
            const std::string where = describe(b, word * 4);
            const std::string them = sink_.describe_thread(other);
            const std::string line = resolve_source(other_site).to_string();
            if (!against_write)
                return "shared memory race (write after read): " + where + " was read by " + them +
                       " at " + line +
                       " and is overwritten here with no __syncthreads() in between "
                       "(double-buffer, or add a barrier between the read and the write)" +
                       (same_warp ? "; same warp: lanes need __syncwarp() between them" : "");
            if (race == Race::read_after_write)
                return "shared memory race (read after write): " + where + " was written by " +
                       them + " at " + line +
                       " and is read here with no __syncthreads() in between" +
                       (same_warp ? " (same warp: lanes need __syncwarp() between them)" : "");
            return "shared memory race (write after write): " + where + " was written by " + them +
                   " at " + line + " and is written again here with no __syncthreads() in between";
        },
        site, me);
}

} // namespace simt::detail
