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

std::string SharedMemoryChecker::describe(const Block* b, size_t offset) const {
    const SharedAllocation* v = variable_at(b, offset);
    if (!v) return "shared offset " + std::to_string(offset);
    const auto byte = static_cast<std::ptrdiff_t>(offset - v->offset);
    const std::string element = shared_element_name(*v, byte);
    std::ostringstream s;
    if (element.rfind("byte ", 0) != 0) s << element << ", "; // an element is named
    s << "byte " << byte << " of " << shared_variable_summary(*v);
    return s.str();
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

void SharedMemoryChecker::report_out_of_bounds(Thread* me, size_t storage, size_t bytes,
                                               AccessKind kind, const void* site) {
    RuntimeScope scope(me);
    const Block* b = me->block;
    std::ostringstream msg;
    msg << "out-of-bounds shared memory " << (kind == AccessKind::read ? "read" : "write") << " of "
        << bytes << " bytes";
    // The first variable that does not lie wholly before the access, and the one before it.
    const auto& vars = b->shared_vars;
    size_t next = 0;
    while (next < vars.size() && vars[next].storage + vars[next].bytes <= storage) ++next;
    const SharedAllocation* after = next < vars.size() ? &vars[next] : nullptr;
    const SharedAllocation* before = next > 0 ? &vars[next - 1] : nullptr;
    auto at = [&](const SharedAllocation& v) {
        return shared_element_name(v, static_cast<std::ptrdiff_t>(storage) -
                                          static_cast<std::ptrdiff_t>(v.storage));
    };
    if (after && storage >= after->storage) {
        // It starts inside a variable and runs out of it.
        msg << " at " << at(*after) << ": it runs "
            << storage + bytes - (after->storage + after->bytes) << " bytes past the end of "
            << shared_variable_summary(*after);
    } else {
        // In a guard zone (or past them all): named after the nearer variable, the one it ran
        // past on a tie.
        const size_t past = before ? storage + bytes - (before->storage + before->bytes) : 0;
        const size_t ahead = after ? after->storage - storage : 0;
        if (before && (!after || past <= ahead))
            msg << ", " << past << " bytes past the end of " << shared_variable_summary(*before)
                << ", at " << at(*before);
        else if (after)
            msg << ", " << ahead << " bytes before the start of " << shared_variable_summary(*after)
                << ", at " << at(*after);
        else
            msg << ": the block has no __shared__ variable";
    }
    // Where the kernel aimed, in its view of the shared window: past the variable it ran out of.
    AccessRecord access{me, 0, role_of(kind), true, 0, bytes, site, true};
    if (before)
        access.address = before->offset + (storage - before->storage);
    else if (after)
        access.address = after->offset - (after->storage - storage);
    sink_.fatal(FaultKind::illegal_address, cudaErrorIllegalAddress, msg.str(), site, &access);
    __builtin_unreachable(); // (g++ does not carry [[noreturn]] through the virtual call)
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
            else if (!ordered(b, w, s.writer, s.write_epoch, s.write_warp_sync))
                report_race(me, offset, bytes, kind, Race::read_after_write, site);
        }
        record_read(s, self, b, w, site, kWholeWord);
    } else {
        if (s.writer != self && s.writer != 0 &&
            !ordered(b, w, s.writer, s.write_epoch, s.write_warp_sync))
            report_race(me, offset, bytes, kind, Race::write_after_write, site);
        if (s.reader != self && s.reader != 0 &&
            !ordered(b, w, s.reader, s.read_epoch, s.read_warp_sync))
            report_race(me, offset, bytes, kind, Race::write_after_read, site);
        if (s.other_reader != self && s.other_reader != 0 &&
            !ordered(b, w, s.other_reader, s.other_read_epoch, s.other_read_warp_sync))
            report_race(me, offset, bytes, kind, Race::write_after_other_read, site);
        record_write(s, self, b, w, site, false, kWholeWord);
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
        // its padding (or an unwritten member) freely, and so may a correct program.
        bool any_written = false;
        for (size_t word = first; word <= last; ++word)
            any_written = any_written || (b->shadow_words[word].written_bytes & touched(word)) != 0;
        if (!any_written) report_uninitialized(me, offset, bytes, site);
    }
    for (size_t word = first; word <= last; ++word) {
        ShadowWord& s = b->shadow_words[word];
        const uint8_t mine = touched(word);
        const size_t at = std::max(offset, word * 4); // its first byte in this word
        const bool unordered_write = s.writer != 0 && s.writer != self &&
                                     (s.write_bytes & mine) != 0 && !(atomic && s.write_atomic) &&
                                     !ordered(b, w, s.writer, s.write_epoch, s.write_warp_sync);
        if (reads && unordered_write)
            report_race(me, at, std::min<size_t>(bytes, 4), kind, Race::read_after_write, site);
        if (writes) {
            if (unordered_write)
                report_race(me, at, std::min<size_t>(bytes, 4), kind, Race::write_after_write,
                            site);
            if (s.reader != 0 && s.reader != self && (s.read_bytes & mine) != 0 &&
                !ordered(b, w, s.reader, s.read_epoch, s.read_warp_sync))
                report_race(me, at, std::min<size_t>(bytes, 4), kind, Race::write_after_read, site);
            if (s.other_reader != 0 && s.other_reader != self && (s.other_read_bytes & mine) != 0 &&
                !ordered(b, w, s.other_reader, s.other_read_epoch, s.other_read_warp_sync))
                report_race(me, at, std::min<size_t>(bytes, 4), kind, Race::write_after_other_read,
                            site);
            record_write(s, self, b, w, site, atomic, mine);
        } else {
            record_read(s, self, b, w, site, mine);
        }
    }
}

