// Hopper's mbarriers and bulk asynchronous copies on the emulator: mbarrier_runtime.h.
#include "mbarrier_runtime.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <set>
#include <sstream>
#include <vector>

#include "../compat/cuda/ptx"

#include "engine.h"
#include "launch_recorder.h"
#include "mbarrier_model.h"
#include "source_lines.h"

namespace simt::detail {

struct BlockMbarriers {
    struct Barrier {
        Mbarrier model;
        std::vector<uint32_t> accumulating;  // the clocks released into the current phase
        std::vector<uint32_t> released;      // those of the last completed phase
        std::set<uint32_t> waiters;          // threads whose last poll of it failed
        uint32_t last_parity = 0;            // what they wait for
        const void* announce_site = nullptr; // the last expect_tx
    };
    struct Copy {
        uintptr_t barrier;
        uintptr_t destination;
        std::vector<unsigned char> bytes;
        uint32_t issuer; // linear index
        uint32_t clock;  // the block clock that the copy's reads and writes carry
    };
    std::map<uintptr_t, Barrier> barriers;
    std::vector<Copy> in_flight;
    std::vector<uint32_t> known; // thread t's view of every thread's clock: row t
    std::set<const void*> copy_sites;
};

namespace {

void join(std::vector<uint32_t>& into, const uint32_t* from) {
    for (size_t i = 0; i < into.size(); ++i) into[i] = std::max(into[i], from[i]);
}

BlockMbarriers& block_state(Thread& me) {
    Block& b = *me.block;
    if (!b.mbarriers) {
        b.mbarriers = std::make_shared<BlockMbarriers>();
        const size_t n = b.threads.size();
        b.mbarriers->known.assign(n * n, 0);
        for (size_t t = 0; t < n; ++t) b.threads[t].mbarrier_known = &b.mbarriers->known[t * n];
    }
    return *b.mbarriers;
}

// The barrier at `bar`, which must lie in the block's shared memory and be initialized.
BlockMbarriers::Barrier& barrier_at(Engine& e, const void* bar, const char* op, const void* site) {
    Thread& me = *e.current();
    const auto address = reinterpret_cast<uintptr_t>(bar);
    if (address - me.block->shared_base() >= me.block->shared_capacity)
        e.fault(FaultKind::illegal_address, cudaErrorIllegalAddress,
                std::string(op) + " on an address outside the block's shared memory: an "
                                  "mbarrier is a 64-bit word in shared memory",
                site, &me);
    BlockMbarriers& state = block_state(me);
    auto it = state.barriers.find(address);
    if (it == state.barriers.end())
        e.fault(FaultKind::uninitialized_read, cudaErrorLaunchFailure,
                std::string(op) + " on " + e.describe_shared_address(address) +
                    ", which mbarrier_init has not initialized (initialize it, then "
                    "__syncthreads() before any thread uses it)",
                site, &me);
    return it->second;
}

// The trace's hook: what happened to a barrier, for the launch's recorder if it has one.
void tell_recorder(Engine& e, const MbarrierNote& note) {
    if (LaunchRecorder* recorder = e.recorder()) recorder->mbarrier_event(note);
}

void tell_phase(Engine& e, const Thread& by, uintptr_t address, const Mbarrier& model,
                std::uint64_t before) {
    if (model.completed_phases() != before)
        tell_recorder(e, {MbarrierNoteKind::complete, &by, address, 0, 0, 0, before});
}

void phase_may_have_completed(BlockMbarriers::Barrier& barrier, std::uint64_t before) {
    if (barrier.model.completed_phases() == before) return;
    barrier.released = barrier.accumulating;
    std::fill(barrier.accumulating.begin(), barrier.accumulating.end(), 0);
}

void report_finding(Engine& e, const Mbarrier::Finding& finding, const char* tag,
                    const void* site) {
    if (!finding) return;
    const std::string message = *finding;
    e.report(FaultKind::barrier_divergence,
             std::string(tag) + std::to_string(reinterpret_cast<uintptr_t>(site)),
             [&] { return message; }, site, e.current(),
             {AccessRecord{e.current(), 0, AccessRole::load, false, 0, 0, site, true}});
}

std::uint64_t arrive(const void* bar, std::uint32_t count, std::uint32_t tx_bytes, const char* op,
                     const void* site) {
    Engine& e = engine_for(op);
    Thread& me = *e.current();
    RuntimeScope scope(&me);
    auto& barrier = barrier_at(e, bar, op, site);
    // Release what this thread did, and what it had acquired, into the phase.
    join(barrier.accumulating, me.mbarrier_known);
    barrier.accumulating[me.linear] = std::max(barrier.accumulating[me.linear], me.block->clock);
    ++me.block->clock;
    const std::uint64_t before = barrier.model.completed_phases();
    if (tx_bytes != 0) {
        barrier.model.expect_tx(tx_bytes);
        barrier.announce_site = site;
    }
    const auto address = reinterpret_cast<uintptr_t>(bar);
    tell_recorder(e, {MbarrierNoteKind::arrive, &me, address, count, tx_bytes, 0, 0, 0, site});
    report_finding(e, barrier.model.arrive(count), "mbarrier-arrivals:", site);
    tell_phase(e, me, address, barrier.model, before);
    phase_may_have_completed(barrier, before);
    e.note_progress();
    return before; // the state token: the phase this arrival belongs to
}

// A copy's bytes land: written to shared memory, released with the issuer's clock, counted
// as transaction bytes of the barrier's current phase.
void land(Engine& e, BlockMbarriers& state, BlockMbarriers::Copy& copy) {
    std::memcpy(reinterpret_cast<void*>(copy.destination), copy.bytes.data(), copy.bytes.size());
    auto it = state.barriers.find(copy.barrier);
    if (it == state.barriers.end()) return; // re-initialized meanwhile: nothing to complete
    auto& barrier = it->second;
    barrier.accumulating[copy.issuer] = std::max(barrier.accumulating[copy.issuer], copy.clock);
    const std::uint64_t before = barrier.model.completed_phases();
    const Thread& issuer = e.current()->block->threads[copy.issuer];
    const auto bytes = static_cast<std::uint32_t>(copy.bytes.size());
    tell_recorder(e, {MbarrierNoteKind::land, &issuer, copy.barrier, 0, bytes});
    barrier.model.complete_tx(bytes);
    tell_phase(e, issuer, copy.barrier, barrier.model, before);
    phase_may_have_completed(barrier, before);
}

bool wait_parity(const void* bar, std::uint32_t parity, const char* op, const void* site) {
    Engine& e = engine_for(op);
    Thread& me = *e.current();
    {
        RuntimeScope scope(&me);
        BlockMbarriers& state = block_state(me);
        auto& barrier = barrier_at(e, bar, op, site);
        Mbarrier::Finding finding;
        const auto address = reinterpret_cast<uintptr_t>(bar);
        if (barrier.model.test_wait_parity(parity, me.linear, finding)) {
            tell_recorder(e, {MbarrierNoteKind::wait, &me, address, 0, 0, parity & 1, 0, 0, site});
            report_finding(e, finding, "mbarrier-parity:", site);
            for (size_t i = 0; i < barrier.released.size(); ++i)
                me.mbarrier_known[i] = std::max(me.mbarrier_known[i], barrier.released[i]);
            barrier.waiters.erase(me.linear);
            return true;
        }
        tell_recorder(e, {MbarrierNoteKind::poll, &me, address, 0, 0, parity & 1, 0, 0, site});
        barrier.waiters.insert(me.linear);
        barrier.last_parity = parity & 1;
        // The copies in flight on this barrier land now, at this poll: the waiter sees them at
        // its next one, after the other threads have had a turn.
        bool landed = false;
        for (auto& copy : state.in_flight)
            if (copy.barrier == address) {
                land(e, state, copy);
                landed = true;
            }
        if (landed) {
            std::erase_if(state.in_flight,
                          [&](const BlockMbarriers::Copy& c) { return c.barrier == address; });
            e.note_progress();
        }
    }
    e.sleep_point(site);
    return false;
}

void bulk_copy_to_shared(void* dst, const void* src, std::uint32_t size, std::uint64_t* bar,
                         const void* site) {
    const char* op = "cuda::ptx::cp_async_bulk";
    Engine& e = engine_for(op);
    Thread& me = *e.current();
    const auto to = reinterpret_cast<uintptr_t>(dst);
    const auto from = reinterpret_cast<uintptr_t>(src);
    {
        RuntimeScope scope(&me);
        barrier_at(e, bar, op, site);
        if (size == 0 || size % 16 != 0 || to % 16 != 0 || from % 16 != 0) {
            std::ostringstream what;
            what << "misaligned or mis-sized bulk copy (cp.async.bulk): " << size
                 << " bytes from global address 0x" << std::hex << from << " to "
                 << e.describe_shared_address(to) << std::dec
                 << "; the size must be a nonzero multiple of 16 bytes and both addresses "
                    "16-byte aligned (copy a tail of another size with ordinary loads)";
            e.fault(FaultKind::misaligned_address, cudaErrorMisalignedAddress, what.str(), site,
                    &me);
        }
        if (to - me.block->shared_base() >= me.block->shared_capacity)
            e.fault(FaultKind::illegal_address, cudaErrorIllegalAddress,
                    "bulk copy (cp.async.bulk) to shared memory whose destination is not in the "
                    "block's shared memory",
                    site, &me);
        block_state(me).copy_sites.insert(site);
    }
    // Checked as the issuing thread's reads of the source and writes of the destination (the
    // writes now, so that a refill of a stage still being read is reported at its issue); the
    // bytes are read now and land later.
    std::vector<unsigned char> bytes(size);
    for (std::uint32_t at = 0; at < size; at += 16) {
        e.on_memory_access(from + at, 16, AccessKind::read, false, site);
        std::memcpy(bytes.data() + at, reinterpret_cast<const void*>(from + at), 16);
    }
    for (std::uint32_t at = 0; at < size; at += 16)
        e.on_memory_access(to + at, 16, AccessKind::write, false, site);
    RuntimeScope scope(&me);
    tell_recorder(e, {MbarrierNoteKind::copy, &me, reinterpret_cast<uintptr_t>(bar), 0, size, 0, 0,
                      to, site});
    BlockMbarriers& state = block_state(me);
    state.in_flight.push_back(BlockMbarriers::Copy{reinterpret_cast<uintptr_t>(bar), to,
                                                   std::move(bytes), me.linear, me.block->clock});
    ++me.block->clock; // what the issuer does next is not part of the copy
}

} // namespace

void mbarrier_warp_synchronized(Warp& warp, uint32_t participants) {
    Block& b = *warp.block;
    const size_t n = b.threads.size();
    std::vector<uint32_t> joined(n, 0);
    for (uint32_t m = participants; m != 0; m &= m - 1) {
        const Thread& t = *warp.lanes[__builtin_ctz(m)];
        join(joined, t.mbarrier_known);
        joined[t.linear] = std::max(joined[t.linear], b.clock);
    }
    for (uint32_t m = participants; m != 0; m &= m - 1) {
        Thread& t = *warp.lanes[__builtin_ctz(m)];
        std::copy(joined.begin(), joined.end(), t.mbarrier_known);
    }
    ++b.clock; // what the lanes do next is not covered by this join
}

bool is_bulk_copy_site(const Block& block, const void* site) {
    return block.mbarriers && block.mbarriers->copy_sites.count(site) != 0;
}

std::string mbarrier_deadlock_lines(const Block& block) {
    if (!block.mbarriers) return {};
    std::ostringstream msg;
    for (const auto& [address, barrier] : block.mbarriers->barriers) {
        if (barrier.waiters.empty()) continue;
        msg << "\n    mbarrier " << barrier.model.stuck_reason() << "; " << barrier.waiters.size()
            << " thread(s) wait for the phase of parity " << barrier.last_parity;
        if (barrier.announce_site)
            msg << " (bytes last announced at " << source_line(barrier.announce_site) << ")";
    }
    for (const auto& copy : block.mbarriers->in_flight)
        msg << "\n    a bulk copy of " << copy.bytes.size()
            << " bytes has not landed: no thread polls its barrier";
    return msg.str();
}

std::string mbarrier_race_advice(const Block& block, const void* other_site, const void* site,
                                 bool against_write) {
    if (!block.mbarriers) return {};
    const auto& sites = block.mbarriers->copy_sites;
    if (against_write && sites.count(other_site))
        return "; the bulk copy at " + source_line(other_site) +
               " writes it when its bytes land: read the stage only after a wait "
               "(mbarrier_try_wait_parity) for the phase of the barrier the copy completes has "
               "returned true";
    if (!against_write && sites.count(site))
        return "; this bulk copy refills a stage that was read at " + source_line(other_site) +
               " and not yet released: wait for the phase of the barrier its readers arrive on "
               "after reading (the stage's empty barrier) before the copy";
    return "; with mbarriers: arrive after the first access and wait for that phase before the "
           "second";
}

std::string mbarrier_global_race_advice(const Block& block, const void* other_site,
                                        const void* site, bool against_write) {
    if (!block.mbarriers) return {};
    const auto& sites = block.mbarriers->copy_sites;
    if (!against_write && sites.count(other_site))
        return "; the bulk copy at " + source_line(other_site) +
               " reads it: write it only after a wait (mbarrier_try_wait_parity) for the phase "
               "of the barrier that copy completes (or a later phase of the chain) has returned "
               "true";
    if (against_write && sites.count(site))
        return "; this bulk copy reads what was written at " + source_line(other_site) +
               ": the writer arrives on a barrier after its write, and the copy is issued after "
               "a wait for that phase";
    return "; with mbarriers: arrive after the first access and wait for that phase before the "
           "second";
}

} // namespace simt::detail

