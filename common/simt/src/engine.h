// The engine that runs one grid: emulated threads as fibers on one OS thread, grouped in warps
// and blocks, under a deterministic scheduler. Internal to the runtime.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <boost/context/stack_context.hpp>

#include "simt/device.h"
#include "simt/launch.h"
#include "simt/shared.h"
#include "checks/checker.h"
#include "checks/global_shadow.h"
#include "checks/shared_memory_checker.h"
#include "code_order.h"
#include "data_flow.h"
#include "fiber.h"
#include "memory_registry.h"
#include "simt/options.h"
#include "simt/report.h"

namespace simt::detail {

struct Block;
struct BlockBulkStores;
struct BlockMbarriers;
struct BlockSync;
class GlobalMemoryChecker;
struct Region;
struct ThreadSync;
class LaunchRecorder;
struct Warp;

enum class ThreadState : uint8_t { runnable, at_barrier, at_collective, sleeping, exited };

enum class CollectiveKind : uint8_t { syncwarp, shuffle, ballot, any, all, activemask };
const char* to_string(CollectiveKind kind);

/// The index of the `linear`-th element of a grid or block of `shape`, x fastest.
inline uint3 unflatten(unsigned linear, dim3 shape) {
    return uint3{linear % shape.x, (linear / shape.x) % shape.y, linear / (shape.x * shape.y)};
}

enum class AccessKind : uint8_t { read, write, atomic };

// One cache line of hot fields (every access and switch reads them), then a second one (threadIdx
// and the global-memory checks' fields), the rest after them: a thread's step between barriers
// touches two lines of its Thread.
struct alignas(64) Thread {
    FiberContext ctx = nullptr; // where it resumes (stale while it runs)
    Block* block = nullptr;
    Warp* warp = nullptr;
    uintptr_t stack_lo = 0;          // lowest address of its stack
    const void* wait_site = nullptr; // call site of the barrier or intrinsic it waits at
    const void* last_poll_site = nullptr;
    uint32_t stack_size = 0; // stack_lo + stack_size is the top
    uint32_t linear = 0;     // index in the block
    uint16_t lane = 0;
    // Set while the thread runs emulator code: inline library functions (std::string...) may be
    // shared with instrumented kernel objects by the linker, and their accesses are not the
    // kernel's.
    bool in_runtime = false;
    uint3 idx{};
    // The second line, read with the first by every checked access of device memory: the
    // global-memory checker's state of the thread (when needed), and its last plain global load
    // and site (a spin repeats them).
    ThreadSync* sync = nullptr;
    uintptr_t last_plain_read = 0;
    uint32_t last_plain_site = 0;
    // Its number across the grid (block * threads per block + thread + 1), as the global checks
    // record it.
    uint32_t grid_id = 0;
    bool exchanging = false; // in an atomicExch (Engine::note_exchange)
    // It has loaded data that came from a watched input (data_flow.h): what it stores is too.
    bool derived = false;
    bool comparing = false; // in an atomicCAS (Engine::note_compare_and_swap)
    // The mbarrier ordering (mbarrier_runtime.h): what the thread knows of the others' clocks
    // (Block::clock at their accesses; null until its block inits an mbarrier): thread u's
    // accesses with clock <= known[u] happen before the thread's next ones.
    uint32_t* mbarrier_known = nullptr;
    // The call sites of the non-inlined calls it is in, outermost first (__tsan_func_entry),
    // for code positions inside called functions; deeper calls are counted, not kept.
    static constexpr unsigned kCallSites = kMaxCallPath;
    uint32_t call_depth = 0;
    // What follows is written before it is read (recycle()).
    const void* call_sites[kCallSites] = {}; // below call_depth
    // A pending warp collective.
    CollectiveKind coll_kind = CollectiveKind::syncwarp;
    unsigned coll_mask = 0;
    int coll_width = 32;
    int coll_arg = 0;
    ShuffleKind coll_shuffle = ShuffleKind::index;
    uint64_t coll_value = 0;
    uint64_t coll_result = 0;
    int coll_value_code = 0; // a shuffle's value type, for traces (ElementInfo::code)
    // Trace recording: the access this lane announced last, until its value is captured.
    struct TracePending {
        int64_t instruction = -1;
        uint32_t lane_index = 0;
        uintptr_t address = 0;
        uint32_t bytes = 0;
        AccessKind kind = AccessKind::read;
        bool settled = true;
        uintptr_t tile_store = 0; // a store to a tile status descriptor, until it has happened
        uint32_t tile_bytes = 0;
        uintptr_t tile_load = 0; // a load of a tile status descriptor, until it has happened
        // Tagged pairs: the first word of a descriptor read, until the second word's read (its
        // descriptor's address + 1; 0: none).
        uint64_t tile_first_word = 0;
        uintptr_t tile_first_of = 0;
    } trace;

