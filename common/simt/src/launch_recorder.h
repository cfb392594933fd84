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