namespace ptx = cuda::ptx;
using simt::detail::arrive;
using simt::detail::bulk_copy_to_shared;
using simt::detail::wait_parity;

void ptx::mbarrier_init(std::uint64_t* bar, const std::uint32_t& count) {
    using namespace simt::detail;
    using simt::FaultKind;
    const void* site = __builtin_return_address(0);
    const char* op = "cuda::ptx::mbarrier_init";
    Engine& e = engine_for(op);
    Thread& me = *e.current();
    RuntimeScope scope(&me);
    const auto address = reinterpret_cast<uintptr_t>(bar);
    if (address - me.block->shared_base() >= me.block->shared_capacity)
        e.fault(FaultKind::illegal_address, cudaErrorIllegalAddress,
                "mbarrier_init on an address outside the block's shared memory: an mbarrier is a "
                "64-bit word in shared memory",
                site, &me);
    if (address % 8 != 0)
        e.fault(FaultKind::misaligned_address, cudaErrorMisalignedAddress,
                "mbarrier_init on an address not aligned to 8 bytes", site, &me);
    if (count == 0 || count >= (1u << 20))
        e.fault(FaultKind::invalid_launch, cudaErrorInvalidValue,
                "mbarrier_init with " + std::to_string(count) +
                    " expected arrivals: PTX allows 1 to 2^20 - 1",
                site, &me);
    BlockMbarriers& state = block_state(me);
    const size_t n = me.block->threads.size();
    state.barriers.erase(address);
    state.barriers.emplace(
        address, BlockMbarriers::Barrier{Mbarrier(count, e.describe_shared_address(address)),
                                         std::vector<uint32_t>(n, 0),
                                         std::vector<uint32_t>(n, 0),
                                         {},
                                         0});
    tell_recorder(e, {MbarrierNoteKind::init, &me, address, count, 0, 0, 0, 0, site});
}