    // A retired block's Thread made ready for a new thread (Engine::dispatch_block) without
    // rewriting its last lines, as assigning a new Thread would: at every block start that is
    // five lines per thread, most of them out of the caches since the last one. Resets what a
    // thread may read before writing (the first two lines); a warp intrinsic writes the
    // collective's fields before any lane reads them, a call its call site before anyone reads
    // below call_depth, and the trace's pending access matters only while recording.
    void recycle(bool recording) {
        ctx = nullptr;
        block = nullptr;
        warp = nullptr;
        stack_lo = 0;
        wait_site = nullptr;
        last_poll_site = nullptr;
        stack_size = 0;
        linear = 0;
        lane = 0;
        in_runtime = false;
        idx = {};
        sync = nullptr;
        last_plain_read = 0;
        last_plain_site = 0;
        grid_id = 0;
        exchanging = false;
        derived = false;
        comparing = false;
        mbarrier_known = nullptr;
        call_depth = 0;
        if (recording) trace = {};
    }
};
static_assert(offsetof(Thread, idx) <= 64, "the hot fields of Thread fit in one cache line");
// The calls `t` is in, as its code positions take them (the deepest ones counted, not kept).
inline CallPath call_path(const Thread& t) {
    return CallPath{t.call_sites, std::min(t.call_depth, Thread::kCallSites)};
}
static_assert(offsetof(Thread, call_sites) <= 128, "recycle() resets the first two lines");
static_assert(offsetof(Thread, grid_id) < 128, "the checks' fields in the second line");

// A warp's lanes by state, as bit masks: the scheduler picks lanes with bit operations and a
// barrier releases a whole warp at once, without touching each thread.
struct Warp {
    Block* block = nullptr;
    unsigned index = 0;
    unsigned lane_count = 0;
    uint32_t runnable_mask = 0;   // lanes that can run
    uint32_t barrier_mask = 0;    // lanes waiting at __syncthreads()
    uint32_t collective_mask = 0; // lanes waiting at a warp intrinsic
    uint32_t activemask_mask = 0; // of those, the lanes waiting at __activemask()
    uint32_t exited_mask = 0;
    unsigned cursor = 0;     // lane to resume first
    uint32_t sync_epoch = 1; // counts completed warp-wide collectives (__syncwarp, shuffles)
    // Lockstep: the position whose lanes are taking their step now (code_order.h), and the
    // position each lane waits at (null: none yet, the earliest), here rather than in each
    // Thread so that the search for the next lane reads the warp's lines only.
    const CodePosition* step_position = nullptr;
    uint64_t slice_steps = 0;
    uint64_t slice_limit = 0; // scheduling points in one turn of the warp
    uint32_t spin_polls = 0;  // polls in this turn that repeat the lane's last one (a spin)
    Thread* lanes[32] = {};
    const CodePosition* positions[32] = {};
    // Lockstep: the position a lane of this warp looked up last (Engine::lockstep_position).
    PositionMemo memo;
};

// A __shared__ variable of a block (or the launch's dynamic shared memory, line 0). Two offsets:
// `offset` is where a GPU would put it (the kernel's view: banks, traces, the shared-memory
// limit), `storage` where it lies in the block's buffer, after a guard zone that no variable
// uses, so that an access that runs past one variable hits no other. storage - offset is a
// multiple of 128 bytes, so every address keeps its bank.
struct SharedAllocation {
    std::string name;
    const char* file;
    int line;
    size_t offset;
    size_t bytes;
    ElementInfo element{0, 1, "bytes"};
    const char* name_literal = nullptr; // the declaration's string literal (the common match)
    size_t storage = 0;
    SharedExtents extents{};
};

struct Block {
    uint3 idx{};
    unsigned linear = 0;
    unsigned live = 0;       // threads not exited
    unsigned at_barrier = 0; // threads waiting at __syncthreads
    const void* barrier_site = nullptr;
    int barrier_reduce = 0; // __syncthreads_count/and/or accumulator
    int barrier_result = 0;
    uint32_t barrier_epoch = 1; // counts completed __syncthreads()
    // The clock that the race checks (shared and global) record with every access: it advances
    // at each completed __syncthreads() and device-scope fence (the global-memory checker), and
    // at each mbarrier release (an arrive, a bulk copy's issue, a warp collective of a block
    // with mbarriers: mbarrier_runtime.h). Read as one thread's clock it is monotone and moves
    // past every release of that thread, so one counter serves as every thread's clock.
    uint32_t clock = 1;
    BlockSync* sync = nullptr; // the global-memory checker's state of the block
    // Shared memory: dynamic part first, then static variables in order of first use, each
    // after a guard zone (see SharedAllocation). Offsets into the buffer (storage) except
    // shared_used, which counts what a GPU would use.
    unsigned char* shared_data = nullptr; // shared.get(), aligned up to 128 bytes
    size_t shared_capacity = 0;
    size_t shared_used = 0;
    size_t storage_used = 0;
    size_t dynamic_bytes = 0;
    // The shared variable the block's last access hit (none until the first): where it starts
    // in the buffer, its size rounded down to a multiple of 4 and of 8 bytes, its index in
    // shared_vars and its first shadow word. An aligned access of at most 4 (8) bytes that starts
    // less than last_span4 (last_span8) bytes into it lies wholly inside: one comparison decides.
    size_t last_lo = 0;
    size_t last_span4 = 0;
    size_t last_span8 = 0;
    ShadowWord* last_shadow = nullptr;
    size_t last_var = 0;
    ShadowWord* shadow_words = nullptr; // == shadow.data(), one per word of shared_used
    std::vector<SharedAllocation> shared_vars;
    // Arrays carved out of the dynamic part (Engine::carve): their starts, in bytes from its
    // beginning, sorted, and the statement that carved each. A statement whose threads carve
    // different starts (a pointer each thread aims at its own element) makes no bound.
    struct Carve {
        size_t start;
        const char* name;
        const void* site;
    };
    std::vector<Carve> carves;
    struct CarveSite {
        size_t start;
        bool differ;
    };
    std::map<const void*, CarveSite> carve_sites;
    std::vector<ShadowWord> shadow; // one per 4-byte word of shared memory (when checks are on)
    // Which words of the buffer hold data derived from a watched input (data_flow.h), while
    // the launch follows the data; the barrier vote's inputs were derived.
    std::vector<uint64_t> derived_words;
    bool barrier_derived = false;
    bool barrier_result_derived = false;
    std::unique_ptr<unsigned char[]> shared;
    // Its threads' stacks and fibers, made when the scheduler first runs one of its warps
    // (Engine::make_fibers), not when it becomes resident.
    bool has_fibers = false;
    std::vector<Thread> threads;
    std::vector<Warp> warps;
    // Its mbarriers and bulk copies in flight (mbarrier_runtime.h), from its first mbarrier_init.
    std::shared_ptr<BlockMbarriers> mbarriers;
    // Its bulk stores and proxy fences (bulk_store_runtime.h), from the first of them.
    std::shared_ptr<BlockBulkStores> bulk_stores;
    uintptr_t shared_base() const { return reinterpret_cast<uintptr_t>(shared_data); }
};

struct AbortLaunch {};

class Engine final : public FindingSink {
  public:
    Engine(const LaunchRequest& request, const Options& options, size_t shared_limit);
    ~Engine();
    // Runs the grid to completion or to the first fault. Returns the fault (kind none if fine).
    FaultReport run();

