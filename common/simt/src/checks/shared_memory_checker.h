// Shared-memory checks: accesses outside every __shared__ variable (locate(), on whether the
// race checks are on or not: the guard zones between variables make an overrun land outside),
// races between the threads of a block (between barriers; for lanes of one warp, between
// warp-wide intrinsics) and reads of words no thread of the block wrote. Every 4-byte word of a
// block's shared memory, as the kernel sees it (SharedAllocation::offset), has a ShadowWord. The
// common access (one word of the variable the block touched last, nothing to report) is checked
// inline on the engine's fast path (shared_memory_fast_path.h); everything else comes here.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "checker.h"

namespace simt::detail {

struct SharedAllocation;
struct Warp;

// What the checks remember about one 4-byte word of shared memory. The masks say which of its
// bytes (bit i: byte i) the last write and the last read touched, and which were ever written in
// the block, so that threads may write neighbouring chars of one word, as on a GPU.
struct ShadowWord {
    uint32_t writer = 0; // linear thread index + 1 of the last write; 0: never written
    uint32_t write_epoch = 0;
    uint32_t write_warp_sync = 0;
    uint32_t reader = 0; // last reader + 1 in read_epoch; 0: none
    uint32_t read_epoch = 0;
    uint32_t read_warp_sync = 0;
    // The reader before the last one, kept when nothing ordered it before the last read: in
    // `b[i] = b[i - d] + b[i]` a lane's neighbour reads the word, then the lane itself reads and
    // writes it, and the neighbour's read (the race) must not be forgotten.
    uint32_t other_reader = 0;
    uint32_t other_read_epoch = 0;
    uint32_t other_read_warp_sync = 0;
    // The block's clock (Block::clock) at these accesses, for the mbarrier ordering.
    uint32_t write_clock = 0;
    uint32_t read_clock = 0;
    uint32_t other_read_clock = 0;
    const void* write_site = nullptr;
    const void* read_site = nullptr;
    const void* other_read_site = nullptr;
    bool write_atomic = false;
    uint8_t write_bytes = 0;
    uint8_t read_bytes = 0;
    uint8_t other_read_bytes = 0;
    uint8_t written_bytes = 0;
};
constexpr uint8_t kWholeWord = 0xF;

class SharedMemoryChecker {
  public:
    SharedMemoryChecker(FindingSink& sink, bool warp_synchronous)
        : sink_(sink), warp_synchronous_(warp_synchronous) {}
    // The fast path: true if the access was an ordinary one and is recorded; false to come back
    // through access() (nothing has changed then).
    // `in_var`: the offset in the block's last variable, which the engine has checked.
    [[gnu::always_inline]] inline bool fast_access(Thread* me, Block* b, Warp* w, size_t in_var,
                                                   size_t bytes, AccessKind kind, const void* site);
    // Makes the variable that holds the access at `storage` (an offset in the block's buffer) the
    // block's last one; an access outside every variable ends the launch with a report.
    void locate(Thread& thread, size_t storage, size_t bytes, AccessKind kind, const void* site);
    // An access that locate() has placed, checked for races and uninitialized reads.
    void access(Thread& thread, size_t storage, size_t bytes, AccessKind kind, const void* site);
    // "tile[1], byte 4 of 'tile' (128 bytes: int[32])", for an offset as the kernel sees it.
    std::string describe(const Block* b, size_t offset) const;
    static const SharedAllocation* variable_at(const Block* b, size_t offset);

    // For the bulk stores (bulk_store_runtime.h), which read shared memory asynchronously:
    // whether `other`'s access (its barrier epoch, warp collective count and clock) happens
    // before what `me` does next, as the race checks decide it.
    bool ordered_before(const Thread& me, uint32_t other, uint32_t epoch, uint32_t warp_sync,
                        uint32_t clock) const;
    bool warp_synchronous() const { return warp_synchronous_; }
    // The shadow of the word at `storage` (a byte offset in the block's buffer), and its offset
    // as the kernel sees it; null outside every variable.
    static ShadowWord* shadow_at(Block& b, size_t storage, size_t* offset = nullptr);
    // `me` read [storage, storage + bytes) just now, with nothing to check: a bulk store's read of
    // its source, which lasts until this moment (its wait_group_read).
    static void record_async_read(Thread& me, size_t storage, size_t bytes, const void* site);

  private:
    // write_after_other_read: against the word's other (earlier) reader.
    enum class Race : uint8_t {
        read_after_write,
        write_after_write,
        write_after_read,
        write_after_other_read
    };
    // Two accesses of different threads are ordered by a barrier between them, or, for lanes of
    // one warp, by a warp-wide collective between them (or, in the pre-volta mode, by lockstep
    // execution itself), or by mbarriers: `other`'s access (at its `clock`) came before an
    // arrive whose phase `me` has waited for (mbarrier_runtime.h).
    inline bool ordered(const Thread* me, const Block* b, const Warp* w, uint32_t other,
                        uint32_t epoch, uint32_t warp_sync, uint32_t clock) const;
    static inline bool ordered_reads(const Warp* w, uint32_t other, uint32_t warp_sync);
    // The fast path's checks of one whole word, and its record of it (fast_access).
    [[gnu::always_inline]] inline bool fast_clean(const ShadowWord& s, const Thread* me,
                                                  const Block* b, const Warp* w,
                                                  AccessKind kind) const;
    [[gnu::always_inline]] static inline void fast_record(ShadowWord& s, const Thread* me,
                                                          const Block* b, const Warp* w,
                                                          AccessKind kind, const void* site);
    // `bytes`: the mask of the word's bytes accessed (kWholeWord on the fast path).
    static inline void record_read(ShadowWord& s, const Thread* me, const Block* b, const Warp* w,
                                   const void* site, uint8_t bytes);
    static inline void record_write(ShadowWord& s, const Thread* me, const Block* b, const Warp* w,
                                    const void* site, bool atomic, uint8_t bytes);
    [[noreturn, gnu::noinline, gnu::cold]] void report_out_of_bounds(Thread* me, size_t storage,
                                                                     size_t bytes, AccessKind kind,
                                                                     const void* site);
    [[gnu::noinline]] void check_words(Thread* me, size_t offset, size_t bytes, AccessKind kind,
                                       const void* site);
    [[gnu::noinline, gnu::cold]] void report_uninitialized(Thread* me, size_t offset, size_t bytes,
                                                           const void* site);
    std::string race_message(const Block* b, size_t offset, Race race, bool against_write,
                             const Thread& other, const void* other_site, bool same_warp) const;
    [[gnu::noinline, gnu::cold]] void report_race(Thread* me, size_t offset, size_t bytes,
                                                  AccessKind kind, Race race, const void* site);

    FindingSink& sink_;
    bool warp_synchronous_;
};

} // namespace simt::detail
