// The narrow interface between the engine (which schedules) and a check (which judges). The
// engine tells a check what happened, in the order it happened; the check reports what it finds
// through the FindingSink. Adding a check is a new class here, not more engine.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "simt/report.h"

namespace simt::detail {

struct Block;
struct Region;
struct Thread;
enum class Strength : uint8_t;

enum class MemoryScope : uint8_t { block, device, system };

enum class AccessKind : uint8_t;
AccessRole role_of(AccessKind kind);

// One access or wait that a finding is about, as a check knows it; the engine turns it into a
// FindingAccess (names, source line) and tells the trace recorder.
struct AccessRecord {
    const Thread* thread = nullptr; // a thread of a resident block, or
    uint32_t grid_thread = 0;       // one numbered across the grid from 1 (when thread is null)
    AccessRole role = AccessRole::load;
    bool shared = false;   // address is an offset in the block's shared window (the kernel's view)
    uintptr_t address = 0; // device memory: the address
    size_t bytes = 0;      // 0: a wait
    const void* site = nullptr;
    bool current = false; // the access the running thread is making now
};

// Where checks report. Each finding has a key; a second finding with the same key is dropped
// without building its message.
class FindingSink {
  public:
    virtual ~FindingSink() = default;
    virtual void report(FaultKind kind, const std::string& key,
                        const std::function<std::string()>& message, const void* site,
                        const Thread* culprit, std::vector<AccessRecord> accesses) = 0;
    // Ends the launch with a fault (an access that cannot go on); never returns.
    [[noreturn]] virtual void fatal(FaultKind kind, cudaError_t error, const std::string& what,
                                    const void* site, const AccessRecord* access) = 0;
    // "thread (x,y,z) of block (a,b,c)", for a running thread or one numbered across the grid
    // (see GlobalWrite).
    virtual std::string describe_thread(const Thread& t) const = 0;
    virtual std::string describe_grid_thread(uint32_t grid_thread) const = 0;
    // A spin-wait's polls count towards deadlock detection.
    virtual void spin_poll(Thread* t, const void* site) = 0;
};

class Checker {
  public:
    virtual ~Checker() = default;
    virtual void block_started(Block&) {}
    virtual void block_finished(Block&) {}
    // An access of device-accessible memory (not shared memory, not the thread's stack) that
    // passed the bounds checks: before it happens.
    virtual void access(Thread&, const Region&, uintptr_t, size_t, AccessKind, Strength,
                        const void* /*site*/) {}
    virtual void fence(Thread&, MemoryScope, const void* /*site*/) {}
    virtual void barrier_completed(Block&) {}
    // The launch ends (normally or by a fault): undo anything shown to threads, report the rest.
    virtual void launch_finished() {}
};

} // namespace simt::detail
