// The global-memory checker's reports: what a race, a missing fence or a spin on a plain read
// looks like to the student. They run once per report, not per access, so they are compiled
// with the runtime's once-per-call code, unoptimized (CMakeLists.txt: simt_cold_objects).
#include "global_memory_checker.h"

#include <sstream>

#include "../engine.h"
#include "../memory_registry.h"
#include "../bulk_store_runtime.h"
#include "../mbarrier_runtime.h"
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
        s << "a " << describe(r) << " of " << r.bytes << " bytes";
    return s.str();
}

void GlobalMemoryChecker::report_race(Thread& t, const Region& r, uintptr_t at, Race race,
                                      uint32_t other, uint32_t other_site, Strength other_strength,
                                      uint32_t site, Strength strength) {
    const uintptr_t w = at & ~uintptr_t{3}; // the word, for the accesses' records
    // One side a plain store, the other an atomic update (a counter reset in the kernel).
    const bool plain_against_atomic = race == Race::write_after_write &&
                                      is_atomic(strength) != is_atomic(other_strength) &&
                                      !is_strong(is_atomic(strength) ? other_strength : strength);
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
              << "): " << where(r, at) << " was " << (against_write ? "written" : "read") << " by "
              << them << " at " << line(other_site) << " and is "
              << (race == Race::read_after_write ? "read" : "written") << " here";
            if (plain_against_atomic) {
                m << ": a plain store and an atomic update of one word race. Nothing orders the "
                     "store before the other threads' atomics (or after them): reset or set such "
                     "a word before the launch (cudaMemset, or the kernel before), not inside the "
                     "kernel that updates it";
            } else if (is_atomic(other_strength) && cross &&
                       (other_strength == Strength::atomic_block ||
                        is_atomic(race == Race::read_after_write ? other_strength
                                                                 : Strength::plain))) {
                m << ": a *_block atomic is atomic only among the threads of one block; blocks "
                     "that share a word need the device-wide atomics (atomicAdd, atomicCAS, ...)";
            } else if (!cross) {
                m << " with no __syncthreads() between them"
                  << (((other - 1) % threads_per_block_) / 32 == t.warp->index
                          ? " (the two threads are in one warp, whose lanes do not run in "
                            "lockstep either)"
                          : "")
                  << [&] {
                         std::string advice = bulk_store_global_race_advice(
                             *t.block, site_at(other_site), site_at(site));
                         return advice.empty()
                                    ? mbarrier_global_race_advice(*t.block, site_at(other_site),
                                                                  site_at(site), against_write)
                                    : advice;
                     }();
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

void GlobalMemoryChecker::report_spin(Thread& t, const Region& r, uintptr_t w, uint32_t poll_site,
                                      uint32_t poller, uint32_t writer, uint32_t write_site) {
    // Found at the store, the report names the thread that polled in its text (the report's
    // "by" line is the running thread's, which is the poller only when found at the poll).
    const bool at_poll = poller == 0;
    const AccessRecord poll =
        at_poll ? AccessRecord{&t, 0, AccessRole::load, false, w, 4, site_at(poll_site), false}
                : AccessRecord{nullptr, poller, AccessRole::load,   false,
                               w,       4,      site_at(poll_site), false};
    const AccessRecord store =
        at_poll ? AccessRecord{nullptr, writer, AccessRole::store,   false,
                               w,       4,      site_at(write_site), false}
                : AccessRecord{&t, 0, AccessRole::store, false, w, 4, site_at(write_site), false};
    sink_.report(
        FaultKind::plain_load_spin, "spin:" + std::to_string(poll_site),
        [&] {
            return "spin on a plain load: " + where(r, w) + " is polled at " + line(poll_site) +
                   (at_poll ? "" : " by " + sink_.describe_grid_thread(poller)) +
                   " through a non-volatile, non-atomic pointer while " +
                   (at_poll ? sink_.describe_grid_thread(writer) : sink_.describe_thread(t)) +
                   " writes it at " + line(write_site) +
                   ". The compiler may load it once and spin on the register forever (nvcc "
                   "does): read it through a volatile pointer or an atomic, with a "
                   "__threadfence() after it before reading what it announces";
        },
        site_at(poll_site), at_poll ? &t : nullptr, {poll, store});
}

} // namespace simt::detail

namespace simt::detail {

void GlobalMemoryChecker::report_early_read(Thread& t, const ThreadSync::EarlyRead& value,
                                            uintptr_t flag_word, uint32_t flag_writer,
                                            uint32_t flag_site, uint32_t flag_read_site) {
    const Region* r = memory_registry().find(value.word);
    const Region* fr = memory_registry().find(flag_word);
    if (!r || !fr) return;
    sink_.report(
        FaultKind::memory_ordering,
        "mp-early:" + std::to_string(value.read_site) + ":" + std::to_string(flag_read_site),
        [&] {
            std::ostringstream m;
            m << "memory ordering (value read before its flag): " << where(*r, value.word)
              << " was read by this thread at " << line(value.read_site) << ", before it read the "
              << "flag at " << where(*fr, flag_word) << " at " << line(flag_read_site) << ", which "
              << sink_.describe_grid_thread(flag_writer) << " set at " << line(flag_site)
              << " after writing that value at " << line(value.write_site) << ". ";
            if (value.before_write)
                m << "The read came before the write, so it saw the old value, while the flag "
                     "says the new one is there";
            else
                m << "Nothing orders the read after the write (a fence before the flag read "
                     "does not: the value was read first), so it may be the old value although "
                     "the flag says the new one is there";
            m << ". Read the flag first, then __threadfence(), then the value, and use only a "
                 "value read after the flag said it was ready";
            return m.str();
        },
        site_at(value.read_site), &t,
        {AccessRecord{&t, 0, AccessRole::load, false, value.word, 4, site_at(value.read_site),
                      false},
         AccessRecord{nullptr, value.writer, AccessRole::store, false, value.word, 4,
                      site_at(value.write_site), false},
         AccessRecord{&t, 0, AccessRole::load, false, flag_word, 4, site_at(flag_read_site),
                      true}});
}

void GlobalMemoryChecker::report_torn_store(Thread& t, const Region& r, uintptr_t address,
                                            size_t bytes, const GlobalWrite& first,
                                            const GlobalWrite& second, uint32_t site) {
    sink_.report(
        FaultKind::memory_ordering,
        "torn-store:" + std::to_string(first.write_site) + ":" + std::to_string(site),
        [&] {
            std::ostringstream m;
            m << "torn publication: this " << bytes << "-byte load at " << line(site) << " reads "
              << where(r, address & ~uintptr_t{3})
              << " as one value, but its words were stored apart: by "
              << sink_.describe_grid_thread(first.writer) << " at " << line(first.write_site);
            if (first.write_site == second.write_site && first.writer == second.writer)
                m << " (two stores)";
            else
                m << " and by " << sink_.describe_grid_thread(second.writer) << " at "
                  << line(second.write_site);
            m << ", with no fence between. A reader can see the new flag with the old value: "
                 "store flag and value together in one "
              << bytes << "-byte access (build the whole word in a register, then one volatile "
              << "or atomic store), or write the value, __threadfence(), then the flag";
            return m.str();
        },
        site_at(site), &t,
        {AccessRecord{&t, 0, AccessRole::load, false, address, bytes, site_at(site), true},
         AccessRecord{nullptr, first.writer, AccessRole::store, false, address, 4,
                      site_at(first.write_site), false},
         AccessRecord{nullptr, second.writer, AccessRole::store, false, address, 4,
                      site_at(second.write_site), false}});
}

void GlobalMemoryChecker::report_split_load(Thread& t, const Region& r,
                                            const ThreadSync::PartialLoad& earlier, uintptr_t word,
                                            uint32_t site, size_t bytes, unsigned store_words) {
    sink_.report(
        FaultKind::memory_ordering,
        "split-load:" + std::to_string(earlier.read_site) + ":" + std::to_string(site),
        [&] {
            std::ostringstream m;
            m << "torn read: " << sink_.describe_grid_thread(earlier.writer) << " stores "
              << 4 * store_words << " bytes at " << where(r, earlier.first_word)
              << " in one access at " << line(earlier.write_site)
              << ", but this thread loads them apart: " << where(r, earlier.word) << " at "
              << line(earlier.read_site) << ", then " << where(r, word) << " at " << line(site)
              << " (" << bytes << " bytes). Between the two loads the writer may store again, "
              << "so the halves can come from different stores (a new flag with an old value). "
                 "Load the whole "
              << 4 * store_words << " bytes with one volatile or atomic load";
            return m.str();
        },
        site_at(site), &t,
        {AccessRecord{&t, 0, AccessRole::load, false, earlier.word, 4, site_at(earlier.read_site),
                      false},
         AccessRecord{&t, 0, AccessRole::load, false, word, 4, site_at(site), true},
         AccessRecord{nullptr, earlier.writer, AccessRole::store, false, earlier.first_word,
                      4 * store_words, site_at(earlier.write_site), false}});
}

void GlobalMemoryChecker::report_dependency(Thread& t, const Region& r, uintptr_t w, bool writes,
                                            bool previous_wrote, uint32_t site) {
    sink_.report(
        FaultKind::global_race, "pdl:" + std::to_string(site),
        [&] {
            std::ostringstream m;
            m << "global memory race (programmatic dependent launch): " << where(r, w) << " is "
              << (writes ? "written" : "read") << " here before cudaGridDependencySynchronize(), "
              << "but the kernel launched just before this one "
              << (previous_wrote ? "wrote" : "read")
              << " it. This kernel was launched with programmatic stream serialization, so on a "
                 "GPU it may run while that kernel is still running"
              << (previous_wrote && !writes ? " and read the old value" : "")
              << ". Call cudaGridDependencySynchronize() before the first access to what the "
                 "kernel before writes or reads (only independent work may come before it)";
            return m.str();
        },
        site_at(site), &t,
        {AccessRecord{&t, 0, writes ? AccessRole::store : AccessRole::load, false, w, 4,
                      site_at(site), true}});
}

void GlobalMemoryChecker::report_deferred(const DeferredRace& d) {
    const Region* r = memory_registry().find(d.word);
    if (!r) return;
    const bool war = d.race == Race::write_after_read;
    // The report's "here" is the later access: the write for write-after-read, else the read.
    const uint32_t here = war ? d.other : d.reader;
    const uint32_t there = war ? d.reader : d.other;
    const uint32_t here_site = war ? d.other_site : d.read_site;
    const uint32_t there_site = war ? d.read_site : d.other_site;
    const bool cross = block_of(here) != block_of(there);
    sink_.report(
        FaultKind::global_race,
        std::string(war ? "gwar:" : "graw:") + std::to_string(there_site) + ":" +
            std::to_string(here_site),
        [&] {
            std::ostringstream m;
            m << "global memory race (" << (war ? "write after read" : "read after write")
              << "): " << where(*r, first_shared_byte(d.word, d.shared_bytes)) << " was "
              << (war ? "read" : "written") << " by " << sink_.describe_grid_thread(there) << " at "
              << line(there_site)
              << (war                           ? ""
                  : is_atomic(d.other_strength) ? " (an atomic)"
                                                : "")
              << ", and " << sink_.describe_grid_thread(here) << " " << (war ? "writes" : "reads")
              << " it at " << line(here_site)
              << (war && is_atomic(d.other_strength) ? " (an atomic)" : "")
              << " with nothing ordering the two";
            if (d.cas_exempt)
                m << ": a plain load of a word that other threads update with atomics sees any of "
                     "their values, or none of them yet (an atomic does not order a plain load of "
                     "another thread). Read it with an atomic (atomicAdd(p, 0), or "
                     "cuda::atomic_ref), or only after a kernel boundary or a barrier that all "
                     "the updates come before; a plain load is fine only as the first guess of a "
                     "compare-and-swap loop";
            else if (cross)
                m << ": the write may land before the other block's read, which then sees the "
                     "new value (on a GPU it depends on timing). Order them: the reader publishes "
                     "that it is done (__threadfence(), then a flag) and the writer waits for the "
                     "flag, or they run in separate kernels";
            else
                m << " (no __syncthreads() between them)";
            return m.str();
        },
        site_at(here_site), nullptr,
        {AccessRecord{nullptr, here, war ? AccessRole::store : AccessRole::load, false, d.word, 4,
                      site_at(here_site), false},
         AccessRecord{nullptr, there,
                      war                           ? AccessRole::load
                      : is_atomic(d.other_strength) ? AccessRole::atomic
                                                    : AccessRole::store,
                      false, d.word, 4, site_at(there_site), false}});
}

} // namespace simt::detail
