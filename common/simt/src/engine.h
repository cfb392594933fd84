// The engine that runs one grid: emulated threads as fibers on one OS thread, grouped in warps
// and blocks, under a deterministic scheduler. Internal to the runtime.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <boost/context/detail/fcontext.hpp>
#include <boost/context/stack_context.hpp>

#include "simt/device.h"
#include "simt/launch.h"
#include "simt/shared.h"
#include "memory_registry.h"
#include "simt/options.h"
#include "simt/report.h"

namespace simt::detail {

struct Block;
struct Region;
class TraceRecorder;
struct Warp;

enum class ThreadState : uint8_t { runnable, at_barrier, at_collective, sleeping, exited };

enum class CollectiveKind : uint8_t { syncwarp, shuffle, ballot, any, all, activemask };
const char* to_string(CollectiveKind kind);

enum class AccessKind : uint8_t { read, write, atomic };

struct Thread {
    boost::context::detail::fcontext_t ctx = nullptr; // where it resumes (stale while it runs)
    boost::context::stack_context stack{};
    uint3 idx{};
    unsigned linear = 0; // index in the block
    unsigned lane = 0;
    Warp* warp = nullptr;
    Block* block = nullptr;
    ThreadState state = ThreadState::runnable;
    bool finished = false;
    // Set while the thread runs emulator code: inline library functions (std::string...) may be
    // shared with instrumented kernel objects by the linker, and their accesses are not the
    // kernel's.
    bool in_runtime = false;
    // Trace recording: the access this lane announced last, until its value is captured.
    struct TracePending {
        int64_t instruction = -1;
        uint32_t lane_index = 0;
        uintptr_t address = 0;
        uint32_t bytes = 0;
        AccessKind kind = AccessKind::read;
        bool settled = true;
        uint32_t seq = 0;
        uintptr_t tile_store = 0; // a store to a tile status descriptor, until it has happened
        uint32_t tile_bytes = 0;
    } trace;
    const void* wait_site = nullptr; // call site of the barrier or intrinsic it waits at
    const void* last_poll_site = nullptr;
    // A pending warp collective.
    CollectiveKind coll_kind = CollectiveKind::syncwarp;
    unsigned coll_mask = 0;
    int coll_width = 32;
    int coll_arg = 0;
    ShuffleKind coll_shuffle = ShuffleKind::index;
    uint64_t coll_value = 0;
    uint64_t coll_result = 0;
    uint64_t activemask_round = 0;
    uintptr_t stack_lo() const { return reinterpret_cast<uintptr_t>(stack.sp) - stack.size; }
};

struct Warp {
    Block* block = nullptr;
    unsigned index = 0;
    unsigned lane_count = 0;
    Thread* lanes[32] = {};
    unsigned runnable = 0;  // lanes in state runnable
    unsigned exited_mask = 0;
    unsigned cursor = 0;    // lane to resume first
    uint64_t round = 0;     // completed rotations over the lanes (lockstep)
    uint64_t slice_steps = 0;
    uint64_t slice_limit = 0; // scheduling points in one turn of the warp
    uint32_t sync_epoch = 1;  // counts completed warp-wide collectives (__syncwarp, shuffles)
};

struct SharedAllocation {
    std::string name;
    const char* file;
    int line;
    size_t offset;
    size_t bytes;
    ElementInfo element{0, 1, "bytes"};
};

// What the race and initialization checks remember about one 4-byte word of shared memory.
struct ShadowWord {
    uint32_t writer = 0; // linear thread index + 1 of the last write; 0: never written
    uint32_t write_epoch = 0;
    uint32_t write_warp_sync = 0;
    uint32_t reader = 0; // last reader + 1 in read_epoch; 0: none
    uint32_t read_epoch = 0;
    uint32_t read_warp_sync = 0;
    const void* write_site = nullptr;
    const void* read_site = nullptr;
    bool write_atomic = false;
};

struct Block {
    uint3 idx{};
    unsigned linear = 0;
    std::vector<Thread> threads;
    std::vector<Warp> warps;
    unsigned live = 0;        // threads not exited
    unsigned at_barrier = 0;  // threads waiting at __syncthreads
    const void* barrier_site = nullptr;
    int barrier_reduce = 0;   // __syncthreads_count/and/or accumulator
    int barrier_result = 0;
    // Shared memory: dynamic part first, then static variables in order of first use.
    std::unique_ptr<unsigned char[]> shared;
    size_t shared_capacity = 0;
    size_t shared_used = 0;
    size_t dynamic_bytes = 0;
    std::vector<SharedAllocation> shared_vars;
    std::vector<ShadowWord> shadow; // one per 4-byte word of shared memory (when checks are on)
    size_t last_var = 0;            // index in shared_vars of the last variable accessed
    uint32_t barrier_epoch = 1;     // counts completed __syncthreads()
    uintptr_t shared_base() const { return reinterpret_cast<uintptr_t>(shared.get()); }
};

struct AbortLaunch {};

class Engine {
  public:
    Engine(const LaunchRequest& request, const Options& options, size_t shared_limit);
    ~Engine();
    // Runs the grid to completion or to the first fault. Returns the fault (kind none if fine).
    FaultReport run();