    // Called from emulated threads.
    Thread* current() const { return current_; }
    [[gnu::always_inline]] void on_memory_access(uintptr_t address, size_t bytes, AccessKind kind,
                                                 bool is_volatile, const void* site);
    void syncthreads(const void* site, int reduce_kind, int predicate, int* result);
    [[gnu::noinline]] void syncthreads_general(const void* site, int reduce_kind, int predicate,
                                               int* result);
    [[gnu::always_inline]] void arrive_at_barrier(Thread* me, Block* b, const void* site,
                                                  int reduce_kind);
    uint64_t collective(CollectiveKind kind, unsigned mask, uint64_t value, int arg,
                        ShuffleKind shuffle, int width, const void* site);
    unsigned activemask(const void* site);
    // cudaGridDependencySynchronize(): returns at once (launches run one after the other); the
    // checks learn that the thread's later accesses are ordered after the launch before.
    void grid_dependency_synchronize(const void* site);
    // The running thread's atomic announced between note_compare_and_swap(true) and (false) is
    // a compare-and-swap (the checks' CAS-loop rule).
    void note_compare_and_swap(bool on) {
        if (current_) current_->comparing = on;
    }
    // The running thread's atomic announced between note_exchange(true) and (false) is an
    // atomicExch (it stores without using the old value).
    void note_exchange(bool on) {
        if (current_) current_->exchanging = on;
    }
    // Fences: let others run (a fence may sit in a spin-wait); the checks see their scope.
    void fence_point(const void* site, MemoryScope scope);
    // The scope of the atomic about to be announced (device unless a *_block atomic says so).
    void set_atomic_scope(MemoryScope scope) {
        atomic_strength_ =
            scope == MemoryScope::block ? Strength::atomic_block : Strength::atomic_device;
    }
    void poll_point(const void* site); // a read that may be spinning on another thread
    void note_progress() { polls_since_progress_ = 0; }
    void sleep_point(const void* site); // __nanosleep: give other warps a turn
    // "full[2] of 's' (...)": the shared variable at `address` of the running thread's block.
    std::string describe_shared_address(uintptr_t address) const;
    // A loop condition (the rewriter's loop tick) whose body ends at end_line, order end_order: a
    // scheduling point in lockstep, placed after the body (code_order.h).
    void loop_point(const void* site, int end_line, int end_order);
    void* shared_variable(const SharedSite& site, size_t bytes, size_t align, ElementInfo element,
                          const SharedExtents& extents);
    void* dynamic_shared_base(ElementInfo element);
    // Arrays carved out of the dynamic shared memory (simt::carve in simt/shared.h): a thread
    // carved one starting at `start` at `site`; an index through a carved pointer.
    void carve(uintptr_t start, const char* name, const void* site);
    void check_carved(uintptr_t pointer, long long index, size_t element_bytes, const char* name,
                      const void* site);
    // Where in the block's buffer a new shared variable at `offset` (as a GPU lays it out) lies:
    // after a guard zone, at the same offset modulo 128 bytes.
    size_t place_shared(Block& b, size_t offset, size_t bytes, size_t align);
    // Ends the launch with a fault. From a thread it never returns (the fiber is abandoned);
    // from the scheduler it throws AbortLaunch, which run() catches.
    // `accesses`: what the threads involved did or wait at (the finding's structure).
    [[noreturn]] void fault(FaultKind kind, cudaError_t error, const std::string& what,
                            const void* site, const Thread* culprit = nullptr,
                            std::vector<AccessRecord> accesses = {});
    // From the guard-page signal handler (stack_guard.cpp), when the running thread `t` touched
    // its stack's guard at `pc`: leaves the thread for good; the scheduler reports the fault.
    [[noreturn]] void on_stack_overflow(Thread* t, const void* pc);
    const LaunchRequest& request() const { return request_; }
    // The shared-memory race checks, with the checks on (else null).
    SharedMemoryChecker* shared_checks() { return checks_ ? &shared_ : nullptr; }
    void set_recorder(LaunchRecorder* recorder) { recorder_ = recorder; }
    LaunchRecorder* recorder() const { return recorder_; }
    static ThreadState state_of(const Thread& t);

