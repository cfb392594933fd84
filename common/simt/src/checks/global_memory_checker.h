// Global-memory checks: uninitialized reads, races between threads and between blocks decided by
// happens-before (not by luck of the schedule), message passing without the fences it needs,
// spins on plain loads, tile status left over from an earlier launch, and relaxed visibility
// (a block's stores reach other blocks late and out of order unless a fence orders them).
//
// The model follows what CUDA's memory model promises:
// - Kernel boundaries and host synchronization order everything.
// - Within a block, __syncthreads() orders all threads; a warp-wide intrinsic orders the lanes
//   it names.
// - Between blocks, only release and acquire order: a device-scope fence (__threadfence()) before
//   a strong store (volatile or atomic) makes the store release what the block did before the
//   fence; a strong load that sees that store, followed by a device-scope fence, acquires it.
//   Block-scope fences and *_block atomics order nothing for other blocks.
// Blocks carry vector clocks (one entry per block of the grid); a release stores a snapshot of
// the releasing block's clock with the word it wrote, an acquire joins the snapshots its thread
// saw. Within a block, ordering is decided per thread pair as for shared memory: a barrier, a
// warp-wide collective, or mbarrier phases (a bulk copy's read of a tile orders before a write
// by a thread that waited for the phase the copy completed: an in-place scan).
// A block's clock is Block::clock, which mbarrier operations advance too; where "a barrier or
// device-scope fence between" matters, BlockSync::fence_clock and GlobalWrite::write_fences say.
#pragma once

#include <memory>
#include <unordered_map>
#include <utility>
#include <vector>

#include "checker.h"
#include "global_shadow.h"
#include "simt/launch.h"

