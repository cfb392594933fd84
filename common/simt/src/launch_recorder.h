// What the engine tells a launch's recorder, and how a launch gets one. The runtime's core knows
// only this interface. simt_runtime adds the trace recording (trace_recorder.h, trace_api.cpp);
// simt_core, which the graded lab tests link, has recording_off.cpp instead, so neither the
// recorder nor the trace library is compiled for a student's first build.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "checks/checker.h"

// Declared, not included: recording_off.cpp, compiled for every first build, then needs none of
// the engine's headers.
namespace simt {
struct FaultReport;
struct Options;
} // namespace simt

namespace simt::detail {

struct LaunchRequest;
struct Warp;

// An mbarrier operation, or what happened to a barrier (mbarrier_runtime.cpp tells them).
enum class MbarrierNoteKind : uint8_t { init, arrive, expect_tx, copy, land, complete, wait, poll };
struct MbarrierNote {
    MbarrierNoteKind kind = MbarrierNoteKind::init;
    const Thread* thread = nullptr; // who did it; a landing: the copy's issuer
    uintptr_t barrier = 0;          // the barrier's address
    uint32_t count = 0;             // init: expected arrivals; arrive: arrivals
    uint32_t bytes = 0;             // arrive, expect_tx: announced; copy, land: the copy's
    uint32_t parity = 0;            // wait, poll: the parity waited for
    uint64_t phase = 0;             // phase: the number of the phase that completed
    uintptr_t destination = 0;      // copy: where its bytes go
    const void* site = nullptr;     // the call site; null for a landing and a phase
};

class LaunchRecorder {
  public:
    virtual ~LaunchRecorder() = default;
    virtual void block_started(const Block* block) = 0;
    virtual void block_ended(const Block* block) = 0;
    virtual void barrier_released(const Block* block, const void* site) = 0;
    // Before an access: the lane says what it will do.
    virtual void announce(Thread* t, uintptr_t address, size_t bytes, AccessKind kind,
                          const void* site) = 0;
    // The lane resumes and the access happens now.
    virtual void executing(Thread* t) = 0;
    // The lane is back in the emulator: its last store or atomic has happened.
    virtual void settle(Thread* t) = 0;
    // A warp shuffle completed: each lane of `participants` received the value of lane
    // sources[lane] (its coll_result). `site`: the shuffle's call site.
    virtual void shuffled(const Warp& warp, unsigned participants,
                          const std::array<uint8_t, 32>& sources, const void* site) = 0;
    // An mbarrier operation or event (the trace's version 4 mbarrier events).
    virtual void mbarrier_event(const MbarrierNote&) {}
    // The engine found something (finding number `index` of the launch).
    virtual void note_finding(size_t index, const void* site,
                              const std::vector<AccessRecord>& accesses) = 0;
    // The launch ended with `report`: keep or write what was recorded.
    virtual void finish(const FaultReport& report) = 0;
};

// What run_launch calls before a launch: a recorder when the launch is recorded (which may change
// `options`: recorded launches run in lockstep), or an error that rejects the launch (a trace asked
// for where none can be recorded), or neither. Defined in trace_api.cpp or in recording_off.cpp.
struct RecordingStart {
    std::unique_ptr<LaunchRecorder> recorder;
    std::string error;
};
RecordingStart start_recording(const LaunchRequest& request, Options& options);

} // namespace simt::detail
