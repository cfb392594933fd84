// The shared-memory checker's reports: races, reads of never-written memory and accesses out of
// bounds, named by variable and element. They run once per report, not per access, so they are
// compiled with the runtime's once-per-call code, unoptimized (CMakeLists.txt:
// simt_cold_objects).
#include "shared_memory_checker.h"

#include <sstream>

#include "../engine.h"
#include "../source_lines.h"
#include "shared_element_name.h"
#include "../bulk_store_runtime.h"
#include "../mbarrier_runtime.h"

namespace simt::detail {

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
            std::string advice = bulk_store_race_advice(*b, other_site, site, against_write);
            if (advice.empty()) advice = mbarrier_race_advice(*b, other_site, site, against_write);
            return race_message(b, offset, race, against_write, other, other_site, same_warp) +
                   advice;
        },
        site, me,
        {AccessRecord{me, 0, role_of(kind), true, offset, bytes, site, true},
         AccessRecord{&other, 0,
                      !against_write   ? AccessRole::load
                      : s.write_atomic ? AccessRole::atomic
                                       : AccessRole::store,
                      true, offset, std::min<size_t>(bytes, 4), other_site, false}});
}

std::string SharedMemoryChecker::race_message(const Block* b, size_t offset, Race race,
                                              bool against_write, const Thread& other,
                                              const void* other_site, bool same_warp) const {
    const std::string where = describe(b, offset);
    const std::string them = sink_.describe_thread(other);
    const std::string line = resolve_source(other_site).to_string();
    if (!against_write)
        return "shared memory race (write after read): " + where + " was read by " + them + " at " +
               line +
               " and is overwritten here with no __syncthreads() in between "
               "(double-buffer, or add a barrier between the read and the write)" +
               (same_warp ? "; the two threads are in one warp, whose lanes do not run in "
                            "lockstep either"
                          : "");
    if (race == Race::read_after_write)
        return "shared memory race (read after write): " + where + " was written by " + them +
               " at " + line + " and is read here with no __syncthreads() in between" +
               (same_warp ? " (the two threads are in one warp, whose lanes do not run in "
                            "lockstep either)"
                          : "");
    return "shared memory race (write after write): " + where + " was written by " + them + " at " +
           line + " and is written again here with no __syncthreads() in between";
}

} // namespace simt::detail
