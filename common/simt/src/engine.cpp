#include "engine.h"
#include "shared_limits.h"
#include "mbarrier_runtime.h"
#include "bulk_store_runtime.h"
#include "stack_guard.h"

#include <algorithm>
#include <array>
#include <climits>
#include <cstdio>
#include <cstring>
#include <map>
#include <new>
#include <sstream>

#include "checks/global_memory_checker.h"
#include "checks/global_memory_fast_path.h"
#include "code_order.h"
#include "fault_format.h"
#include "memory_registry.h"
#include "provenance.h"
#include "readonly_image.h"
#include "source_lines.h"
#include "stack_pool.h"
#include "launch_recorder.h"

namespace simt::detail {

namespace {

// The compiler may duplicate one __syncthreads() call (tail duplication, unrolling): two call
// sites on the same source line are the same barrier.
bool same_source_line(const void* a, const void* b) {
    SourceLocation la = resolve_source(a), lb = resolve_source(b);
    return !la.file.empty() && la.file == lb.file && la.line == lb.line;
}

constexpr unsigned char kSharedPoison = 0xCD; // uninitialized shared memory: garbage, as on a GPU
// Guard zones between shared variables are multiples of this: 32 banks of 4 bytes.
constexpr size_t kSharedGuardUnit = 128;

// A thread of the block that waits at a __syncthreads(), for a divergence report; none when
// no thread waits.
Thread* first_at_barrier(Block& b) {
    for (Thread& t : b.threads)
        if (Engine::state_of(t) == ThreadState::at_barrier) return &t;
    return nullptr;
}

// The accesses a barrier divergence report names: what the diverging thread did at `site`, and
// the thread found waiting at the block's barrier, if any.
std::vector<AccessRecord> divergence_accesses(Thread* diverging, AccessRole role, const void* site,
                                              Thread* waiting, const void* barrier_site) {
    std::vector<AccessRecord> accesses{AccessRecord{diverging, 0, role, false, 0, 0, site, false}};
    if (waiting)
        accesses.push_back(
            AccessRecord{waiting, 0, AccessRole::wait, false, 0, 0, barrier_site, false});
    return accesses;
}
} // namespace

thread_local Engine* g_active_engine [[gnu::tls_model("initial-exec")]] = nullptr;

const char* to_string(CollectiveKind kind) {
    switch (kind) {
    case CollectiveKind::syncwarp:
        return "__syncwarp";
    case CollectiveKind::shuffle:
        return "__shfl*_sync";
    case CollectiveKind::ballot:
        return "__ballot_sync";
    case CollectiveKind::any:
        return "__any_sync";
    case CollectiveKind::all:
        return "__all_sync";
    case CollectiveKind::activemask:
        return "__activemask";
    }
    return "warp intrinsic";
}

namespace {
// The last launch's thread storage, for the next launch on this host thread: 1024 threads are
// 320 KiB of pages that a new vector would fault in again.
thread_local std::vector<Thread> t_spare_threads;
} // namespace

Engine::Engine(const LaunchRequest& request, const Options& options, size_t shared_limit)
    : shared_(*this, options.mode == Mode::pre_volta), request_(request), options_(options),
      shared_limit_(shared_limit) {
    spare_threads_ = std::move(t_spare_threads);
    threads_per_block_ = request.block.x * request.block.y * request.block.z;
    warps_per_block_ = (threads_per_block_ + 31) / 32;
    const unsigned blocks = request.grid.x * request.grid.y * request.grid.z;
    // Resident window as occupancy would give it: threads, blocks and shared memory per SM.
    unsigned per_sm = std::min(32u, std::max(1u, 2048u / threads_per_block_));
    if (request.dynamic_shared_bytes > 0)
        per_sm = std::min<unsigned>(
            per_sm, std::max<size_t>(1, (228 * 1024) / (request.dynamic_shared_bytes + 1024)));
    window_ = std::max(1u, per_sm * static_cast<unsigned>(std::max(1, options.multiprocessors)));
    dispatch_order_.resize(blocks);
    for (unsigned i = 0; i < blocks; ++i) dispatch_order_[i] = i;
    lockstep_ = runs_in_lockstep(options.mode);
    spin_limit_ = options.spin_limit;
    checks_ = options.checks;
    if (data_flow().on()) flow_ = &data_flow();
    rng_.seed(options.seed);
    fast_rng_ = (options.seed + 1) * 0x9E3779B97F4A7C15ull;
    countdown_ = countdown_length_ = lockstep_ ? 1 : its_gap();
    if (options.dispatch == Dispatch::shuffled)
        std::shuffle(dispatch_order_.begin(), dispatch_order_.end(), rng_);
    slice_limit_ = 64;
    if (checks_)
        global_ =
            std::make_unique<GlobalMemoryChecker>(request, *this, options.mode == Mode::pre_volta,
                                                  options.relaxed_visibility, options.seed);
}

Engine::~Engine() {
    abandon_all();
    t_spare_threads = std::move(spare_threads_);
}

FaultReport Engine::run() {
    arm_stack_guard();
    g_active_engine = this;
    loop_points_on = lockstep_;
    try {
        schedule();
    } catch (const AbortLaunch&) {
    }
    if (global_) global_->launch_finished();
    g_active_engine = nullptr;
    loop_points_on = false;
    abandon_all();
    if (fault_.kind == FaultKind::none && !findings_.empty()) {
        fault_.kind = findings_.front().kind;
        fault_.error = cudaErrorLaunchFailure;
        fault_.site = findings_.front().site;
        for (const Finding& f : findings_) fault_.message += f.message;
        if (check_findings_ >= kMaxFindings) fault_.message += "simt: (more findings not shown)\n";
    }
    fault_.findings = std::move(findings_);
    return fault_;
}

void Engine::schedule() {
    while (!aborted_) {
        while (resident_.size() < window_ && next_dispatch_ < dispatch_order_.size())
            dispatch_block(dispatch_order_[next_dispatch_++]);
        if (resident_.empty()) break;
        Warp* warp = pick_warp();
        if (!warp) {
            report_deadlock("deadlock: every thread of the resident blocks is waiting");
            break;
        }
        run_warp(warp);
        if (overflow_thread_) [[unlikely]]
            report_stack_overflow();
        // Retire finished blocks so that waiting ones can become resident.
        for (size_t i = 0; i < resident_.size();) {
            if (resident_[i]->live == 0) {
                retire_block(resident_[i].get());
                resident_.erase(resident_.begin() + static_cast<long>(i));
            } else {
                ++i;
            }
        }
    }
}

void Engine::dispatch_block(unsigned linear) {
    auto block = std::make_unique<Block>();
    Block* b = block.get();
    b->linear = linear;
    b->idx = unflatten(linear, request_.grid);
    b->live = threads_per_block_;
    b->dynamic_bytes = request_.dynamic_shared_bytes;
    // Room for the variables and the guard zones around them (see place_shared()); pages that
    // no variable uses are never touched.
    b->shared_capacity = 3 * shared_limit_ + 32 * 1024;
    // Aligned to 128 bytes, so that an address modulo 128 (its bank) is that of the offset a
    // GPU gives it, as traces record it.
    b->shared.reset(new unsigned char[b->shared_capacity + kSharedGuardUnit]);
    const auto raw = reinterpret_cast<uintptr_t>(b->shared.get());
    b->shared_data =
        b->shared.get() + ((kSharedGuardUnit - raw % kSharedGuardUnit) % kSharedGuardUnit);
    b->shared_used = (b->dynamic_bytes + 15) / 16 * 16;
    // The dynamic part is there even when the launch gave none (0 bytes): a report then says so.
    SharedAllocation dynamic{"extern __shared__ (dynamic)", "", 0, 0, b->dynamic_bytes};
    dynamic.storage = place_shared(*b, 0, b->dynamic_bytes, 16);
    std::memset(b->shared_data + dynamic.storage, kSharedPoison, b->dynamic_bytes);
    b->shared_vars.push_back(dynamic);
    if (checks_) {
        b->shadow.resize(b->shared_used / 4 + 1);
        b->shadow_words = b->shadow.data();
    }
    // On the storage of a retired block's threads, if any: a fresh vector of 1024 threads is
    // 320 KiB of new pages to fault in.
    b->threads = std::move(spare_threads_);
    if (b->threads.size() == threads_per_block_) {
        for (Thread& th : b->threads) th.recycle(recorder_ != nullptr);
    } else {
        b->threads.clear();
        b->threads.resize(threads_per_block_);
    }
    b->warps.resize(warps_per_block_);
    for (unsigned w = 0; w < warps_per_block_; ++w) {
        b->warps[w].block = b;
        b->warps[w].index = w;
    }
    for (unsigned t = 0; t < threads_per_block_; ++t) {
        Thread& th = b->threads[t];
        th.idx = unflatten(t, request_.block);
        th.linear = t;
        th.grid_id = b->linear * threads_per_block_ + t + 1;
        th.lane = static_cast<uint16_t>(t % 32);
        th.block = b;
        th.warp = &b->warps[t / 32];
        th.warp->lanes[th.lane] = &th;
        th.warp->lane_count = th.lane + 1;
        th.warp->slice_limit = slice_limit_ * th.warp->lane_count;
        th.warp->runnable_mask |= 1u << th.lane;
    }
    for (Warp& w : b->warps) warp_ring_.push_back(&w);
    if (global_) global_->block_started(*b);
    if (recorder_) recorder_->block_started(b);
    resident_.push_back(std::move(block));
    note_progress();
}

void Engine::retire_block(Block* block) {
    if (recorder_) recorder_->block_ended(block);
    if (global_) global_->block_finished(*block);
    if (last_block_ == block) last_block_ = nullptr;
    release_stacks(block);
    spare_threads_ = std::move(block->threads);
    // Keep the cursor on the same next warp after the block's warps leave the ring.
    size_t before_cursor = 0;
    for (size_t i = 0; i < ring_cursor_ && i < warp_ring_.size(); ++i)
        if (warp_ring_[i]->block == block) ++before_cursor;
    std::erase_if(warp_ring_, [block](Warp* w) { return w->block == block; });
    ring_cursor_ -= before_cursor;
    if (ring_cursor_ >= warp_ring_.size()) ring_cursor_ = 0;
}

Warp* Engine::pick_warp() {
    const size_t n = warp_ring_.size();
    if (n == 0) return nullptr;
    // The k-th warp from the cursor in the ring's current direction.
    const auto at = [&](size_t k) {
        return ring_forward_ ? (ring_cursor_ + k) % n : (ring_cursor_ + n - k % n) % n;
    };
    const auto after = [&](size_t i) { return ring_forward_ ? (i + 1) % n : (i + n - 1) % n; };
    // Stay with the block that ran last while it makes progress: its fibers' stacks are hot in
    // the caches and the TLB (at each __syncthreads() every thread of the block suspends and
    // resumes on its own stack page). Fairness comes back after kSameBlockTurns turns in which
    // the block completed no __syncthreads(), so that a block that spins waiting for another
    // one cannot starve it, and after kMaxSameBlockTurns turns in all (a spin-wait may contain
    // barriers).
    if (last_block_ && last_block_->barrier_epoch != stay_epoch_) {
        stay_epoch_ = last_block_->barrier_epoch;
        stay_progress_turn_ = same_block_turns_;
    }
    if (last_block_ && same_block_turns_ - stay_progress_turn_ < kSameBlockTurns &&
        same_block_turns_ < kMaxSameBlockTurns) {
        for (size_t k = 0; k < n; ++k) {
            size_t i = at(k);
            Warp* w = warp_ring_[i];
            if (w->block != last_block_) continue;
            if (w->runnable_mask != 0) {
                ring_cursor_ = after(i);
                ++same_block_turns_;
                return w;
            }
        }
    }
    for (size_t k = 0; k < n; ++k) {
        size_t i = at(k);
        Warp* w = warp_ring_[i];
        if (w->runnable_mask != 0 &&
            (w->block != last_block_ || k + 1 == n || same_block_turns_ == 0)) {
            ring_cursor_ = after(i);
            if (w->block == last_block_)
                ++same_block_turns_;
            else
                start_stay(w->block);
            return w;
        }
    }
    for (size_t k = 0; k < n; ++k) { // only the last block has work left
        size_t i = at(k);
        if (warp_ring_[i]->runnable_mask != 0) {
            ring_cursor_ = after(i);
            start_stay(warp_ring_[i]->block);
            return warp_ring_[i];
        }
    }
    return nullptr;
}

void Engine::start_stay(Block* b) {
    last_block_ = b;
    same_block_turns_ = 0;
    stay_epoch_ = b->barrier_epoch;
    stay_progress_turn_ = 0;
}

void Engine::reverse_ring() {
    // The warp that runs now sits just before the cursor; going the other way, the next one is
    // the one on its other side: the warps that ran last run first, while their stacks are
    // still in the caches (a cyclic order would evict each just before its next turn).
    const size_t n = warp_ring_.size();
    if (n == 0) return;
    ring_cursor_ = ring_forward_ ? (ring_cursor_ + 2 * n - 2) % n : (ring_cursor_ + 2) % n;
    ring_forward_ = !ring_forward_;
}

namespace {
// Stack colouring: every stack top is page-aligned, so without an offset the hot top lines of
// all fibers would compete for the same cache sets. The offset comes from the stack's address,
// not the thread's index: a stack that the pool hands out again gets the same offset, so that
// its next thread's frames land on the lines its last thread used, still in the caches. The
// pool's stacks lie one slab (stack and guard) apart: 64 in a row get 64 offsets.
constexpr size_t kMaxColour = 63 * 64;
size_t stack_colour(const void* top, size_t slab_bytes) {
    return (reinterpret_cast<uintptr_t>(top) / slab_bytes % 64) * 64;
}
} // namespace

void Engine::make_fibers(Block* b) {
    // Every thread gets its whole stack (options_.stack_bytes) below the colour's offset.
    const size_t bytes = options_.stack_bytes + kMaxColour;
    const size_t slab = StackPool::slab_bytes(bytes);
    // A block's threads and stacks were last touched a block ago: their lines are fetched a few
    // threads ahead of the writes below (one thread at a time, each write would wait for them).
    constexpr size_t kAhead = 8;
    StackPool& pool = stack_pool();
    for (size_t i = 0; i < b->threads.size(); ++i) {
        Thread& th = b->threads[i];
        if (i + kAhead < b->threads.size()) __builtin_prefetch(&b->threads[i + kAhead], 1);
        if (const char* top = pool.top_ahead(kAhead, bytes))
            __builtin_prefetch(top - stack_colour(top, slab) - 64, 1);
        const boost::context::stack_context stack = pool.allocate(bytes);
        th.stack_lo = reinterpret_cast<uintptr_t>(stack.sp) - stack.size;
        th.stack_size = static_cast<uint32_t>(stack.size);
        const size_t colour = stack_colour(stack.sp, slab);
        th.ctx = fiber_make(static_cast<char*>(stack.sp) - colour, stack.size - colour,
                            &Engine::thread_entry);
    }
    b->has_fibers = true;
}

void Engine::run_warp(Warp* warp) {
    // (transfer from the scheduler: `nullptr` is the scheduler's side)
    if (!warp->block->has_fibers) [[unlikely]]
        make_fibers(warp->block);
    warp->slice_steps = 0;
    warp->spin_polls = 0;
    // The first runnable lane from the cursor on.
    const uint32_t m = warp->runnable_mask;
    if (m == 0) return;
    if (lockstep_)
        return transfer(nullptr, lockstep_next(warp, static_cast<int>(warp->cursor) - 1));
    const uint32_t from = warp->cursor < 32 ? m & (~0u << warp->cursor) : 0;
    transfer(nullptr, warp->lanes[__builtin_ctz(from ? from : m)]);
}

void Engine::thread_entry(FiberTransfer from) {
    Engine* self = g_active_engine;
    Thread* left = static_cast<Thread*>(from.data);
    (left ? left->ctx : self->scheduler_ctx_) = from.from;
    self->thread_main(self->current_);
}

void Engine::thread_main(Thread* self) {
    self->call_depth = 0;
    std::string escaped;
    try {
        request_.entry(request_.params);
    } catch (const std::exception& e) {
        escaped = e.what();
        if (escaped.empty()) escaped = "std::exception";
    } catch (...) {
        escaped = "an exception of unknown type";
    }
    // Outside the catch block: a fault switches away for good, and must not leave an exception
    // in flight on this OS thread.
    if (!escaped.empty())
        fault(FaultKind::exception, cudaErrorLaunchFailure,
              "a C++ exception escaped the kernel: " + escaped, nullptr);
    // Its bulk stores still in flight end now (their writes land, and one still reading its
    // source is reported), while it is still the running thread.
    if (self->block->bulk_stores) [[unlikely]]
        bulk_stores_at_exit(*self);
    finish_thread(self);
}

void Engine::finish_thread(Thread* self) {
    RuntimeScope scope(self); // never unset: this fiber runs no kernel code again
    if (recorder_) recorder_->settle(self);
    Warp* w = self->warp;
    Block* b = self->block;
    w->runnable_mask &= ~(1u << self->lane);
    w->exited_mask |= 1u << self->lane;
    b->live--;
    note_progress();
    // (Tested here: the report's function has a large frame, a cold stack line per thread.)
    if (b->at_barrier != 0) [[unlikely]]
        check_barrier_with_exits(b, self);
    if (w->activemask_mask) try_converge(w); // it will not come to the __activemask()
    // A lane that exits may complete a collective that was waiting only for it.
    for (uint32_t m = w->collective_mask; m != 0; m &= m - 1) {
        Thread* t = w->lanes[__builtin_ctz(m)];
        if ((t->coll_mask >> self->lane) & 1u) {
            try_complete_collective(t);
            break;
        }
    }
    Thread* next = next_lane_after(self);
    if (!next) w->cursor = 0;
    // This stack is never resumed again; the block gives it back to the pool when it retires.
    transfer(self, next);
    std::abort();
}

void Engine::check_barrier_with_exits(Block* b, Thread* exiting) {
    Thread* waiting = first_at_barrier(*b);
    std::ostringstream msg;
    msg << "barrier divergence: " << describe_thread(*exiting) << " exited while " << b->at_barrier
        << " thread(s) of its block wait at __syncthreads() at "
        << resolve_source(b->barrier_site).to_string() << " (for example "
        << (waiting ? describe_thread(*waiting) : std::string("?"))
        << "). Every thread of a block must reach each __syncthreads(): a barrier inside a "
           "branch that some threads skip (an `if`, or a loop whose trip count differs between "
           "threads) or after an early return waits for threads that never come.";
    fault(FaultKind::barrier_divergence, cudaErrorLaunchFailure, msg.str(), b->barrier_site,
          exiting,
          divergence_accesses(exiting, AccessRole::execute, nullptr, waiting, b->barrier_site));
}

uint32_t Engine::its_gap() {
    // The number of Bernoulli(1/16) trials up to the first success: eight trials of four random
    // bits from each draw, a trial succeeding when its four bits are all zero.
    uint32_t gap = 1;
    for (;;) {
        const uint32_t bits = next_random();
        const uint32_t zero_groups = ~(bits | bits >> 1 | bits >> 2 | bits >> 3) & 0x11111111u;
        if (zero_groups) return gap + static_cast<uint32_t>(__builtin_ctz(zero_groups)) / 4;
        gap += 8;
    }
}

void Engine::make_runnable(Thread* t) {
    Warp* w = t->warp;
    const uint32_t bit = 1u << t->lane;
    if (w->exited_mask & bit) return;
    w->barrier_mask &= ~bit;
    w->collective_mask &= ~bit;
    w->runnable_mask |= bit;
}

inline void Engine::make_waiting(Thread* t, ThreadState state, const void* site) {
    Warp* w = t->warp;
    const uint32_t bit = 1u << t->lane;
    w->runnable_mask &= ~bit;
    if (state == ThreadState::at_barrier) w->barrier_mask |= bit;
    if (state == ThreadState::at_collective) w->collective_mask |= bit;
    t->wait_site = site;
    // Released together, in lockstep they step first, as one. (Only there: in `its` a barrier
    // would touch the warp's positions for every thread.)
    if (lockstep_) w->positions[t->lane] = nullptr;
    if (w->activemask_mask) [[unlikely]]
        try_converge(w); // this lane waits elsewhere now
}

void Engine::try_converge(Warp* w) {
    if (w->runnable_mask != 0) return; // some lane may still come to the __activemask()
    for (uint32_t waiting = w->activemask_mask; waiting != 0;) {
        // The lanes at the same __activemask() as the lowest waiting one.
        const Thread* first = w->lanes[__builtin_ctz(waiting)];
        uint32_t group = 0;
        for (uint32_t m = waiting; m != 0; m &= m - 1) {
            const Thread* t = w->lanes[__builtin_ctz(m)];
            if (t->wait_site == first->wait_site || same_barrier(t->wait_site, first->wait_site))
                group |= 1u << t->lane;
        }
        for (uint32_t m = group; m != 0; m &= m - 1)
            w->lanes[__builtin_ctz(m)]->coll_result = group;
        waiting &= ~group;
        w->activemask_mask &= ~group;
        w->collective_mask &= ~group;
        w->runnable_mask |= group;
    }
}

void Engine::block_and_switch(Thread* me) {
    Thread* next = next_lane_after(me);
    if (next && next != me) {
        if (!lockstep_) prefetch_lane_after(next);
        return suspend(me, next, next->ctx);
    }
    me->warp->cursor = 0;
    return suspend(me, nullptr, scheduler_ctx_);
}

// Every switch away from a running thread goes through this one call site, reached by tail calls
// from the access hooks and __syncthreads(). The call stack of a suspended thread is then the
// same few frames whatever it waits at, so when another thread resumes it, the CPU's return
// predictor (filled by the suspending thread's calls) predicts the returns right.
void Engine::suspend(Thread* me, Thread* next, FiberContext target) {
    transfer_to(me, next, target);
}

void Engine::fence_point(const void* site, MemoryScope fence_scope) {
    RuntimeScope scope(current_);
    Thread* me = current_;
    if (global_) global_->fence(*me, fence_scope, site);
    count_poll(me, site); // a fence in a loop may be all a spin-wait does
    switch_for_mode(me, site);
}

void Engine::poll_point(const void* site) {
    RuntimeScope scope(current_);
    Thread* me = current_;
    // A spin: the same read as the lane's last poll, and no write since. Left to the end of its
    // turn (64 scheduling points a lane), a look-back warp waiting for a tile that another
    // block has not published yet polled tens of thousands of times per tile.
    if (me->last_poll_site == site && polls_since_progress_ > 0) {
        Warp* w = me->warp;
        if (++w->spin_polls >= kSpinPollsPerTurn) w->slice_steps = w->slice_limit;
    }
    count_poll(me, site);
}

void Engine::spin_deadlock() {
    report_deadlock("deadlock: threads keep polling (memory reads, warp intrinsics, barriers or "
                    "fences in a loop) while no thread writes memory: a spin-wait that cannot "
                    "finish");
}

void Engine::loop_point(const void* site, int end_line, int end_order) {
    if (!lockstep_) return;
    Thread* me = current_;
    me->warp->positions[me->lane] = lockstep_position(me, site, loop_end_key(end_line, end_order));
    return switch_lane(me, nullptr); // the lane's step ends here, before its next access
}

const CodePosition* Engine::lockstep_position_again(Thread* me, const void* pc, uint64_t end) {
    RuntimeScope scope(me);
    const CallPath calls = call_path(*me);
    const CodePosition* position = code_position(pc, calls, end);
    me->warp->memo.remember(pc, calls, end, position);
    return position;
}

// Lockstep, as a SIMT stack runs a warp: the lanes at the earliest code position take one step
// each (up to their next access or loop condition), in lane order, before any lane takes
// another. Lanes that took different sides of a branch therefore run one side, then the other,
// and go on together from where the sides join; lanes that skipped an access wait for the
// others instead of running ahead.
Thread* Engine::lockstep_next(Warp* w, int after_lane) {
    const uint32_t m = w->runnable_mask;
    if (m == 0) return nullptr;
    // The rest of the current step: lanes above `after_lane` still at the step's position.
    uint32_t rest = after_lane >= 31 ? 0u : m & (~0u << (after_lane + 1));
    for (; rest != 0; rest &= rest - 1) {
        const unsigned l = static_cast<unsigned>(__builtin_ctz(rest));
        if (w->positions[l] == w->step_position) return w->lanes[l];
    }
    // A new step: the earliest position any runnable lane waits at.
    unsigned first = 0;
    uint64_t earliest = UINT64_MAX;
    for (uint32_t r = m; r != 0; r &= r - 1) {
        const unsigned l = static_cast<unsigned>(__builtin_ctz(r));
        const uint64_t rank = w->positions[l] ? w->positions[l]->rank : 0;
        if (rank < earliest) {
            earliest = rank;
            first = l;
        }
    }
    w->step_position = w->positions[first];
    return w->lanes[first];
}

void Engine::sleep_point(const void* site) {
    RuntimeScope scope(current_);
    Thread* me = current_;
    poll_point(site);
    me->warp->slice_steps = 0;
    me->warp->cursor = (me->lane + 1) % me->warp->lane_count;
    last_block_ = nullptr;
    transfer(me, nullptr);
}

void Engine::trace_before(Thread* me, uintptr_t address, size_t bytes, AccessKind kind,
                          const void* site) {
    RuntimeScope scope(me);
    recorder_->announce(me, address, bytes, kind, site);
}

void Engine::trace_after(Thread* me) {
    RuntimeScope scope(me);
    recorder_->executing(me);
}

void Engine::check_unregistered(const Region* r, uintptr_t address, size_t bytes, AccessKind kind,
                                const void* site) {
    RuntimeScope scope(current_);
    if (!r) {
        // Constant data of the program (string literals, static const tables) may be read.
        if (kind == AccessKind::read && readonly_image_contains(address, bytes)) return;
        fault(FaultKind::illegal_address, cudaErrorIllegalAddress,
              explain_bad_address(address, bytes, kind == AccessKind::read ? "read" : "write"),
              site, nullptr,
              {AccessRecord{current_, 0, role_of(kind), false, address, bytes, site, true}});
    }
    fault(FaultKind::illegal_address, cudaErrorIllegalAddress,
          "write to " + std::string(to_string(r->kind)) + ", which is read-only in kernels", site,
          nullptr, {AccessRecord{current_, 0, role_of(kind), false, address, bytes, site, true}});
}

// Plain aligned loads and stores of device memory with the checks on. The general path checks
// after its scheduling point, so that the check sees what the load will read; here no switch may
// be due. The fast checks call nothing, so that these need no stack frame (fiber stacks are cold
// in the cache, and a frame costs a miss).
template <size_t Bytes>
void Engine::checked_global_read(uintptr_t address, const void* site, const Region* r) {
    if (countdown_ == 1) [[unlikely]]
        return checked_global_at_switch<Bytes, AccessKind::read>(address, site, r);
    if (!global_ || !global_->fast_read(*current_, *r, address, Bytes, site)) [[unlikely]]
        return checked_global_slow(address, Bytes, AccessKind::read, site, r);
    --countdown_;
}

template <size_t Bytes>
void Engine::checked_global_write(uintptr_t address, const void* site, const Region* r) {
    if (countdown_ == 1) [[unlikely]]
        return checked_global_at_switch<Bytes, AccessKind::write>(address, site, r);
    if (!global_ || !global_->fast_write(*current_, *r, address, Bytes, site)) [[unlikely]]
        return checked_global_slow(address, Bytes, AccessKind::write, site, r);
    note_progress();
    --countdown_;
}

template <size_t Bytes, AccessKind Kind>
void Engine::checked_global_site(uintptr_t address, const void* site) {
    if (countdown_ != 1 && global_ && global_->fast_at_site(*current_, address, Bytes, Kind, site))
        [[likely]] {
        if (Kind == AccessKind::write) note_progress();
        --countdown_;
        return;
    }
    return checked_global_lookup<Bytes, Kind>(address, site);
}

template <size_t Bytes, AccessKind Kind>
void Engine::checked_global_lookup(uintptr_t address, const void* site) {
    // The kernel's parameters (read where the launch's entry passes them): not checked, and
    // known without the registry.
    const uintptr_t in_params = address - reinterpret_cast<uintptr_t>(request_.params);
    if (Kind == AccessKind::read && in_params < request_.params_bytes &&
        Bytes <= request_.params_bytes - in_params)
        return switch_for_mode(current_, site);
    // A scheduling point in a known span: the switch, then the check (as checked_global_read()
    // and checked_global_write() do), without looking the region up.
    if (countdown_ == 1 && global_)
        if (const Region* r = global_->span_region(address, Bytes, Kind, site))
            return checked_global_at_switch<Bytes, Kind>(address, site, r);
    const Region* r = registry_->cached(address, Bytes, Kind != AccessKind::read);
    if (!r) [[unlikely]]
        return checked_global_slow(address, Bytes, Kind, site, r);
    if (r->kind == RegionKind::parameters) { // the kernel's parameters: not checked
        if (Kind == AccessKind::write) note_progress();
        return switch_for_mode(current_, site);
    }
    return Kind == AccessKind::read ? checked_global_read<Bytes>(address, site, r)
                                    : checked_global_write<Bytes>(address, site, r);
}

// The sizes plain_access() passes (aligned, at most 16 bytes).
#define SIMT_CHECKED_GLOBAL(BYTES)                                                                 \
    template void Engine::checked_global_read<BYTES>(uintptr_t, const void*, const Region*);       \
    template void Engine::checked_global_write<BYTES>(uintptr_t, const void*, const Region*);      \
    template void Engine::checked_global_site<BYTES, AccessKind::read>(uintptr_t, const void*);    \
    template void Engine::checked_global_site<BYTES, AccessKind::write>(uintptr_t, const void*);   \
    template void Engine::checked_global_lookup<BYTES, AccessKind::read>(uintptr_t, const void*);  \
    template void Engine::checked_global_lookup<BYTES, AccessKind::write>(uintptr_t, const void*);
SIMT_CHECKED_GLOBAL(1)
SIMT_CHECKED_GLOBAL(2)
SIMT_CHECKED_GLOBAL(4)
SIMT_CHECKED_GLOBAL(8)
SIMT_CHECKED_GLOBAL(16)
#undef SIMT_CHECKED_GLOBAL

void Engine::general_access(uintptr_t address, size_t bytes, AccessKind kind, bool is_volatile,
                            const void* site) {
    access_general(address, bytes, kind, is_volatile, site);
}

void Engine::checked_global_slow(uintptr_t address, size_t bytes, AccessKind kind, const void* site,
                                 const Region* r) {
    access_general(address, bytes, kind, false, site, r);
}

// What access_general() does for such an access (the checked_global_* callers ruled out the
// rest: a recorder, a misaligned or unwritable access, a parameter), in the same order: the
// switch, then the check just before the access happens. After the switch the fast path
// decides as for any other access, so that in lockstep (a switch at every access) and at `its`
// scheduling points the common access is not checked by the general path. The switch is the
// only call here, and the check after it a tail call: the thread suspends with a small frame
// (its stack is cold when it resumes, and every line of a frame is a miss).
template <size_t Bytes, AccessKind Kind>
void Engine::checked_global_at_switch(uintptr_t address, const void* site, const Region* r) {
    if (Kind == AccessKind::write) note_progress();
    switch_for_mode(current_, site);
    return checked_global_switched<Bytes, Kind>(address, site, r);
}

template <size_t Bytes, AccessKind Kind>
void Engine::checked_global_switched(uintptr_t address, const void* site, const Region* r) {
    // Most accesses are still in their site's span after the switch.
    const bool checked =
        global_ &&
        (global_->fast_at_site(*current_, address, Bytes, Kind, site) ||
         (Kind == AccessKind::read ? global_->fast_read(*current_, *r, address, Bytes, site)
                                   : global_->fast_write(*current_, *r, address, Bytes, site)));
    if (!checked) [[unlikely]]
        return checked_global_general(address, Bytes, Kind, site, r);
}

void Engine::checked_global_general(uintptr_t address, size_t bytes, AccessKind kind,
                                    const void* site, const Region* r) {
    if (!global_) return;
    Thread* me = current_;
    RuntimeScope scope(me);
    global_->access(*me, *r, address, bytes, kind, Strength::plain, site);
}

// The global checks' inline tests of a plain load or store that the fast path left to the
// general one (a watched output, whose writes the provenance watch notes, or a region not among
// the last few): those of the fast path, after the switch as there (checked_global_switched,
// which makes the same choice with the size known at compile time).
bool Engine::fast_plain_check(Thread* me, const Region& r, uintptr_t address, size_t bytes,
                              AccessKind kind, const void* site) {
    return kind == AccessKind::read ? global_->fast_read(*me, r, address, bytes, site)
                                    : global_->fast_write(*me, r, address, bytes, site);
}

void Engine::followed_access(uintptr_t address, size_t bytes, AccessKind kind, bool is_volatile,
                             const void* site) {
    Thread* me = current_;
    const bool reads = kind != AccessKind::write, writes = kind != AccessKind::read;
    Block* b = me->block;
    const uintptr_t offset = address - b->shared_base();
    if (offset < b->shared_capacity) {
        if (!DataFlow::access_shared_fast(b->derived_words, me->derived, offset, bytes, reads,
                                          writes))
            DataFlow::access_shared(b->derived_words, me->derived, offset, bytes, reads, writes);
    } else if (address - me->stack_lo >= me->stack_size) { // not its own locals
        if (!flow_->access_fast(me->derived, address, bytes, reads, writes))
            flow_->access(me->derived, address, bytes, reads, writes);
    }
    return plain_access(address, bytes, kind, is_volatile, site);
}

void Engine::access_general(uintptr_t address, size_t bytes, AccessKind kind, bool is_volatile,
                            const void* site, const Region* known) {
    Thread* me = current_;
    Block* b = me->block;
    if (recorder_) [[unlikely]] {
        if (address - me->stack_lo < me->stack_size) return;
        trace_before(me, address, bytes, kind, site);
    }
    const uintptr_t offset = address - b->shared_base();
    const Region* global = nullptr; // device memory the global-memory checks look at
    bool parameter = false;         // a kernel parameter (see the alignment check below)
    if (offset < b->shared_capacity) {
        shared_.locate(*me, offset, bytes, kind, site); // on with the checks off, too
        if (checks_) shared_.access(*me, offset, bytes, kind, site);
    } else if (address - me->stack_lo < me->stack_size) {
        return; // the thread's own locals
    } else {
        const Region* r = known ? known : registry_->find_range(address, bytes);
        if (!r || (kind != AccessKind::read && !r->writable_from_device)) [[unlikely]]
            check_unregistered(r, address, bytes, kind, site);
        parameter = r && r->kind == RegionKind::parameters;
        if (global_ && r && !parameter) global = r;
        if (r && kind != AccessKind::read && r->kernel_writes_tracked) [[unlikely]]
            provenance().kernel_wrote(address, bytes); // a kernel, not host code, wrote it last
    }
    // Kernel parameters are exempt: the host compiler may copy an 8-byte aligned 16-byte struct
    // parameter with one 16-byte load, where a GPU reads it from its parameter bank, and no
    // kernel can misplace its own parameters.
    if ((address & (bytes - 1)) != 0 && (bytes & (bytes - 1)) == 0 && bytes <= 16 && !parameter)
        [[unlikely]]
        misaligned(address, bytes, kind, site);
    if (kind == AccessKind::write)
        note_progress();
    else if (is_volatile && kind == AccessKind::read)
        poll_point(site); // atomics decide for themselves: only a change is progress
    const Strength strength = kind == AccessKind::atomic ? atomic_strength_ // (set just before)
                              : is_volatile              ? Strength::volatile_
                                                         : Strength::plain;
    switch_for_mode(me, site);
    if (global) {
        // After the switch, just before the access itself happens: no other thread runs between
        // this check (which may show the thread an old value, relaxed visibility) and the
        // access. The inline tests first, where they apply: they take 1, 2, 4, 8 or 16 bytes
        // at a multiple of the size (misaligned() has ruled out other addresses). A poll of a
        // word that no kernel wrote yet (a look-back waiting for a tile) is checked here.
        const bool inline_size = bytes <= 16 && (bytes & (bytes - 1)) == 0;
        const bool checked =
            inline_size &&
            (strength == Strength::volatile_
                 ? kind == AccessKind::read &&
                       global_->fast_strong_read(*me, *global, address, bytes, strength, site)
                 : strength == Strength::plain &&
                       fast_plain_check(me, *global, address, bytes, kind, site));
        if (!checked) {
            RuntimeScope scope(me);
            global_->access(*me, *global, address, bytes, kind, strength, site);
        }
    }
    if (recorder_) [[unlikely]]
        trace_after(me);
}

void Engine::switch_lane(Thread* me, const void* site) {
    Warp* w = me->warp;
    // The accesses since the last scheduling point count towards the warp's turn.
    w->slice_steps += countdown_length_;
    countdown_ = countdown_length_ = lockstep_ ? 1 : its_gap();
    if (lockstep_ && site)
        w->positions[me->lane] = lockstep_position(me, site, 0); // its next step's
    if (w->slice_steps >= w->slice_limit) {
        // End of this warp's turn: let other warps (and blocks) run, e.g. the one a spin waits on.
        w->slice_steps = 0;
        last_block_ = nullptr; // and no preference for this block: it may be spinning
        w->cursor = (me->lane + 1) % w->lane_count;
        return suspend(me, nullptr, scheduler_ctx_);
    }
    Thread* next = nullptr;
    if (lockstep_) {
        FiberContext guess_ctx;
        Thread* guess = lane_after(me, guess_ctx);
        // The common case inline: the lane after `me` can run and takes the same step, so it is
        // the first of the step's other lanes above `me`, which lockstep_next() would pick.
        const unsigned g = me->lane + 1u;
        if (g < w->lane_count && (w->runnable_mask >> g & 1u) &&
            w->positions[g] == w->step_position) [[likely]] {
            prefetch_lockstep_lane(w, g + 1u);
            asm("" : "+r"(guess_ctx));
            return suspend(me, guess, guess_ctx);
        }
        next = lockstep_next(w, me->lane);
        if (next == guess && guess != me) [[likely]] {
            asm("" : "+r"(guess_ctx)); // (else the compiler would take next->ctx again)
            return suspend(me, next, guess_ctx);
        }
    } else {
        // Independent thread scheduling: at a random sixteenth of the accesses, another lane of
        // the warp takes over. Barriers and warp intrinsics switch in every mode.
        next = lane_from(w, next_random());
    }
    if (next && next != me) return suspend(me, next, next->ctx);
}

void Engine::report(FaultKind kind, const std::string& key,
                    const std::function<std::string()>& message, const void* site,
                    const Thread* culprit, std::vector<AccessRecord> accesses) {
    report_check(kind, key, message, site, culprit, std::move(accesses));
}

AccessRole role_of(AccessKind kind) {
    return kind == AccessKind::read    ? AccessRole::load
           : kind == AccessKind::write ? AccessRole::store
                                       : AccessRole::atomic;
}

template <class What>
void Engine::report_check(FaultKind kind, const std::string& key, What what, const void* site,
                          const Thread* culprit, std::vector<AccessRecord> accesses) {
    if (check_findings_ >= kMaxFindings) return;
    for (const std::string& k : finding_keys_)
        if (k == key) return;
    finding_keys_.push_back(key);
    ++check_findings_;
    findings_.push_back(make_finding(
        kind,
        format_fault(kind, what(), culprit ? describe_thread(*culprit) : "", site, request_.kernel),
        site, accesses));
}

void Engine::misaligned(uintptr_t address, size_t bytes, AccessKind kind, const void* site) {
    RuntimeScope scope(current_);
    std::ostringstream msg;
    msg << "misaligned " << bytes << "-byte access at address 0x" << std::hex << address
        << ": GPU memory accesses must be aligned to their size";
    // A shared address is named by its offset in the block's shared window, as the kernel sees it.
    AccessRecord access{current_, 0, role_of(kind), false, address, bytes, site, true};
    const uintptr_t storage = address - current_->block->shared_base();
    if (storage < current_->block->shared_capacity) {
        access.shared = true;
        access.address = storage;
        for (const SharedAllocation& v : current_->block->shared_vars)
            if (storage - v.storage < v.bytes) access.address = v.offset + (storage - v.storage);
    }
    fault(FaultKind::misaligned_address, cudaErrorMisalignedAddress, msg.str(), site, nullptr,
          {access});
}

bool Engine::same_barrier(const void* a, const void* b) {
    RuntimeScope scope(current_);
    auto key = std::make_pair(std::min(a, b), std::max(a, b));
    if (key == last_alias_) return last_alias_same_; // the common case: the same two sites again
    auto it = barrier_aliases_.find(key);
    if (it == barrier_aliases_.end())
        it = barrier_aliases_.emplace(key, same_source_line(a, b)).first;
    last_alias_ = key;
    last_alias_same_ = it->second;
    return it->second;
}

void Engine::barrier_mismatch(Thread* me, const void* site) {
    RuntimeScope scope(me);
    Block* b = me->block;
    Thread* other = first_at_barrier(*b);
    std::ostringstream msg;
    msg << "barrier divergence: " << describe_thread(*me) << " reached __syncthreads() at "
        << resolve_source(site).to_string() << " while "
        << (other ? describe_thread(*other) : std::string("another thread"))
        << " waits at a different __syncthreads() at "
        << resolve_source(b->barrier_site).to_string()
        << ". A __syncthreads() inside a branch that not all threads take is undefined "
           "behaviour.";
    fault(FaultKind::barrier_divergence, cudaErrorLaunchFailure, msg.str(), site, me,
          divergence_accesses(me, AccessRole::wait, site, other, b->barrier_site));
}

void Engine::exited_before_barrier(Block* b, const void* site) {
    RuntimeScope scope(current_);
    Thread* gone = nullptr;
    for (Thread& t : b->threads)
        if (state_of(t) == ThreadState::exited) {
            gone = &t;
            break;
        }
    std::ostringstream msg;
    msg << "barrier divergence: " << (threads_per_block_ - b->live)
        << " thread(s) of the block (for example " << describe_thread(*gone)
        << ") exited without reaching __syncthreads() at " << resolve_source(site).to_string()
        << ". Every thread of a block must reach each __syncthreads(): guard the work "
           "instead of returning early.";
    // The thread that arrived last, and one that will never come (it exited: no place).
    std::vector<AccessRecord> waits;
    if (current_)
        waits.push_back(AccessRecord{current_, 0, AccessRole::wait, false, 0, 0, site, false});
    if (gone)
        waits.push_back(AccessRecord{gone, 0, AccessRole::execute, false, 0, 0, nullptr, false});
    fault(FaultKind::barrier_divergence, cudaErrorLaunchFailure, msg.str(), site, nullptr,
          std::move(waits));
}

inline void Engine::arrive_at_barrier(Thread* me, Block* b, const void* site, int reduce_kind) {
    if (b->at_barrier == 0) { // the first to arrive names the barrier
        b->barrier_site = site;
        b->barrier_reduce = reduce_kind == 2 ? 1 : 0; // and: starts true
        b->barrier_derived = false;
    }
    count_poll(me, site); // a barrier in a loop may be part of a spin-wait
    b->at_barrier++;
    make_waiting(me, ThreadState::at_barrier, site);
}

void Engine::syncthreads(const void* site, int reduce_kind, int predicate, int* result) {
    // The common case (a plain __syncthreads() at the block's current barrier, no trace, not the
    // last thread to arrive) in few instructions, ending in a tail call into the switch; the rest
    // in syncthreads_general(). No RuntimeScope on this path: it runs no code that kernels could
    // share.
    Thread* me = current_;
    Block* b = me->block;
    if (recorder_ || reduce_kind != 0 || result || b->at_barrier + 1 == b->live ||
        (b->at_barrier != 0 && site != b->barrier_site)) [[unlikely]]
        return syncthreads_general(site, reduce_kind, predicate, result);
    arrive_at_barrier(me, b, site, 0);
    return block_and_switch(me);
}

void Engine::syncthreads_general(const void* site, int reduce_kind, int predicate, int* result) {
    Thread* me = current_;
    if (recorder_) [[unlikely]] {
        RuntimeScope scope(me);
        recorder_->settle(me);
    }
    Block* b = me->block;
    if (b->at_barrier != 0 && site != b->barrier_site && !same_barrier(site, b->barrier_site))
        [[unlikely]]
        barrier_mismatch(me, site);
    arrive_at_barrier(me, b, site, reduce_kind);
    if (reduce_kind == 1) b->barrier_reduce += predicate ? 1 : 0;
    if (reduce_kind == 2) b->barrier_reduce = b->barrier_reduce && predicate;
    if (reduce_kind == 3) b->barrier_reduce = b->barrier_reduce || predicate;
    if (reduce_kind != 0 && me->derived) b->barrier_derived = true; // its vote is derived data
    if (b->at_barrier == b->live) {
        if (b->live < threads_per_block_) [[unlikely]]
            exited_before_barrier(b, site);
        b->barrier_result = b->barrier_reduce;
        b->barrier_result_derived = b->barrier_derived;
        b->at_barrier = 0;
        b->barrier_epoch++;
        if (global_) global_->barrier_completed(*b);
        if (recorder_) [[unlikely]] {
            RuntimeScope scope(me);
            recorder_->barrier_released(b, site);
        }
        // Release whole warps at once.
        for (Warp& w : b->warps) {
            w.runnable_mask |= w.barrier_mask;
            w.barrier_mask = 0;
        }
        reverse_ring();
    } else {
        block_and_switch(me);
    }
    if (result) {
        *result = b->barrier_result;
        if (b->barrier_result_derived) me->derived = true;
    }
}

void Engine::collective_misuse(Thread* me, CollectiveKind kind, unsigned mask, int width,
                               const void* site) {
    std::ostringstream msg;
    if (!((mask >> me->lane) & 1u))
        msg << to_string(kind) << " called by lane " << me->lane << " with mask 0x" << std::hex
            << mask << ", which does not include the calling lane";
    else
        msg << "__shfl*_sync width " << width << " is not a power of two between 1 and 32";
    fault(FaultKind::warp_mask, cudaErrorLaunchFailure, msg.str(), site);
}

uint64_t Engine::collective(CollectiveKind kind, unsigned mask, uint64_t value, int arg,
                            ShuffleKind shuffle, int width, const void* site) {
    RuntimeScope scope(current_);
    Thread* me = current_;
    if (recorder_) recorder_->settle(me);
    if (!((mask >> me->lane) & 1u) ||
        (kind == CollectiveKind::shuffle && (width <= 0 || width > 32 || (width & (width - 1)))))
        [[unlikely]]
        collective_misuse(me, kind, mask, width, site);
    me->coll_kind = kind;
    me->coll_mask = mask;
    me->coll_value = value;
    me->coll_arg = arg;
    me->coll_shuffle = shuffle;
    me->coll_width = width;
    // Completing a collective is not progress: a warp may spin on __syncwarp() or a shuffle
    // waiting for a value that nobody will write.
    count_poll(me, site);
    make_waiting(me, ThreadState::at_collective, site);
    try_complete_collective(me);
    if (!((me->warp->runnable_mask >> me->lane) & 1u)) block_and_switch(me);
    return me->coll_result;
}

namespace {
// "0-15, 20" for a lane mask.
std::string lane_list(unsigned mask) {
    std::ostringstream s;
    bool first = true;
    for (unsigned l = 0; l < 32;) {
        if (!((mask >> l) & 1u)) {
            ++l;
            continue;
        }
        unsigned end = l;
        while (end + 1 < 32 && ((mask >> (end + 1)) & 1u)) ++end;
        s << (first ? "" : ", ") << l;
        if (end > l) s << "-" << end;
        first = false;
        l = end + 1;
    }
    return s.str();
}
} // namespace

void Engine::report_absent_lanes(Thread* arriving, unsigned absent) {
    RuntimeScope scope(current_);
    const Warp* w = arriving->warp;
    const unsigned existing = w->lane_count == 32 ? ~0u : ((1u << w->lane_count) - 1);
    const unsigned exited = absent & existing;
    const unsigned missing = absent & ~existing;
    const CollectiveKind kind = arriving->coll_kind;
    const void* site = arriving->wait_site;
    report_check(
        FaultKind::warp_mask, "absent:" + std::to_string(reinterpret_cast<uintptr_t>(site)),
        [&] {
            std::ostringstream m;
            m << to_string(kind) << " with mask 0x" << std::hex << arriving->coll_mask << std::dec
              << " names lanes that never call it: ";
            if (exited)
                m << "lane(s) " << lane_list(exited) << " of warp " << w->index << " exited";
            if (exited && missing) m << ", and ";
            if (missing)
                m << "lane(s) " << lane_list(missing) << " do not exist (the block has "
                  << threads_per_block_ << " threads)";
            m << ". Every lane a *_sync mask names must call the same intrinsic (a GPU leaves "
                 "the result undefined"
              << (kind == CollectiveKind::shuffle ? ": a shuffle from an absent lane returns "
                                                    "garbage"
                                                  : "")
              << "): pass the mask of the lanes that take part (__ballot_sync or "
                 "__activemask() before the branch), or keep all lanes in the loop";
            return m.str();
        },
        site, arriving, {AccessRecord{arriving, 0, AccessRole::wait, false, 0, 0, site, false}});
}

void Engine::report_absent_source(Thread* reader, int source, unsigned participants) {
    RuntimeScope scope(current_);
    const Warp* w = reader->warp;
    const void* site = reader->wait_site;
    const bool exists = source >= 0 && static_cast<unsigned>(source) < w->lane_count;
    const bool exited = exists && ((w->exited_mask >> source) & 1u);
    report_check(
        FaultKind::warp_mask, "shfl-source:" + std::to_string(reinterpret_cast<uintptr_t>(site)),
        [&] {
            std::ostringstream m;
            m << "shuffle from a lane that does not take part: lane " << reader->lane << " of warp "
              << w->index << " reads lane " << source << " with mask 0x" << std::hex
              << reader->coll_mask << std::dec << " (lanes taking part: "
              << (participants ? lane_list(participants) : std::string("none")) << "), but lane "
              << source;
            if (!exists)
                m << " does not exist (the block has " << threads_per_block_ << " threads)";
            else if (exited)
                m << " has exited";
            else
                m << " is not in the mask";
            m << ". A GPU returns an undefined value there (the emulator returns 0xDEADBEEF). Keep "
                 "every lane whose value is read in the shuffle (let lanes past the end take "
                 "part with the identity instead of returning), or read only lanes of the mask";
            return m.str();
        },
        site, reader, {AccessRecord{reader, 0, AccessRole::wait, false, 0, 0, site, false}});
}

void Engine::try_complete_collective(Thread* arriving) {
    Warp* w = arriving->warp;
    const unsigned mask = arriving->coll_mask;
    const CollectiveKind kind = arriving->coll_kind;
    // Lanes that do not exist (partial warp) or have exited do not take part.
    const unsigned existing = w->lane_count == 32 ? ~0u : ((1u << w->lane_count) - 1);
    const unsigned participants = mask & existing & ~w->exited_mask;
    for (uint32_t m = participants; m != 0; m &= m - 1) {
        const unsigned l = static_cast<unsigned>(__builtin_ctz(m));
        if (!((w->collective_mask >> l) & 1u)) return; // not there yet
        const Thread* t = w->lanes[l];
        if (t->coll_mask != mask) return;
        if (t->coll_kind != kind) [[unlikely]]
            collective_mismatch(arriving, t);
    }
    // Shuffles and votes pair values lane by lane: the lanes must be at the same one (lines
    // compared, since the compiler may duplicate a call). __syncwarp() may be called from
    // different places.
    if (kind != CollectiveKind::syncwarp) {
        for (uint32_t m = participants; m != 0; m &= m - 1) {
            const Thread* t = w->lanes[__builtin_ctz(m)];
            if (t->wait_site != arriving->wait_site &&
                !same_barrier(t->wait_site, arriving->wait_site)) [[unlikely]]
                collective_mismatch(arriving, t);
        }
    }
    if (const unsigned absent = mask & ~participants; absent != 0 && checks_) [[unlikely]]
        report_absent_lanes(arriving, absent);
    // Everyone named is here: compute each lane's result, then release them together.
    std::array<uint8_t, 32> shuffle_sources{}; // each lane's source lane, for a trace
    unsigned ballot = 0;
    unsigned derived = 0; // lanes that hand over data derived from a watched input
    for (unsigned l = 0; l < w->lane_count; ++l) {
        if ((participants >> l) & 1u && w->lanes[l]->coll_value) ballot |= 1u << l;
        if ((participants >> l) & 1u && w->lanes[l]->derived) derived |= 1u << l;
    }
    for (unsigned l = 0; l < w->lane_count; ++l) {
        if (!((participants >> l) & 1u)) continue;
        Thread* t = w->lanes[l];
        switch (kind) {
        case CollectiveKind::syncwarp:
        case CollectiveKind::activemask:
            t->coll_result = 0;
            break;
        case CollectiveKind::ballot:
            t->coll_result = ballot;
            t->derived = t->derived || derived != 0;
            break;
        case CollectiveKind::any:
            t->coll_result = ballot != 0;
            t->derived = t->derived || derived != 0;
            break;
        case CollectiveKind::all:
            t->coll_result = ballot == participants;
            t->derived = t->derived || derived != 0;
            break;
        case CollectiveKind::shuffle: {
            const int width = t->coll_width;
            const int segment = static_cast<int>(l) & ~(width - 1);
            int src = static_cast<int>(l);
            switch (t->coll_shuffle) {
            case ShuffleKind::index:
                src = segment + (t->coll_arg & (width - 1));
                break;
            case ShuffleKind::up:
                src = static_cast<int>(l) - t->coll_arg;
                if (src < segment) src = static_cast<int>(l);
                break;
            case ShuffleKind::down:
                src = static_cast<int>(l) + t->coll_arg;
                if (src >= segment + width) src = static_cast<int>(l);
                break;
            case ShuffleKind::xor_:
                src = static_cast<int>(l) ^ t->coll_arg;
                if (src >= segment + width) src = static_cast<int>(l);
                break;
            }
            shuffle_sources[l] = static_cast<uint8_t>(src & 31);
            if (src < 0 || src >= 32 || !((participants >> src) & 1u)) {
                // The source lane does not take part: a GPU returns an undefined value.
                t->coll_result = 0xDEADBEEFDEADBEEFull;
                if (checks_) [[unlikely]]
                    report_absent_source(t, src, participants);
            } else {
                t->coll_result = w->lanes[src]->coll_value;
                t->derived = t->derived || ((derived >> src) & 1u);
            }
            break;
        }
        }
    }
    if (recorder_ && kind == CollectiveKind::shuffle) [[unlikely]]
        recorder_->shuffled(*w, participants, shuffle_sources, arriving->wait_site);
    w->collective_mask &= ~participants;
    w->runnable_mask |= participants;
    w->sync_epoch++;
    if (w->block->mbarriers) [[unlikely]]
        mbarrier_warp_synchronized(*w, participants);
}

void Engine::grid_dependency_synchronize(const void* site) {
    RuntimeScope scope(current_);
    if (global_) global_->grid_dependency_synchronized(*current_);
    switch_for_mode(current_, site);
}

unsigned Engine::activemask(const void* site) {
    RuntimeScope scope(current_);
    Thread* me = current_;
    if (recorder_) recorder_->settle(me);
    // The lanes of a converged warp reach __activemask() together: the mask is the lanes that
    // come to this one before the warp's other lanes have exited or wait elsewhere (a barrier,
    // another warp intrinsic). Lanes that returned early are not in it, as on a GPU.
    count_poll(me, site);
    me->coll_kind = CollectiveKind::activemask;
    // In no *_sync intrinsic's mask: the warp's other lanes, arriving at one, wait for this lane
    // (else the mask its last intrinsic left here would count it as a lane at theirs).
    me->coll_mask = 0;
    me->warp->activemask_mask |= 1u << me->lane;
    make_waiting(me, ThreadState::at_collective, site);
    if (!((me->warp->runnable_mask >> me->lane) & 1u)) block_and_switch(me);
    return static_cast<unsigned>(me->coll_result);
}

size_t Engine::place_shared(Block& b, size_t offset, size_t bytes, size_t align) {
    const size_t period = std::max<size_t>(kSharedGuardUnit, align);
    auto round_up = [](size_t n, size_t unit) { return (n + unit - 1) / unit * unit; };
    // A guard as long as the longer of the two neighbours (at least one unit): an index that
    // runs past one variable by up to its own length (or before the next by up to its length)
    // lands in no variable.
    const size_t previous = b.shared_vars.empty() ? 0 : b.shared_vars.back().bytes;
    const size_t guard = round_up(std::max({previous, bytes, size_t{1}}), kSharedGuardUnit);
    // The lowest place past the guard that keeps offset's position modulo `period`: the banks
    // stay as a GPU has them, and so does the alignment.
    auto place_after = [&](size_t lowest) {
        return lowest <= offset ? offset : offset + round_up(lowest - offset, period);
    };
    size_t storage = place_after(b.storage_used + guard);
    // Only a block of very many variables fills the buffer: the guards shrink, never the data.
    if (storage + bytes + kSharedGuardUnit > b.shared_capacity)
        storage = place_after(b.storage_used);
    if (storage + bytes > b.shared_capacity)
        fault(FaultKind::invalid_launch, cudaErrorLaunchOutOfResources,
              "the block declares more __shared__ variables than the emulator has room for "
              "(its buffer holds " +
                  std::to_string(b.shared_capacity) + " bytes with the alignment of each)",
              nullptr);
    b.storage_used = storage + bytes;
    return storage;
}

void* Engine::shared_variable(const SharedSite& site, size_t bytes, size_t align,
                              ElementInfo element, const SharedExtents& extents) {
    RuntimeScope scope(current_);
    Block* b = current_->block;
    // Every thread of the block asks for each variable: the same literals again, compared as
    // pointers before as strings (after the dynamic part, which is first).
    for (auto v = b->shared_vars.begin() + 1; v != b->shared_vars.end(); ++v)
        if (v->line == site.line && v->bytes == bytes &&
            (v->name_literal == site.name || v->name == site.name) &&
            (v->file == site.file || std::strcmp(v->file, site.file) == 0))
            return b->shared_data + v->storage;
    align = std::max<size_t>(align, 16);
    size_t offset = (b->shared_used + align - 1) / align * align;
    const size_t dynamic_part = (b->dynamic_bytes + 15) / 16 * 16;
    if (offset + bytes - dynamic_part > kStaticSharedPerBlock) {
        std::ostringstream msg;
        msg << "__shared__ variable '" << site.name << "' (" << bytes
            << " bytes) does not fit: the block's static __shared__ variables would take "
            << offset + bytes - dynamic_part << " bytes, more than the " << kStaticSharedPerBlock
            << " bytes CUDA allows them (more must be dynamic shared memory, with "
               "cudaFuncSetAttribute(cudaFuncAttributeMaxDynamicSharedMemorySize))";
        fault(FaultKind::invalid_launch, cudaErrorLaunchOutOfResources, msg.str(), nullptr);
    }
    if (offset + bytes > shared_limit_) {
        std::ostringstream msg;
        msg << "__shared__ variable '" << site.name << "' (" << bytes
            << " bytes) does not fit: the block would use " << offset + bytes
            << " bytes of shared memory, more than the " << shared_limit_
            << " bytes a block may use (" << b->dynamic_bytes << " of them dynamic)";
        fault(FaultKind::invalid_launch, cudaErrorLaunchOutOfResources, msg.str(), nullptr);
    }
    SharedAllocation v{site.name, site.file, site.line, offset, bytes, element, site.name};
    v.extents = extents;
    v.storage = place_shared(*b, offset, bytes, align);
    std::memset(b->shared_data + v.storage, kSharedPoison, bytes);
    b->shared_vars.push_back(v);
    b->shared_used = offset + bytes;
    if (checks_) {
        b->shadow.resize(b->shared_used / 4 + 1);
        b->shadow_words = b->shadow.data();
        b->last_span4 = b->last_span8 = 0; // the shadow moved: find the variable again
    }
    return b->shared_data + v.storage;
}

void* Engine::dynamic_shared_base(ElementInfo element) {
    Block* b = current_->block;
    // The first view of dynamic shared memory names its element type (for traces).
    SharedAllocation& dynamic = b->shared_vars.front();
    if (dynamic.element.code == 0 && element.code != 0) dynamic.element = element;
    return b->shared_data + dynamic.storage;
}

void Engine::carve(uintptr_t start, const char* name, const void* site) {
    Block* b = current_->block;
    const uintptr_t base = b->shared_base() + b->shared_vars.front().storage;
    if (start < base || start - base > b->dynamic_bytes) return; // not the dynamic memory
    const size_t offset = start - base;
    auto [it, fresh] = b->carve_sites.try_emplace(site, Block::CarveSite{offset, false});
    Block::CarveSite& seen = it->second;
    if (seen.differ || (!fresh && seen.start == offset)) return;
    if (!fresh) {
        // Threads of one block carved different starts here: not an array's start after all.
        seen.differ = true;
        std::erase_if(b->carves, [site](const Block::Carve& c) { return c.site == site; });
        return;
    }
    auto at = std::lower_bound(b->carves.begin(), b->carves.end(), offset,
                               [](const Block::Carve& c, size_t o) { return c.start < o; });
    b->carves.insert(at, {offset, name, site});
}

void Engine::check_carved(uintptr_t pointer, long long index, size_t element_bytes,
                          const char* name, const void* site) {
    Block* b = current_->block;
    if (b->carves.empty()) return;
    const uintptr_t base = b->shared_base() + b->shared_vars.front().storage;
    if (pointer < base || pointer - base > b->dynamic_bytes) return;
    const size_t offset = pointer - base;
    // The carved array the pointer lies in: the last start at or before it, up to the next one.
    auto next = std::upper_bound(b->carves.begin(), b->carves.end(), offset,
                                 [](size_t o, const Block::Carve& c) { return o < c.start; });
    if (next == b->carves.begin()) return; // before every carved array: nothing to compare with
    const Block::Carve& array = *(next - 1);
    const size_t end = next == b->carves.end() ? b->dynamic_bytes : next->start;
    const long long first =
        static_cast<long long>(offset) + index * static_cast<long long>(element_bytes);
    const long long last = first + static_cast<long long>(element_bytes);
    if (first >= static_cast<long long>(array.start) && last <= static_cast<long long>(end)) return;
    RuntimeScope scope(current_);
    std::ostringstream msg;
    msg << "out-of-bounds shared memory access through '" << name << "' at index " << index << ": ";
    if (first < static_cast<long long>(array.start))
        msg << static_cast<long long>(array.start) - first << " bytes before the start of '"
            << array.name << "'";
    else
        msg << last - static_cast<long long>(end) << " bytes past the end of '" << array.name
            << "'";
    msg << ", which is carved out of the dynamic shared memory at bytes " << array.start << " to "
        << end << " (";
    if (next == b->carves.end())
        msg << "the end of the " << b->dynamic_bytes << " bytes given at launch)";
    else
        msg << "where '" << next->name << "' starts)";
    if (first >= 0 && last <= static_cast<long long>(b->dynamic_bytes)) {
        // Inside the buffer: on a GPU it would silently hit the array carved there.
        const char* hit = nullptr;
        for (const Block::Carve& c : b->carves)
            if (static_cast<long long>(c.start) <= first) hit = c.name;
        if (hit != nullptr && hit != array.name) msg << "; on a GPU it would hit '" << hit << "'";
    }
    AccessRecord access{current_, 0, AccessRole::execute, true, 0, element_bytes, site, true};
    if (first >= 0)
        access.address = b->shared_vars.front().offset + static_cast<size_t>(first);
    else
        access.bytes = 0; // before the dynamic shared memory: no place to name
    fault(FaultKind::illegal_address, cudaErrorIllegalAddress, msg.str(), site, nullptr, {access});
}

void Engine::on_stack_overflow(Thread* t, const void* pc) {
    // On the alternate signal stack: no allocation here, the scheduler writes the report.
    overflow_thread_ = t;
    overflow_pc_ = pc;
    transfer(t, nullptr);
    std::abort(); // an abandoned thread is never resumed
}

void Engine::fault(FaultKind kind, cudaError_t error, const std::string& what, const void* site,
                   const Thread* culprit, std::vector<AccessRecord> accesses) {
    RuntimeScope scope(current_);
    if (!culprit) culprit = current_;
    if (!aborted_) {
        aborted_ = true;
        fault_.kind = kind;
        fault_.error = error;
        fault_.message = format_fault(kind, what, culprit ? describe_thread(*culprit) : "", site,
                                      request_.kernel);
        // The culprit alone when the caller named nothing more (assert, trap, stack overflow).
        if (accesses.empty() && culprit)
            accesses.push_back(
                AccessRecord{culprit, 0, AccessRole::execute, false, 0, 0, site, false});
        Finding finding = make_finding(kind, fault_.message, site, accesses);
        finding.ends_launch = true;
        fault_.site = finding.site;
        findings_.push_back(std::move(finding));
    }
    if (current_) {
        transfer(current_, nullptr);
        std::abort(); // an abandoned thread is never resumed
    }
    throw AbortLaunch{};
}

void Engine::abandon_all() {
    // Threads that did not finish (after a fault) are simply never resumed: no kernel code runs
    // again, and their stacks go back to the pool with the finished ones'.
    for (auto& block : resident_) release_stacks(block.get());
    resident_.clear();
    warp_ring_.clear();
}

void Engine::release_stacks(Block* block) {
    for (Thread& t : block->threads)
        if (t.stack_size != 0) {
            boost::context::stack_context stack;
            stack.size = t.stack_size;
            stack.sp = reinterpret_cast<void*>(t.stack_lo + t.stack_size);
            stack_pool().release(stack);
            t.stack_lo = 0;
            t.stack_size = 0;
        }
}

} // namespace simt::detail