namespace simt::detail {

// A vector clock over the blocks of one grid.
struct VectorClock {
    std::vector<uint32_t> entries;
    uint32_t get(uint32_t block) const { return block < entries.size() ? entries[block] : 0; }
    void set(uint32_t block, uint32_t clock) {
        if (block >= entries.size()) entries.resize(block + 1, 0);
        entries[block] = clock;
    }
    void join(const VectorClock& other);
};
using ClockSnapshot = std::shared_ptr<const VectorClock>;

struct ThreadSync;

struct BlockSync {
    Block* block = nullptr;     // the engine's block (its threads)
    uint32_t barrier_clock = 1; // Block::clock right after the block's last __syncthreads()
    uint32_t fence_clock = 1;   // right after its last __syncthreads() or device-scope fence
    uint32_t fences = 0;        // its __syncthreads() and device-scope fences so far
    std::shared_ptr<VectorClock> known; // what the block has acquired (copied on write)
    // What the block has seen through strong loads of other blocks' strong stores, fenced or
    // not (each block's fence_clock at its store), and what those blocks had seen: a block's
    // reads before a barrier or fence and a strong store after it fed what it published, and
    // hardware keeps them before it (a write after them by a block that saw the store is
    // ordered: in-place compaction).
    std::shared_ptr<VectorClock> observed;
    std::vector<std::unique_ptr<ThreadSync>> threads; // made when a thread first needs one
};

// What a thread needs for ordering: made at its first fence or volatile/atomic access.
struct ThreadSync {
    ClockSnapshot release;              // from the thread's last device-scope fence
    std::vector<ClockSnapshot> pending; // releases its strong loads saw since its last fence
    const void* last_fence_site = nullptr;
    MemoryScope last_fence_scope = MemoryScope::block;
    uint32_t device_fences = 0;
    // The last strong loads that saw another block's strong store ("flags"), for diagnosis.
    struct Observation {
        uintptr_t word = 0;
        uint32_t writer_block = ~0u;
        uint32_t write_time = 0;
        uint32_t flag_site = 0;      // where the flag was written
        uint32_t read_site = 0;      // where this thread read it
        bool released = false;       // a device-scope fence of the writer came before the flag
        uint32_t released_clock = 0; // the writer's clock that release covers
        const void* writer_fence_site = nullptr;
        MemoryScope writer_fence_scope = MemoryScope::block;
        uint32_t fences_then = 0; // this thread's device fences when it read the flag
    };
    static constexpr unsigned kObservations = 4;
    Observation seen[kObservations];
    unsigned next_seen = 0;
    // Reads of words that another block writes, not ordered after that write: the read came
    // before it, or after it with no acquire between. If the thread then reads a flag that the
    // writer set after the write, it used the value before the flag announced it.
    struct EarlyRead {
        uintptr_t word = 0;
        uint32_t writer = 0;     // the write's thread (numbered across the grid)
        uint32_t write_time = 0; // when it wrote (the checker's access count)
        uint32_t write_site = 0;
        uint32_t read_site = 0;
        bool before_write = false; // the read came first (it saw what was there before)
    };
    static constexpr unsigned kEarlyReads = 8;
    EarlyRead early[kEarlyReads];
    unsigned early_count = 0; // entries in use (newest last)
    // Loads of part of a store of several words (a 64-bit descriptor read as two 32-bit halves):
    // two of them on one store may see halves of two different stores.
    struct PartialLoad {
        uintptr_t first_word = 0; // of the store
        uintptr_t word = 0;       // the word this load read
        uint32_t writer = 0;
        uint32_t write_time = 0;
        uint32_t write_site = 0;
        uint32_t read_site = 0;
    };
    static constexpr unsigned kPartialLoads = 4;
    PartialLoad partial[kPartialLoads];
    unsigned next_partial = 0;
    // Programmatic dependent launch: the thread returned from cudaGridDependencySynchronize().
    bool dependency_synced = false;
};

class GlobalMemoryChecker final : public Checker {
  public:
    GlobalMemoryChecker(const LaunchRequest& request, FindingSink& sink, bool warp_synchronous,
                        bool relaxed_visibility, uint64_t seed);
    void block_started(Block& b) override;
    void block_finished(Block& b) override;
    void access(Thread& t, const Region& r, uintptr_t address, size_t bytes, AccessKind kind,
                Strength strength, const void* site) override;
    void fence(Thread& t, MemoryScope scope, const void* site) override;
    void barrier_completed(Block& b) override;
    void launch_finished() override;
    // The thread compares-and-swaps the word at `w`: a plain read of it before, racing other
    // threads' atomics, was the first step of a CAS loop (the CAS checks the value).
    void compare_and_swap(Thread& t, uintptr_t w);
    // The thread returned from cudaGridDependencySynchronize(): in a programmatic dependent
    // launch, what the launch before wrote or read is ordered before its accesses from now on.
    void grid_dependency_synchronized(Thread& t);
    // The inline half (global_memory_fast_path.h): a plain one-word load or store that needs no
    // report and touches no flag state is checked and recorded here, calling nothing; false
    // hands it, unchanged, to access(). `bytes` is 1, 2, 4, 8 or 16 and `address` a multiple of
    // it (the engine's fast path sends no other access).
    [[gnu::always_inline]] inline bool fast_read(Thread& t, const Region& r, uintptr_t address,
                                                 size_t bytes, const void* site);
    [[gnu::always_inline]] inline bool fast_write(Thread& t, const Region& r, uintptr_t address,
                                                  size_t bytes, const void* site);
    // The same before the access's region is known: the span its site went to last (SiteSpan)
    // gives region, shadow page and site id in one comparison. False if the access is not in
    // that span, or if the fast checks would hand it to access() (then the caller finds the
    // region and calls fast_read() or fast_write(), which decide again and refill the span).
    [[gnu::always_inline]] inline bool fast_at_site(Thread& t, uintptr_t address, size_t bytes,
                                                    AccessKind kind, const void* site);
    // The region of the access if its site's span holds it, else null (then the registry
    // knows): for the accesses that are scheduling points, which switch before they check.
    [[gnu::always_inline]] inline const Region*
    span_region(uintptr_t address, size_t bytes, AccessKind kind, const void* site) const;
    // The same for a strong (volatile) load of words that no kernel wrote in this launch: a
    // look-back polling a tile whose descriptor is not published yet, most of a spin's loads.
    // access() would only record the read; anything else (a write to see, acquire or show late,
    // a stale or uninitialized word) goes there. `bytes` and `address` as for fast_read().
    [[gnu::always_inline]] inline bool fast_strong_read(Thread& t, const Region& r,
                                                        uintptr_t address, size_t bytes,
                                                        Strength strength, const void* site);