std::uint64_t ptx::mbarrier_arrive(std::uint64_t* bar) {
    return arrive(bar, 1, 0, "cuda::ptx::mbarrier_arrive", __builtin_return_address(0));
}
std::uint64_t ptx::mbarrier_arrive(std::uint64_t* bar, const std::uint32_t& count) {
    return arrive(bar, count, 0, "cuda::ptx::mbarrier_arrive", __builtin_return_address(0));
}
std::uint64_t ptx::mbarrier_arrive_expect_tx(sem_release_t, scope_cta_t, space_shared_t,
                                             std::uint64_t* bar, const std::uint32_t& tx_count) {
    return arrive(bar, 1, tx_count, "cuda::ptx::mbarrier_arrive_expect_tx",
                  __builtin_return_address(0));
}
void ptx::mbarrier_expect_tx(sem_relaxed_t, scope_cta_t, space_shared_t, std::uint64_t* bar,
                             const std::uint32_t& tx_count) {
    using namespace simt::detail;
    const void* site = __builtin_return_address(0);
    const char* op = "cuda::ptx::mbarrier_expect_tx";
    Engine& e = engine_for(op);
    RuntimeScope scope(e.current());
    auto& barrier = barrier_at(e, bar, op, site);
    barrier.model.expect_tx(tx_count);
    barrier.announce_site = site;
    tell_recorder(e, {MbarrierNoteKind::expect_tx, e.current(), reinterpret_cast<uintptr_t>(bar), 0,
                      tx_count, 0, 0, 0, site});
}
bool ptx::mbarrier_try_wait_parity(const std::uint64_t* bar, const std::uint32_t& parity) {
    return wait_parity(bar, parity, "cuda::ptx::mbarrier_try_wait_parity",
                       __builtin_return_address(0));
}
bool ptx::mbarrier_test_wait_parity(const std::uint64_t* bar, const std::uint32_t& parity) {
    return wait_parity(bar, parity, "cuda::ptx::mbarrier_test_wait_parity",
                       __builtin_return_address(0));
}
void ptx::cp_async_bulk(space_shared_t, space_global_t, void* dst, const void* src,
                        const std::uint32_t& size, std::uint64_t* bar) {
    bulk_copy_to_shared(dst, src, size, bar, __builtin_return_address(0));
}
void ptx::cp_async_bulk(space_cluster_t, space_global_t, void* dst, const void* src,
                        const std::uint32_t& size, std::uint64_t* bar) {
    bulk_copy_to_shared(dst, src, size, bar, __builtin_return_address(0));
}
