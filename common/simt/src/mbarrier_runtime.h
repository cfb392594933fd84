// Hopper's mbarriers and bulk asynchronous copies on the emulator (lab 08; the kernel's side is
// common/simt/compat/cuda/ptx). Each block keeps its barriers by shared-memory address (the
// state machine of one: mbarrier_model.h) and the bulk copies in flight. A copy is checked when
// it is issued (its source read, its destination written, as the issuing thread) and lands later:
// its bytes are written at a waiter's poll of its barrier, completing their transaction bytes.
//
// The ordering a barrier gives the race checks (shared and global memory) is point to point, so
// it is kept as vector clocks over the block's threads (Thread::mbarrier_known, in units of
// Block::clock, which every access records): an arrive releases what the thread (and what it
// had acquired) did before it into the phase; a copy's reads and writes are released when its
// bytes land; a wait that passes acquires the completed phase. Internal to the runtime.
#pragma once

#include <cstdint>
#include <string>

namespace simt::detail {

struct Block;

struct Warp;

// A warp collective of the lanes in `participants` completed: what each did before it happens
// before what the others do after it, and so before their later arrives (the vector clocks join).
void mbarrier_warp_synchronized(Warp& warp, uint32_t participants);

// The lines a deadlock report adds for the block's mbarriers that threads wait on: the
// barrier, its phase, the arrivals and transaction bytes it still lacks.
std::string mbarrier_deadlock_lines(const Block& block);

// Whether `site` issues bulk copies into shared memory (cp_async_bulk from global memory): their
// writes are the asynchronous proxy's, which a bulk store reads without a proxy fence.
bool is_bulk_copy_site(const Block& block, const void* site);

// For a shared-memory race report in a block that uses mbarriers: what the two sites are when
// one is a bulk copy, and how to order them (empty when neither is).
std::string mbarrier_race_advice(const Block& block, const void* other_site, const void* site,
                                 bool against_write);

// The same for a global-memory race between two threads of such a block, where a bulk copy is the
// side that reads (its source): `against_write` when the earlier access is a write.
std::string mbarrier_global_race_advice(const Block& block, const void* other_site,
                                        const void* site, bool against_write);

} // namespace simt::detail