    // More blocks than this and the vector clocks would cost too much: inter-block ordering is
    // not checked for the launch (said once on stderr); the other checks stay on.
    static constexpr unsigned kMaxOrderedBlocks = 16384;

  private:
    struct StrongStore { // the latest strong store to a word, with what it releases
        uint32_t writer = 0;
        uint32_t write_time = 0;
        ClockSnapshot release;
        const void* writer_fence_site = nullptr;
        MemoryScope writer_fence_scope = MemoryScope::block;
        ClockSnapshot observed; // what the writer's block had seen (BlockSync::observed)
        // The writer block's fence_clock at the store: its accesses before a barrier or fence
        // that came before the store (what a block that sees the store may take as before it).
        uint32_t fence_clock = 0;
        // The strong store before it (relaxed visibility may still show its value to others).
        uint32_t previous_writer = 0;
        uint32_t previous_clock = 0;
        ClockSnapshot previous_observed;
    };
    struct StaleRead { // a strong load that saw what an earlier launch's kernel left
        uint32_t reader = 0;
        uint32_t read_site = 0;
        uint32_t overwriter = 0; // the thread of this launch that wrote it afterwards
        uint32_t overwrite_site = 0;
    };
    enum class Race : uint8_t { read_after_write, write_after_write, write_after_read };
    // A race whose report waits for the end of the launch: a plain read and another thread's
    // atomic (the reader's CAS on the word clears it: a CAS loop), or a read that another block
    // overwrote (a flag the reader sees later names it more precisely: value read before flag).
    struct DeferredRace {
        uint32_t reader = 0; // the read's thread
        uintptr_t word = 0;
        uint32_t read_site = 0;
        uint32_t other = 0; // the write's thread
        uint32_t other_site = 0;
        Strength other_strength = Strength::plain;
        Race race = Race::read_after_write;
        bool cas_exempt = false;    // the reader's plain read raced an atomic
        uint8_t shared_bytes = 0xF; // the bytes of the word both accesses touched (bit i: byte i)
    };
    // Per word that strong (volatile or atomic) stores wrote in this launch: what the last-write
    // record forgets when the next store replaces it, so that a race is found whichever order the
    // blocks ran in: the last plain store before the strong ones, and each block's last strong
    // store.
    struct StrongWriter {
        uint32_t writer = 0;
        uint32_t clock = 0;
        uint32_t site = 0;
        uint16_t warp_sync = 0;
        Strength strength = Strength::plain;
    };
    struct WordHistory {
        bool has_plain = false;
        uint8_t plain_bytes = 0;
        StrongWriter plain;               // the last plain store before a strong one replaced it
        std::vector<StrongWriter> strong; // one per block (the latest of that block)
    };

