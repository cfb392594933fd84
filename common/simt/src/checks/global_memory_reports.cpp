// The global-memory checker's reports: what a race, a missing fence or a spin on a plain read
// looks like to the student. They run once per report, not per access, so they are compiled
// with the runtime's once-per-call code, unoptimized (CMakeLists.txt: simt_cold_objects).
#include "global_memory_checker.h"

#include <sstream>

#include "../engine.h"
#include "../memory_registry.h"
#include "../source_lines.h"

namespace simt::detail {

namespace {
const char* scope_fence_name(MemoryScope scope) {
    switch (scope) {
    case MemoryScope::block:
        return "__threadfence_block()";
    case MemoryScope::device:
        return "__threadfence()";
    case MemoryScope::system:
        return "__threadfence_system()";
    }
    return "a fence";
}
} // namespace

std::string GlobalMemoryChecker::where(const Region& r, uintptr_t word) const {
    std::ostringstream s;
    s << "byte " << (word - r.base) << " of ";
    if (r.kind == RegionKind::symbol && !r.name.empty())
        s << "__device__ variable '" << r.name << "'";
    else
        s << "a " << to_string(r.kind) << " of " << r.bytes << " bytes";
    return s.str();
}

void GlobalMemoryChecker::report_race(Thread& t, const Region& r, uintptr_t w, Race race,
                                      uint32_t other, uint32_t other_site, Strength other_strength,
                                      uint32_t site) {
    const bool against_write = race != Race::write_after_read;
    const bool cross = block_of(other) != t.block->linear;
    const char* tag = race == Race::write_after_read   ? "gwar:"
                      : race == Race::read_after_write ? "graw:"
                                                       : "gwaw:";
    sink_.report(
        FaultKind::global_race, tag + std::to_string(other_site) + ":" + std::to_string(site),
        [&] {
            std::ostringstream m;
            const std::string them = sink_.describe_grid_thread(other);
            m << "global memory race ("
              << (race == Race::read_after_write    ? "read after write"
                  : race == Race::write_after_write ? "write after write"
                                                    : "write after read")
              << "): " << where(r, w) << " was " << (against_write ? "written" : "read") << " by "
              << them << " at " << line(other_site) << " and is "
              << (race == Race::read_after_write ? "read" : "written") << " here";
            if (is_atomic(other_strength) && cross &&
                (other_strength == Strength::atomic_block ||
                 is_atomic(race == Race::read_after_write ? other_strength : Strength::plain))) {
                m << ": a *_block atomic is atomic only among the threads of one block; blocks "
                     "that share a word need the device-wide atomics (atomicAdd, atomicCAS, ...)";
            } else if (!cross) {
                m << " with no __syncthreads() between them"
                  << (((other - 1) % threads_per_block_) / 32 == t.warp->index
                          ? " (the two threads are in one warp, whose lanes do not run in "
                            "lockstep either)"
                          : "");
            } else if (race == Race::write_after_write) {
                m << ": two blocks write the same word with nothing ordering the writes, so "
                     "which value stays depends on timing (give each block its own part of the "
                     "output, or use an atomic)";
            } else {
                m << " by another block with nothing ordering the two: a block sees another "
                     "block's store only through a kernel boundary, or through a flag that the "
                     "writer sets after a __threadfence() and the reader checks (volatile or "
                     "atomic) before a __threadfence() of its own";
                if (race == Race::read_after_write && is_strong(other_strength))
                    m << ". The write was volatile or atomic, as a flag's is, and this read is "
                         "plain: read a flag the same way (volatile or atomic)";
            }
            return m.str();
        },
        site_at(site), &t,
        {AccessRecord{&t, 0, race == Race::read_after_write ? AccessRole::load : AccessRole::store,
                      false, w, 4, site_at(site), true},
         AccessRecord{nullptr, other,
                      !against_write              ? AccessRole::load
                      : is_atomic(other_strength) ? AccessRole::atomic
                                                  : AccessRole::store,
                      false, w, 4, site_at(other_site), false}});
}

void GlobalMemoryChecker::report_ordering(Thread& t, const Region& r, uintptr_t w,
                                          const GlobalWrite& e, const ThreadSync::Observation& flag,
                                          uint32_t site) {
    const bool writer_fenced = flag.released && flag.released_clock >= e.write_clock;
    const ThreadSync& ts = sync_of(t);
    sink_.report(
        FaultKind::memory_ordering,
        std::string(writer_fenced ? "mp-reader:" : "mp-writer:") + std::to_string(flag.flag_site) +
            ":" + std::to_string(site),
        [&] {
            std::ostringstream m;
            m << "memory ordering: " << where(r, w) << " was written by "
              << sink_.describe_grid_thread(e.writer) << " at " << line(e.write_site)
              << ", and this thread read the flag that "
              << "block's thread set at " << line(flag.flag_site) << " (read at "
              << line(flag.read_site) << "), but nothing orders the value before this read: ";
            if (!writer_fenced) {
                m << "the flag at " << line(flag.flag_site)
                  << " was written with no __threadfence() after the value at "
                  << line(e.write_site) << ", so another block may see the new flag with the old "
                  << "value";
                if (flag.writer_fence_site && flag.writer_fence_scope == MemoryScope::block)
                    m << " (the __threadfence_block() at "
                      << resolve_source(flag.writer_fence_site).to_string()
                      << " orders the stores only for the writer's own block)";
            } else {
                m << "there is no __threadfence() between the read of the flag at "
                  << line(flag.read_site) << " and this read, so it may see the value from "
                  << "before the flag";
                if (ts.last_fence_site && ts.last_fence_scope == MemoryScope::block)
                    m << " (" << scope_fence_name(MemoryScope::block) << " at "
                      << resolve_source(ts.last_fence_site).to_string()
                      << " orders nothing for other blocks)";
            }
            return m.str();
        },
        site_at(site), &t,
        {AccessRecord{&t, 0, AccessRole::load, false, w, 4, site_at(site), true},
         AccessRecord{nullptr, e.writer, AccessRole::store, false, w, 4, site_at(e.write_site),
                      false}});
}

void GlobalMemoryChecker::report_spin(Thread& culprit, const Region& r, uintptr_t w,
                                      uint32_t poll_site, uint32_t writer, uint32_t write_site) {
    sink_.report(
        FaultKind::plain_load_spin, "spin:" + std::to_string(poll_site),
        [&] {
            return "spin on a plain load: " + where(r, w) + " is polled at " + line(poll_site) +
                   " through a non-volatile, non-atomic pointer while " +
                   sink_.describe_grid_thread(writer) + " writes it at " + line(write_site) +
                   ". The compiler may load it once and spin on the register forever (nvcc "
                   "does): read it through a volatile pointer or an atomic, with a "
                   "__threadfence() after it before reading what it announces";
        },
        site_at(poll_site), &culprit,
        {AccessRecord{&culprit, 0, AccessRole::load, false, w, 4, site_at(poll_site), false},
         AccessRecord{nullptr, writer, AccessRole::store, false, w, 4, site_at(write_site),
                      false}});
}

} // namespace simt::detail