    // FindingSink: how the checks report.
    void report(FaultKind kind, const std::string& key, const std::function<std::string()>& message,
                const void* site, const Thread* culprit,
                std::vector<AccessRecord> accesses) override;
    std::string describe_grid_thread(uint32_t grid_thread) const override;
    std::string describe_thread(const Thread& t) const override;
    [[noreturn]] void fatal(FaultKind kind, cudaError_t error, const std::string& what,
                            const void* site, const AccessRecord* access) override {
        fault(kind, error, what, site, nullptr,
              access ? std::vector<AccessRecord>{*access} : std::vector<AccessRecord>{});
    }
    void spin_poll(Thread* t, const void* site) override { count_poll(t, site); }

  private:
    friend struct EngineAccess;
    void schedule();
    void trace_before(Thread* me, uintptr_t address, size_t bytes, AccessKind kind,
                      const void* site);
    void trace_after(Thread* me);
    void dispatch_block(unsigned linear);
    void retire_block(Block* block);
    Warp* pick_warp();
    void reverse_ring(); // serpentine order: each barrier phase runs the warps the other way
    [[noreturn, gnu::noinline, gnu::cold]] void report_stack_overflow();
    void run_warp(Warp* warp);
    // Takes the block's stacks from the pool, which hands out first the ones given back last
    // (still warm in the caches and the TLB), and makes its fibers.
    [[gnu::noinline]] void make_fibers(Block* b);
    // Switches from the running thread (or the scheduler, nullptr) to `to` (or the scheduler).
    void transfer(Thread* from, Thread* to);
    void transfer_to(Thread* from, Thread* to, FiberContext target); // target: to's context
    static void thread_entry(FiberTransfer from);
    void thread_main(Thread* self);
    [[noreturn]] void finish_thread(Thread* self);
    Thread* next_lane_after(Thread* me);
    Thread* lockstep_next(Warp* w, int after_lane);
    // Lockstep: the code position where `me` stops, at code address `pc` (an access, or a loop's
    // condition: `end` is its loop_end_key(), else 0), inside its calls. Inline when the warp's
    // memo has it, else looked up (code_order.h).
    [[gnu::always_inline]] const CodePosition* lockstep_position(Thread* me, const void* pc,
                                                                 uint64_t end);
    [[gnu::noinline]] const CodePosition* lockstep_position_again(Thread* me, const void* pc,
                                                                  uint64_t end);
    // Lockstep's likely next lane, the one after `me` (wrapping around), and its context, read
    // before lockstep_next() confirms it: when the two agree, the switch uses this context, and
    // the CPU, which predicts that they do, starts the switch without waiting for the search and
    // the loads it depends on. The lane that runs is lockstep_next()'s either way. (The context
    // is stale if the lane is `me`, which runs, or has exited; it is then not used.)
    [[gnu::always_inline]] Thread* lane_after(const Thread* me, FiberContext& ctx) const {
        const Warp* w = me->warp;
        Thread* t = w->lanes[me->lane + 1u < w->lane_count ? me->lane + 1u : 0u];
        ctx = t->ctx;
        return t;
    }
    // Lockstep: fetches the top of lane `lane`'s stack (if the warp has it), which will likely
    // run after the next one: the lines its resume pops, last touched a warp's round ago.
    [[gnu::always_inline]] static void prefetch_lockstep_lane(const Warp* w, unsigned lane) {
        if (lane >= w->lane_count) return;
        const char* top = static_cast<const char*>(w->lanes[lane]->ctx);
#pragma GCC unroll 4
        for (int line = 0; line < 4; ++line) __builtin_prefetch(top + 64 * line);
    }
    Thread* lane_from(Warp* warp, uint32_t scaled_start);
    void block_and_switch(Thread* me);
    // Fetches the top of the stack of the lane that will likely run after `t` (the next runnable
    // one in lane order, as when a warp's lanes arrive at a barrier one by one): it was last
    // touched a barrier step ago, and resuming it would otherwise wait on cache and TLB misses.
    // Only a hint: no effect on what runs.
    [[gnu::always_inline]] void prefetch_lane_after(const Thread* t);
    // `target`: next's context (the scheduler's when next is null), read by the caller, which may
    // have read it before it knew next for sure (switch_lane()).
    [[gnu::noinline]] void suspend(Thread* me, Thread* next, FiberContext target);
    [[gnu::always_inline]] void switch_for_mode(Thread* me, const void* site);
    [[gnu::noinline]] void switch_lane(Thread* me, const void* site);
    // A plain aligned load or store of device memory with the checks on: checked inline by the
    // global-memory checker where it can, else by access_general(). One copy per access size
    // (1, 2, 4, 8 or 16 bytes: instantiated in engine.cpp), so that the checks' tests of the
    // size and of the bytes a one-word access covers fold into constants.
    template <size_t Bytes>
    [[gnu::noinline, gnu::hot]] void checked_global_read(uintptr_t address, const void* site,
                                                         const Region* r);
    template <size_t Bytes>
    [[gnu::noinline, gnu::hot]] void checked_global_write(uintptr_t address, const void* site,
                                                          const Region* r);
    // The way in from plain_access() with the checks on, before the region is known: the
    // access's site's last span (GlobalMemoryChecker::fast_at_site) checks most accesses of an
    // array at once; the others find their region and go on to checked_global_read/write (or
    // the general path, or no checks for the kernel's parameters), as plain_access() did.
    template <size_t Bytes, AccessKind Kind>
    [[gnu::noinline, gnu::hot]] void checked_global_site(uintptr_t address, const void* site);
    // Its way when the span does not take the access (a leaf of its own: the span's checks
    // then need no registers saved).
    template <size_t Bytes, AccessKind Kind>
    [[gnu::noinline]] void checked_global_lookup(uintptr_t address, const void* site);
    // The copy of the access's size and kind (constants where plain_access() is inlined into a
    // hook).
    [[gnu::always_inline]] void checked_global_at_site(uintptr_t address, size_t bytes,
                                                       AccessKind kind, const void* site);
    // Their way to access_general(), which takes a seventh argument on the stack: through this
    // six-argument call they leave by a jump and need no frame of their own.
    [[gnu::noinline]] void checked_global_slow(uintptr_t address, size_t bytes, AccessKind kind,
                                               const void* site, const Region* r);
    // Their way when the access is a scheduling point (switch_for_mode() would switch): the
    // switch, then the fast check (checked_global_switched), else the general check alone
    // (checked_global_general: the switch is done).
    template <size_t Bytes, AccessKind Kind>
    [[gnu::noinline]] void checked_global_at_switch(uintptr_t address, const void* site,
                                                    const Region* r);
    template <size_t Bytes, AccessKind Kind>
    [[gnu::noinline, gnu::hot]] void checked_global_switched(uintptr_t address, const void* site,
                                                             const Region* r);
    [[gnu::noinline]] void checked_global_general(uintptr_t address, size_t bytes, AccessKind kind,
                                                  const void* site, const Region* r);
    // The global checks' inline tests of a plain load or store on the general path (after its
    // switch): true if they checked it, false if access() must. Out of line, with what they
    // call inlined (inside access_general() the compiler would call their parts).
    [[gnu::noinline, gnu::flatten]] bool fast_plain_check(Thread* me, const Region& r,
                                                          uintptr_t address, size_t bytes,
                                                          AccessKind kind, const void* site);
    // on_memory_access() without the data flow, and with it (data_flow.h: the access marks the
    // thread or the words it writes, before any switch; a store that races it is reported by
    // the checks anyway).
    [[gnu::always_inline]] void plain_access(uintptr_t address, size_t bytes, AccessKind kind,
                                             bool is_volatile, const void* site);
    [[gnu::noinline]] void followed_access(uintptr_t address, size_t bytes, AccessKind kind,
                                           bool is_volatile, const void* site);
    // access_general() with no region known, through six arguments: the fast path leaves by a
    // jump, with no frame of its own (access_general's seventh argument would go on the stack).
    [[gnu::noinline]] void general_access(uintptr_t address, size_t bytes, AccessKind kind,
                                          bool is_volatile, const void* site);
    // `known`: the region the fast path already found for the access, if any.
    [[gnu::noinline]] void access_general(uintptr_t address, size_t bytes, AccessKind kind,
                                          bool is_volatile, const void* site,
                                          const Region* known = nullptr);
    void make_runnable(Thread* t);
    [[gnu::always_inline]] void make_waiting(Thread* t, ThreadState state, const void* site);
    // __activemask(): the lanes waiting there get the mask of those at the same one, once every
    // other lane of the warp has exited or waits elsewhere (a converged warp's lanes are there
    // together, as on a GPU).
    void try_converge(Warp* w);
    void try_complete_collective(Thread* arriving);
    // An event that may be part of a spin-wait (a volatile read, a failed atomic, a warp
    // intrinsic, a barrier, a fence): too many of them with no write in between is a deadlock.
    void count_poll(Thread* me, const void* site) {
        me->last_poll_site = site;
        if (++polls_since_progress_ > spin_limit_) [[unlikely]]
            spin_deadlock();
    }
    [[noreturn, gnu::noinline, gnu::cold]] void spin_deadlock();
    [[noreturn]] void report_deadlock(const std::string& headline);
    void abandon_all();
    void release_stacks(Block* block);
    bool same_barrier(const void* a, const void* b);
    [[noreturn, gnu::noinline, gnu::cold]] void barrier_mismatch(Thread* me, const void* site);
    [[noreturn, gnu::noinline, gnu::cold]] void exited_before_barrier(Block* b, const void* site);
    [[noreturn, gnu::noinline, gnu::cold]] void
    collective_misuse(Thread* me, CollectiveKind kind, unsigned mask, int width, const void* site);
    [[noreturn, gnu::noinline, gnu::cold]] void collective_mismatch(Thread* arriving,
                                                                    const Thread* other);
    [[gnu::noinline, gnu::cold]] void report_absent_lanes(Thread* arriving, unsigned absent);
    // A shuffle whose source lane does not take part (exited, absent, or not in the mask).
    [[gnu::noinline, gnu::cold]] void report_absent_source(Thread* reader, int source,
                                                           unsigned participants);
    [[gnu::noinline, gnu::cold]] void check_unregistered(const Region* r, uintptr_t address,
                                                         size_t bytes, AccessKind kind,
                                                         const void* site);
    // Records a finding once per key; `what` builds the message only for a new one.
    template <class What>
    void report_check(FaultKind kind, const std::string& key, What what, const void* site,
                      const Thread* culprit, std::vector<AccessRecord> accesses);
    // A finding with its accesses named (and told to the trace recorder, if one records).
    Finding make_finding(FaultKind kind, std::string message, const void* site,
                         const std::vector<AccessRecord>& accesses);
    FindingAccess describe_access(const AccessRecord& access) const;
    [[noreturn, gnu::noinline, gnu::cold]] void misaligned(uintptr_t address, size_t bytes,
                                                           AccessKind kind, const void* site);
    // A thread exits while others of its block wait at a barrier (the caller tests that).
    [[noreturn, gnu::noinline, gnu::cold]] void check_barrier_with_exits(Block* block,
                                                                         Thread* exiting);
    // Hot state, read on every access and switch: together at the start.
    Thread* current_ = nullptr;
    LaunchRecorder* recorder_ = nullptr;
    // The data-flow bookkeeping while a provenance watch follows an input (data_flow.h), which
    // every access then reports to (follow_data).
    DataFlow* flow_ = nullptr;
    const MemoryRegistry* registry_ = &memory_registry();
    FiberContext scheduler_ctx_ = nullptr;
    uint64_t fast_rng_ = 0x9E3779B97F4A7C15ull;
    uint64_t polls_since_progress_ = 0;
    uint64_t spin_limit_ = 0;
    // Accesses until the next scheduling point (switch_lane): 1 in lockstep; in `its` mode, where
    // each access hands over to another lane with probability 1/16, a geometric gap drawn once per
    // switch instead of a draw per access. One counter on the fast path; the warp's turn is
    // charged the whole gap at the scheduling point.
    uint32_t countdown_ = 1;
    uint32_t countdown_length_ = 1;
    bool lockstep_ = false; // lockstep or pre-volta: scheduled by code position
    bool checks_ = true;
    Strength atomic_strength_ = Strength::atomic_device;
    SharedMemoryChecker shared_;                  // used with the checks on
    std::unique_ptr<GlobalMemoryChecker> global_; // with the checks on