    // The first and last word of an access.
    struct AccessShape {
        uintptr_t first, last;
    };
    // `bytes`: the mask of the word's bytes the access touches (bit i: byte i).
    void check_word(Thread& t, const Region& r, uintptr_t address, GlobalShadow::Word word,
                    AccessKind kind, Strength strength, uint32_t site, bool repeated_plain_read,
                    uint32_t visibility_delay, uint8_t bytes, AccessShape shape);
    // Inline, in global_memory_fast_path.h (always: at -O1 a call per check of a record).
    [[gnu::always_inline]] inline bool
    ordered(const Thread& t, uint32_t other, uint32_t other_clock, uint16_t other_warp_sync) const;
    uint32_t grid_thread(const Thread& t) const;
    // Whether an access can take the fast path at all: its site is cached, and no restore or
    // stale read is pending. (An aligned access of up to 4 bytes stays inside one word.)
    [[gnu::always_inline]] inline bool fast_path_open(uint32_t site_id) const;
    // The fast checks of a plain load or store once its word is known (from a span, or from
    // the region and the shadow's recent pages): one word (up to 4 bytes), or a vector (8 or 16
    // bytes, whole words of one page). The callers have tested the block's sync and the site id.
    [[gnu::always_inline]] inline bool fast_read_word(Thread& t, bool device, uintptr_t address,
                                                      GlobalShadow::Word word, size_t bytes,
                                                      uint32_t site_id);
    [[gnu::always_inline]] static inline void end_poll_by_own_write(Thread& t, uintptr_t address,
                                                                    size_t bytes);
    [[gnu::always_inline]] inline bool fast_write_word(Thread& t, uintptr_t address,
                                                       GlobalShadow::Word word, size_t bytes,
                                                       uint32_t site_id);
    [[gnu::always_inline]] inline bool fast_read_words(Thread& t, bool device, uintptr_t address,
                                                       GlobalShadow::Word first, size_t bytes,
                                                       uint32_t site_id);
    [[gnu::always_inline]] inline bool fast_write_words(Thread& t, uintptr_t address,
                                                        GlobalShadow::Word first, size_t bytes,
                                                        uint32_t site_id);
    // Remembers where a plain load or store of `site` went (fast_read/fast_write, on success).
    [[gnu::always_inline]] inline void remember_span(const void* site, size_t bytes,
                                                     AccessKind kind, const Region& r,
                                                     GlobalShadow::PageRef page, uintptr_t address,
                                                     uint32_t site_id);
    // Whether a plain store of the bytes `mine` of the word needs nothing of the general path.
    [[gnu::always_inline]] inline bool plain_store_fits(const Thread& t, GlobalShadow::Word word,
                                                        uint8_t mine) const;
    // Whether the thread's plain accesses may take the fast path: no views pending and
    // needs_thread_checks() false, in one test where nothing of that is going on.
    [[gnu::always_inline]] inline bool fast_thread(const Thread& t) const;
    // Whether the thread's accesses need the general path (see the fast path's definition).
    [[gnu::always_inline]] inline bool needs_thread_checks(const Thread& t) const;
    // Before cudaGridDependencySynchronize() in a dependent launch.
    [[gnu::always_inline]] inline bool before_dependency_sync(const Thread& t) const;
    // Whether the word's latest write by another thread touches `mine` unordered with `t`.
    [[gnu::always_inline]] inline bool unordered_write(const Thread& t, GlobalShadow::Word word,
                                                       uint8_t mine) const;
    void record_read(const Thread& t, uint32_t self, GlobalShadow::Word word, Strength strength,
                     uint32_t site, bool polled, uint8_t bytes);
    void record_write(const Thread& t, uint32_t self, GlobalShadow::Word word, Strength strength,
                      uint32_t site, uint8_t bytes, uint8_t store_words = 1,
                      uint8_t store_index = 0);
    // Relaxed visibility: other blocks see the word's old value until `delay` more global
    // accesses have happened, or a device-scope fence of the writing block (published_at_).
    // Before record_write().
    [[gnu::always_inline]] inline void delay_visibility(const Thread& t, uintptr_t address,
                                                        GlobalShadow::Word word, uint32_t delay);
    // Whether other blocks see the last write `e` (relaxed visibility): its delay has passed, or
    // a device-scope fence of its writer's block came after it (t: the thread asking).
    [[gnu::always_inline]] inline bool visible(const Thread& t, const GlobalWrite& e) const;
    // Per block of the grid, the access count just after its last device-scope fence: its
    // stores before that are visible to every block (a fence publishes the whole block's
    // stores, not only its thread's).
    std::vector<uint32_t> published_at_;
    uint32_t block_of(uint32_t grid_thread) const { return (grid_thread - 1) / threads_per_block_; }
    // The same seen from thread t: its own block's without a division.
    [[gnu::always_inline]] inline uint32_t block_of(const Thread& t, uint32_t other) const;
    // `other`'s index in t's block, or threads_per_block_ or more if it is in another block.
    [[gnu::always_inline]] inline uint32_t index_in_block(const Thread& t, uint32_t other) const;
    uint32_t intern(const void* site) {
        // Kernels touch global memory from few sites: a direct-mapped cache in front of the map.
        SiteSlot& slot = site_cache_[(reinterpret_cast<uintptr_t>(site) >> 2) % kSiteCache];
        if (slot.site != site) slot = SiteSlot{site, intern_slow(site)};
        return slot.id;
    }
    // The site's id if the cache has it, else 0 (the fast path then leaves the access to
    // access(), which interns it).
    uint32_t cached_site(const void* site) const {
        const SiteSlot& slot = site_cache_[(reinterpret_cast<uintptr_t>(site) >> 2) % kSiteCache];
        return slot.site == site ? slot.id : 0;
    }
    uint32_t intern_slow(const void* site);
    ThreadSync& sync_of(Thread& t);
    const void* site_at(uint32_t id) const { return sites_[id]; }
    std::string where(const Region& r, uintptr_t word) const;
    std::string line(uint32_t site) const;
    void observe(Thread& t, uintptr_t word, const GlobalWrite& e, uint32_t read_site);
    // A block saw what `writer` stored at `clock` (and what that block had seen).
    void note_seen(BlockSync& mine, uint32_t writer, uint32_t clock, const ClockSnapshot& theirs);
    // A flag this thread saw that the writer of `e` set after writing `e` (message passing).
    const ThreadSync::Observation* later_flag_from(const ThreadSync& ts, uintptr_t word,
                                                   const GlobalWrite& e) const;
    // The address of the first byte of `word` that `shared` (bit i: byte i) names, for a
    // report: two accesses of one word race only where they share a byte.
    static uintptr_t first_shared_byte(uintptr_t word, unsigned shared) {
        return word + (shared ? static_cast<unsigned>(__builtin_ctz(shared)) : 0u);
    }
    // `at`: the race's first shared byte (the report names it), in its word.
    void report_race(Thread& t, const Region& r, uintptr_t at, Race race, uint32_t other,
                     uint32_t other_site, Strength other_strength, uint32_t site,
                     Strength strength = Strength::plain);
    void report_ordering(Thread& t, const Region& r, uintptr_t word, const GlobalWrite& e,
                         const ThreadSync::Observation& flag, uint32_t site);
    // A plain load polled at `poll_site` while another thread stores to the word: found at the
    // poll (t polls, `writer` wrote) or at the store (t writes; `poller` polled, else 0).
    void report_spin(Thread& t, const Region& r, uintptr_t word, uint32_t poll_site,
                     uint32_t poller, uint32_t writer, uint32_t write_site);
    void report_early_read(Thread& t, const ThreadSync::EarlyRead& value, uintptr_t flag_word,
                           uint32_t flag_writer, uint32_t flag_site, uint32_t flag_read_site);
    void report_torn_store(Thread& t, const Region& r, uintptr_t address, size_t bytes,
                           const GlobalWrite& first, const GlobalWrite& second, uint32_t site);
    void report_split_load(Thread& t, const Region& r, const ThreadSync::PartialLoad& earlier,
                           uintptr_t word, uint32_t site, size_t bytes, unsigned store_words);
    void report_dependency(Thread& t, const Region& r, uintptr_t word, bool writes,
                           bool previous_wrote, uint32_t site);
    void report_deferred(const DeferredRace& d);
    // Item-by-item parts of check_word.
    void note_early_read(Thread& t, uintptr_t word, const GlobalWrite& e, uint32_t read_site,
                         bool before_write);
    void forget_early_read(ThreadSync& ts, uintptr_t word);
    void check_early_reads(Thread& t, uintptr_t flag_word, const GlobalWrite& flag,
                           uint32_t read_site);
    void check_history(Thread& t, const Region& r, uintptr_t w, AccessKind kind, Strength strength,
                       uint32_t site, uint8_t bytes);
    void remember_history(Thread& t, uintptr_t w, GlobalShadow::Word word, Strength strength,
                          uint32_t site);
    void check_torn_load(Thread& t, const Region& r, uintptr_t address, size_t bytes,
                         uint32_t site);
    void check_split_load(Thread& t, const Region& r, uintptr_t w, const GlobalWrite& e,
                          uint32_t site, AccessShape shape);
    void defer(const DeferredRace& d);
    Thread* thread_of(uint32_t grid_thread);
    // Whether block b saw a strong store that `reader`'s block made after a read at read_clock
    // (BlockSync::observed): a later write of b is ordered after that read.
    bool seen_after(const BlockSync& b, uint32_t reader, uint32_t read_clock) const;
    void acquire(Thread& t);
    void release(Thread& t);
    void show_old_value(uintptr_t word, uint32_t old_value);
    void restore_views();
    uint32_t visibility_delay();