    // Called from emulated threads.
    Thread* current() const { return current_; }
    void on_memory_access(uintptr_t address, size_t bytes, AccessKind kind, bool is_volatile,
                          const void* site);
    void syncthreads(const void* site, int reduce_kind, int predicate, int* result);
    uint64_t collective(CollectiveKind kind, unsigned mask, uint64_t value, int arg,
                        ShuffleKind shuffle, int width, const void* site);
    unsigned activemask(const void* site);
    void scheduling_point();            // fences, atomics: let others run per the mode
    void poll_point(const void* site);  // a read that may be spinning on another thread
    void note_progress() { polls_since_progress_ = 0; }
    void sleep_point(const void* site); // __nanosleep: give other warps a turn
    void* shared_variable(const SharedSite& site, size_t bytes, size_t align, ElementInfo element);
    void* dynamic_shared_base(ElementInfo element);
    // Ends the launch with a fault. From a thread it never returns (the fiber is abandoned);
    // from the scheduler it throws AbortLaunch, which run() catches.
    [[noreturn]] void fault(FaultKind kind, cudaError_t error, const std::string& what,
                            const void* site, const Thread* culprit = nullptr);
    const LaunchRequest& request() const { return request_; }
    void set_recorder(TraceRecorder* recorder) { recorder_ = recorder; }
    TraceRecorder* recorder() const { return recorder_; }
    std::string describe_thread(const Thread& t) const;

  private:
    friend struct EngineAccess;
    void schedule();
    void trace_before(Thread* me, uintptr_t address, size_t bytes, AccessKind kind,
                      const void* site);
    void trace_after(Thread* me);
    void dispatch_block(unsigned linear);
    void retire_block(Block* block);
    Warp* pick_warp();
    void run_warp(Warp* warp);
    // Switches from the running thread (or the scheduler, nullptr) to `to` (or the scheduler).
    void transfer(Thread* from, Thread* to);
    static void thread_entry(boost::context::detail::transfer_t from);
    void thread_main(Thread* self);
    [[noreturn]] void finish_thread(Thread* self);
    Thread* next_lane_after(Thread* me, bool count_round);
    Thread* random_lane(Warp* warp);
    void block_and_switch(Thread* me);
    void switch_for_mode(Thread* me);
    void make_runnable(Thread* t);
    void make_waiting(Thread* t, ThreadState state, const void* site);
    void try_complete_collective(Thread* arriving);
    void report_deadlock(const std::string& headline);
    void abandon_all();
    void release_stacks(Block* block);
    bool same_barrier(const void* a, const void* b);
    [[noreturn, gnu::noinline, gnu::cold]] void shared_out_of_bounds(uintptr_t address,
                                                                    size_t bytes, AccessKind kind,
                                                                    const void* site);
    [[gnu::noinline, gnu::cold]] void check_unregistered(const Region* r,
                                                         uintptr_t address, size_t bytes,
                                                         AccessKind kind, const void* site);
    void check_shared_access(Thread* me, size_t offset, size_t bytes, AccessKind kind,
                             const void* site);
    void report_check(FaultKind kind, const std::string& key, const std::string& what,
                      const void* site, const Thread* culprit);
    const SharedAllocation* shared_variable_at(const Block* b, size_t offset) const;
    std::string describe_shared(const Block* b, size_t offset) const;
    [[noreturn, gnu::noinline, gnu::cold]] void misaligned(uintptr_t address, size_t bytes,
                                                          const void* site);
    void check_barrier_with_exits(Block* block, Thread* exiting);