    LaunchRequest request_;
    Options options_;
    size_t shared_limit_;
    unsigned threads_per_block_ = 0;
    unsigned warps_per_block_ = 0;
    unsigned window_ = 1;
    std::vector<unsigned> dispatch_order_;
    size_t next_dispatch_ = 0;
    std::vector<std::unique_ptr<Block>> resident_;
    std::vector<Thread> spare_threads_; // a retired block's, for the next block (no new pages)
    std::vector<Warp*> warp_ring_;
    size_t ring_cursor_ = 0;
    bool ring_forward_ = true;
    Block* last_block_ = nullptr;
    unsigned same_block_turns_ = 0;
    uint32_t stay_epoch_ = 0;         // last_block_'s barrier_epoch when last looked at
    unsigned stay_progress_turn_ = 0; // same_block_turns_ when it last completed a barrier
    // A warp whose lanes have polled this many times in a turn, each at the same site as its last
    // poll with no write in between (a spin-wait), ends its turn at its next scheduling point, so
    // that the other warps, which a spin usually waits for, run sooner (poll_point()).
    static constexpr uint32_t kSpinPollsPerTurn = 32;
    static constexpr unsigned kSameBlockTurns = 256;
    static constexpr unsigned kMaxSameBlockTurns = 4096;
    void start_stay(Block* b); // the scheduler moves on to block b
    std::mt19937_64 rng_;
    // xorshift64*: 32 random bits.
    uint32_t next_random() {
        fast_rng_ ^= fast_rng_ >> 12;
        fast_rng_ ^= fast_rng_ << 25;
        fast_rng_ ^= fast_rng_ >> 27;
        return static_cast<uint32_t>((fast_rng_ * 0x2545F4914F6CDD1Dull) >> 32);
    }
    [[gnu::noinline]] uint32_t its_gap();
    uint64_t slice_limit_ = 64;
    std::map<std::pair<const void*, const void*>, bool> barrier_aliases_;
    std::pair<const void*, const void*> last_alias_{nullptr, nullptr};
    bool last_alias_same_ = false;
    FaultReport fault_;
    // Checks that do not stop the launch (races, uninitialized reads): reported once per site
    // pair, then the launch ends with the first one's error. A fault that ends the launch is
    // added after them (fault_finding_).
    std::vector<Finding> findings_;
    size_t check_findings_ = 0;
    std::vector<std::string> finding_keys_;
    static constexpr size_t kMaxFindings = 16;
    bool aborted_ = false;
    const Thread* overflow_thread_ = nullptr; // set by on_stack_overflow()
    const void* overflow_pc_ = nullptr;
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

// The engine of the launch that this host thread is running, or nullptr (host code). Per host
// thread: while one thread runs a launch, another's instrumented host code (the same .cu) is
// host code, not the kernel's. Initial-exec: the runtime is linked into the program, so the
// hot path reads it with one load.
extern thread_local Engine* g_active_engine [[gnu::tls_model("initial-exec")]];

// A kernel function was called from `caller` (a return address) or returned: kept per thread
// for lockstep's code positions.
inline void enter_call(const void* caller) {
    Engine* e = g_active_engine;
    Thread* t = e ? e->current() : nullptr;
    if (!t || t->in_runtime) return;
    if (t->call_depth < Thread::kCallSites) t->call_sites[t->call_depth] = caller;
    ++t->call_depth;
}
inline void leave_call() {
    Engine* e = g_active_engine;
    Thread* t = e ? e->current() : nullptr;
    if (t && !t->in_runtime && t->call_depth > 0) --t->call_depth;
}
inline Engine* active_engine() {
    return g_active_engine;
}
[[noreturn]] void outside_kernel(const char* what);
// The running launch's engine, for device builtins; host code calling them is an error.
inline Engine& engine_for(const char* what) {
    Engine* e = g_active_engine;
    if (!e || !e->current()) [[unlikely]]
        outside_kernel(what);
    return *e;
}

inline ThreadState Engine::state_of(const Thread& t) {
    const Warp* w = t.warp;
    const uint32_t bit = 1u << t.lane;
    if (w->exited_mask & bit) return ThreadState::exited;
    if (w->barrier_mask & bit) return ThreadState::at_barrier;
    if (w->collective_mask & bit) return ThreadState::at_collective;
    return ThreadState::runnable;
}

inline void Engine::transfer(Thread* from, Thread* to) {
    // Selected without a branch, so that the compiler keeps a single call site (see suspend()).
    FiberContext* slot = to ? &to->ctx : &scheduler_ctx_;
    asm("" : "+r"(slot));
    transfer_to(from, to, *slot);
}

inline void Engine::transfer_to(Thread* from, Thread* to, FiberContext target) {
    current_ = to;
    // The data passed is who is leaving; whoever resumes us tells us the same of itself, and we
    // keep its context so it can be resumed later.
    const FiberTransfer back = fiber_jump(target, from);
    Thread* left = static_cast<Thread*>(back.data);
    (left ? left->ctx : scheduler_ctx_) = back.from;
}

// The lane to run after `me` stops: in lockstep by code position, else the next runnable lane
// in lane order, wrapping around (`me` itself last).
inline Thread* Engine::next_lane_after(Thread* me) {
    Warp* w = me->warp;
    if (lockstep_) return lockstep_next(w, me->lane);
    const uint32_t m = w->runnable_mask;
    const unsigned l = me->lane;
    const uint32_t above = m & static_cast<uint32_t>(~uint64_t{0} << (l + 1));
    if (above) return w->lanes[__builtin_ctz(above)];
    return m ? w->lanes[__builtin_ctz(m)] : nullptr;
}

inline void Engine::prefetch_lane_after(const Thread* t) {
    const Warp* w = t->warp;
    uint32_t above = w->runnable_mask & static_cast<uint32_t>(~uint64_t{0} << (t->lane + 1));
    if (!above) return;
    const Thread* after = w->lanes[__builtin_ctz(above)];
    // Its context is read below, from its Thread: fetched one arrival earlier, as the Thread of
    // the lane after the one after the next (else that read waits for the line).
    above &= above - 1;
    if (above) {
        const char* line0 = reinterpret_cast<const char*>(w->lanes[__builtin_ctz(above)]);
        __builtin_prefetch(line0);
        __builtin_prefetch(line0 + 64);
    }
    // What a resume pops: the saved registers, then the frames of the switch and the barrier.
    const char* top = static_cast<const char*>(after->ctx);
#pragma GCC unroll 6
    for (int line = 0; line < 6; ++line) __builtin_prefetch(top + 64 * line);
}

inline const CodePosition* Engine::lockstep_position(Thread* me, const void* pc, uint64_t end) {
    if (const CodePosition* p = me->warp->memo.find(pc, call_path(*me), end)) [[likely]]
        return p;
    return lockstep_position_again(me, pc, end);
}

// The first runnable lane from a starting lane given as a fraction of the warp (random in `its`).
inline Thread* Engine::lane_from(Warp* w, uint32_t scaled_start) {
    const uint32_t m = w->runnable_mask;
    if (m == 0) return nullptr;
    const unsigned i = static_cast<unsigned>((uint64_t{scaled_start} * w->lane_count) >> 32);
    const uint32_t from = m & (~0u << i);
    return w->lanes[__builtin_ctz(from ? from : m)];
}

inline void Engine::switch_for_mode(Thread* me, const void* site) {
    if (--countdown_ == 0) [[unlikely]]
        switch_lane(me, site);
}

// The fast path of every kernel memory access: it handles the common case (an aligned access of
// up to 8 bytes, or a 16-byte vector of device memory, to memory it may touch, no race, nothing
// to report) and hands anything else,
// before changing any state, to access_general(), which does it all. Calls only in tail
// position, so that it needs few registers saved.
inline void Engine::on_memory_access(uintptr_t address, size_t bytes, AccessKind kind,
                                     bool is_volatile, const void* site) {
    if (flow_) [[unlikely]]
        return followed_access(address, bytes, kind, is_volatile, site);
    return plain_access(address, bytes, kind, is_volatile, site);
}

inline void Engine::checked_global_at_site(uintptr_t address, size_t bytes, AccessKind kind,
                                           const void* site) {
    const bool read = kind == AccessKind::read;
    switch (bytes) {
    case 1:
        return read ? checked_global_site<1, AccessKind::read>(address, site)
                    : checked_global_site<1, AccessKind::write>(address, site);
    case 2:
        return read ? checked_global_site<2, AccessKind::read>(address, site)
                    : checked_global_site<2, AccessKind::write>(address, site);
    case 4:
        return read ? checked_global_site<4, AccessKind::read>(address, site)
                    : checked_global_site<4, AccessKind::write>(address, site);
    case 8:
        return read ? checked_global_site<8, AccessKind::read>(address, site)
                    : checked_global_site<8, AccessKind::write>(address, site);
    default:
        return read ? checked_global_site<16, AccessKind::read>(address, site)
                    : checked_global_site<16, AccessKind::write>(address, site);
    }
}

inline void Engine::plain_access(uintptr_t address, size_t bytes, AccessKind kind, bool is_volatile,
                                 const void* site) {
    Thread* me = current_;
    Block* b = me->block;
    Warp* w = me->warp;
    if (recorder_ || is_volatile || kind == AccessKind::atomic || bytes > 16 ||
        ((bytes | address) & (bytes - 1)) != 0) [[unlikely]]
        return general_access(address, bytes, kind, is_volatile, site);
    const uintptr_t offset = address - b->shared_base();
    const size_t in_var = offset - b->last_lo;
    // (16-byte vectors: device memory only here; in shared memory the general path.)
    if (bytes <= 8 && in_var < (bytes > 4 ? b->last_span8 : b->last_span4)) {
        // Inside the shared variable of the block's last access.
        if (checks_ && !shared_.fast_access(me, b, w, in_var, bytes, kind, site)) [[unlikely]]
            return general_access(address, bytes, kind, is_volatile, site);
    } else if (offset < b->shared_capacity) {
        // Another variable, or none (a guard zone): found and judged by the general path.
        return general_access(address, bytes, kind, is_volatile, site);
    } else if (address - me->stack_lo < me->stack_size) {
        return; // the thread's own locals
    } else {
        // With the checks on, the global-memory checker sees every access of device memory.
        if (checks_) return checked_global_at_site(address, bytes, kind, site);
        const Region* r = registry_->cached(address, bytes, kind != AccessKind::read);
        if (!r) [[unlikely]]
            return general_access(address, bytes, kind, is_volatile, site);
    }
    if (kind == AccessKind::write) note_progress();
    switch_for_mode(me, site); // ends in a tail call when a switch is due
}

} // namespace simt::detail

#include "checks/shared_memory_fast_path.h"