    FindingSink& sink_;
    GlobalShadow& shadow_;
    bool warp_synchronous_;
    bool relaxed_visibility_;
    bool check_ordering_ = true;
    // A programmatic dependent launch (cudaLaunchKernelEx with programmatic stream
    // serialization) right after another launch: accesses before cudaGridDependencySynchronize()
    // must not touch what that launch wrote (or write what it read).
    bool dependent_launch_ = false;
    uint32_t threads_per_block_;
    uint32_t now_ = 1; // global-memory accesses so far: the clock of relaxed visibility
    uint64_t rng_;     // xorshift64 state (seeded; never 0)
    struct SiteSlot {
        const void* site = nullptr;
        uint32_t id = 0;
    };
    static constexpr size_t kSiteCache = 64;
    SiteSlot site_cache_[kSiteCache];
    // Per site of a plain load or store (the instruction, with its size and kind), the part of
    // one shadow page inside one region where its last fast access went: most sites walk through
    // an array, so the next access is in the same span, and one comparison finds its region,
    // page and word (the shared-memory fast path's last_lo and last_span4, per site).
    struct SiteSpan {
        const void* site = nullptr;
        uintptr_t lo = 0;   // the span's first byte
        uintptr_t fits = 0; // an access at `address` lies inside if address - lo < fits
        GlobalShadow::PageRef page;
        const Region* region = nullptr;
        uint32_t id = 0;         // the site's id (intern())
        uint32_t generation = 0; // memory_map_generation when filled
        uint8_t shape = 0;       // the access's bytes, + 32 for a store
        bool device = false;     // a device allocation: loads check initialization
    };
    static uint8_t span_shape(size_t bytes, AccessKind kind) {
        return static_cast<uint8_t>(bytes + (kind == AccessKind::read ? 0 : 32));
    }
    SiteSpan site_spans_[kSiteCache];
    std::vector<const void*> sites_{nullptr};
    std::unordered_map<const void*, uint32_t> site_ids_;
    std::unordered_map<uintptr_t, StrongStore> strong_stores_;
    std::unordered_map<uintptr_t, StaleRead> stale_reads_;
    std::vector<std::pair<uintptr_t, uint32_t>> restore_; // words showing an old value
    // Either of the two is not empty: the fast path leaves every access to access().
    bool views_pending_ = false;
    // views_pending_ or dependent_launch_: the fast path looks closer (fast_thread()).
    bool fast_closed_ = false;
    void note_views() {
        views_pending_ = !restore_.empty() || !stale_reads_.empty();
        fast_closed_ = views_pending_ || dependent_launch_;
    }
    std::unordered_map<unsigned, std::unique_ptr<BlockSync>> blocks_;
    std::unordered_map<uintptr_t, WordHistory> history_;
    // Blocks whose strong stores a word's history keeps (then the older half is forgotten).
    static constexpr size_t kStrongWritersPerWord = 8192;
    bool history_trimmed_ = false; // said on stderr at the end of the launch
    std::vector<DeferredRace> deferred_;
    static constexpr size_t kMaxDeferred = 4096;
};

} // namespace simt::detail