void SharedMemoryChecker::report_uninitialized(Thread* me, size_t offset, size_t bytes,
                                               const void* site) {
    RuntimeScope scope(me);
    sink_.report(FaultKind::uninitialized_read,
                 "uninit:" + std::to_string(reinterpret_cast<uintptr_t>(site)),
                 [&] {
                     return "uninitialized shared memory read: " + describe(me->block, offset) +
                            " is read before any thread of the block wrote it";
                 },
                 site, me,
                 {AccessRecord{me, 0, AccessRole::load, true, offset, bytes, site, true}});
}

void SharedMemoryChecker::report_race(Thread* me, size_t offset, size_t bytes, AccessKind kind,
                                      Race race, const void* site) {
    RuntimeScope scope(me);
    Block* b = me->block;
    const ShadowWord& s = b->shadow_words[offset / 4];
    const bool against_other_read = race == Race::write_after_other_read;
    if (against_other_read) race = Race::write_after_read; // the same report, another reader
    const bool against_write = race != Race::write_after_read;
    const uint32_t other_index = against_write        ? s.writer
                                 : against_other_read ? s.other_reader
                                                      : s.reader;
    const Thread& other = b->threads[other_index - 1];
    const bool same_warp = (other_index - 1) / 32 == me->warp->index;
    const void* other_site = against_write        ? s.write_site
                             : against_other_read ? s.other_read_site
                                                  : s.read_site;
    const char* tag = race == Race::write_after_read   ? "war:"
                      : race == Race::read_after_write ? "raw:"
                                                       : "waw:";
    const std::string key = tag + std::to_string(reinterpret_cast<uintptr_t>(other_site)) + ":" +
                            std::to_string(reinterpret_cast<uintptr_t>(site));
    sink_.report(
        FaultKind::shared_race, key,
        [&] {
            const std::string where = describe(b, offset);
            const std::string them = sink_.describe_thread(other);
            const std::string line = resolve_source(other_site).to_string();
            if (!against_write)
                return "shared memory race (write after read): " + where + " was read by " + them +
                       " at " + line +
                       " and is overwritten here with no __syncthreads() in between "
                       "(double-buffer, or add a barrier between the read and the write)" +
                       (same_warp ? "; the two threads are in one warp, whose lanes do not run in "
                                    "lockstep either"
                                  : "");
            if (race == Race::read_after_write)
                return "shared memory race (read after write): " + where + " was written by " +
                       them + " at " + line +
                       " and is read here with no __syncthreads() in between" +
                       (same_warp ? " (the two threads are in one warp, whose lanes do not run in "
                                    "lockstep either)"
                                  : "");
            return "shared memory race (write after write): " + where + " was written by " + them +
                   " at " + line + " and is written again here with no __syncthreads() in between";
        },
        site, me,
        {AccessRecord{me, 0, role_of(kind), true, offset, bytes, site, true},
         AccessRecord{&other, 0,
                      !against_write   ? AccessRole::load
                      : s.write_atomic ? AccessRole::atomic
                                       : AccessRole::store,
                      true, offset, std::min<size_t>(bytes, 4), other_site, false}});
}

} // namespace simt::detail