    LaunchRequest request_;
    Options options_;
    size_t shared_limit_;
    unsigned threads_per_block_ = 0;
    unsigned warps_per_block_ = 0;
    unsigned window_ = 1;
    std::vector<unsigned> dispatch_order_;
    size_t next_dispatch_ = 0;
    std::vector<std::unique_ptr<Block>> resident_;
    std::vector<Warp*> warp_ring_;
    size_t ring_cursor_ = 0;
    Block* last_block_ = nullptr;
    unsigned same_block_turns_ = 0;
    static constexpr unsigned kSameBlockTurns = 256;
    Thread* current_ = nullptr;
    Thread* switching_from_ = nullptr;
    boost::context::detail::fcontext_t scheduler_ctx_ = nullptr;
    std::mt19937_64 rng_;
    uint64_t fast_rng_ = 0x9E3779B97F4A7C15ull;
    static constexpr uint64_t kItsSwitchMask = 7;
    // xorshift64*: cheap enough for a draw on every memory access.
    uint64_t next_random() {
        fast_rng_ ^= fast_rng_ >> 12;
        fast_rng_ ^= fast_rng_ << 25;
        fast_rng_ ^= fast_rng_ >> 27;
        return (fast_rng_ * 0x2545F4914F6CDD1Dull) >> 32;
    }
    uint64_t polls_since_progress_ = 0;
    uint64_t slice_limit_ = 64;
    std::map<std::pair<const void*, const void*>, bool> barrier_aliases_;
    std::pair<const void*, const void*> last_alias_{nullptr, nullptr};
    bool last_alias_same_ = false;
    TraceRecorder* recorder_ = nullptr;
    FaultReport fault_;
    // Checks that do not stop the launch (races, uninitialized reads): reported once per site
    // pair, then the launch ends with the first one's error.
    struct CheckFinding {
        FaultKind kind;
        std::string message;
    };
    std::vector<CheckFinding> findings_;
    std::vector<std::string> finding_keys_;
    static constexpr size_t kMaxFindings = 16;
    bool aborted_ = false;
};

// Marks the running emulated thread as inside the emulator for the scope's duration.
class RuntimeScope {
  public:
    explicit RuntimeScope(Thread* t) : t_(t && !t->in_runtime ? t : nullptr) {
        if (t_) t_->in_runtime = true;
    }
    ~RuntimeScope() {
        if (t_) t_->in_runtime = false;
    }
    RuntimeScope(const RuntimeScope&) = delete;
    RuntimeScope& operator=(const RuntimeScope&) = delete;

  private:
    Thread* t_;
};

// The engine of the launch that is running, or nullptr (host code).
extern Engine* g_active_engine;
inline Engine* active_engine() { return g_active_engine; }
[[noreturn]] void outside_kernel(const char* what);
// The running launch's engine, for device builtins; host code calling them is an error.
inline Engine& engine_for(const char* what) {
    Engine* e = g_active_engine;
    if (!e || !e->current()) [[unlikely]]
        outside_kernel(what);
    return *e;
}

// The hot path: every kernel memory access comes through here.
inline Thread* Engine::next_lane_after(Thread* me, bool count_round) {
    Warp* w = me->warp;
    const unsigned n = w->lane_count;
    unsigned i = me->lane;
    for (unsigned k = 0; k < n; ++k) {
        if (++i == n) {
            i = 0;
            if (count_round) w->round++; // wrapped past the last lane: one rotation done
        }
        if (w->lanes[i]->state == ThreadState::runnable) return w->lanes[i];
    }
    return nullptr;
}

inline void Engine::switch_for_mode(Thread* me) {
    Warp* w = me->warp;
    if (++w->slice_steps >= w->slice_limit) [[unlikely]] {
        // End of this warp's turn: let other warps (and blocks) run, e.g. the one a spin waits on.
        w->slice_steps = 0;
        last_block_ = nullptr; // and no preference for this block: it may be spinning
        w->cursor = (me->lane + 1) % w->lane_count;
        transfer(me, nullptr);
        return;
    }
    Thread* next = nullptr;
    if (options_.mode == Mode::lockstep) {
        next = next_lane_after(me, true);
    } else if ((next_random() & kItsSwitchMask) == 0) {
        // Independent thread scheduling: at a random eighth of the accesses, another lane of
        // the warp takes over. Barriers and warp intrinsics switch in every mode.
        next = random_lane(w);
    }
    if (next && next != me) transfer(me, next);
}

inline void Engine::on_memory_access(uintptr_t address, size_t bytes, AccessKind kind,
                                     bool is_volatile, const void* site) {
    Thread* me = current_;
    Block* b = me->block;
    const uintptr_t shared_lo = b->shared_base();
    if (recorder_) [[unlikely]] {
        if (address - me->stack_lo() < me->stack.size) return;
        trace_before(me, address, bytes, kind, site);
    }
    if (address - shared_lo < b->shared_capacity) {
        if (address + bytes > shared_lo + b->shared_used) [[unlikely]]
            shared_out_of_bounds(address, bytes, kind, site);
        if (options_.checks) check_shared_access(me, address - shared_lo, bytes, kind, site);
    } else if (address - me->stack_lo() < me->stack.size) {
        return; // the thread's own locals
    } else {
        const Region* r = memory_registry().find_range(address, bytes);
        if (!r || (kind != AccessKind::read && !r->writable_from_device)) [[unlikely]]
            check_unregistered(r, address, bytes, kind, site);
    }
    if ((address & (bytes - 1)) != 0 && (bytes & (bytes - 1)) == 0 && bytes <= 16) [[unlikely]]
        misaligned(address, bytes, site);
    if (kind == AccessKind::write)
        note_progress();
    else if (is_volatile && kind == AccessKind::read)
        poll_point(site); // atomics decide for themselves: only a change is progress
    switch_for_mode(me);
    if (recorder_) [[unlikely]]
        trace_after(me);
}

} // namespace simt::detail
