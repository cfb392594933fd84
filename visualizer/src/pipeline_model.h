#pragma once

// Lab 08's pipeline as one block ran it, read back from a trace's mbarrier events (format 4) and
// accesses: per warp, when it waited on a barrier (and how long the wait spun), when it arrived,
// when it read a stage of the ring and the tile descriptors; per stage, each fill: the bulk copy
// issued, its bytes landed, the phase that made the stage readable, the reads, and the phase of
// the barrier that released the stage for its next fill. The pipeline view draws it.
//
// Only what the trace records: a barrier's role comes from what happens to it. A barrier that
// bulk copies complete on guards a stage (its copies' destination); the barrier the producer
// waited on before it refilled that stage is the stage's release, and where it never did, the
// barrier that the warp reading a fill last arrives on next. Warp roles likewise: the warp
// that issues the bulk copies is the producer, a warp that loads global memory outside them
// reads tile descriptors (the look-back), a warp whose global stores all go to memory the
// look-back reads publishes aggregates (the reducer), a warp that stores elsewhere (the results)
// is a scanner, and one that stored nothing (a broken run that stopped first) a consumer.

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "scanlab/trace/trace.h"

namespace scanlab::view {

// Why a trace (or a block of it) cannot be shown as a pipeline; the message says what it saw.
struct PipelineError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

enum class PipelineRole { producer, look_back, reducer, scanner, consumer };
const char* role_name(PipelineRole role);

struct PipelineWarp {
    std::uint32_t warp = 0;
    PipelineRole role = PipelineRole::scanner;
};

struct PipelineBarrier {
    trace::MemoryPlace place;
    std::string name;                       // "s+40960": its object and offset
    std::uint32_t arrivals = 0;             // per phase, from its init
    std::optional<std::uint32_t> fills;     // a stage's fill barrier: that stage
    std::optional<std::uint32_t> releases;  // a stage's release barrier: that stage
    std::vector<std::uint64_t> phase_times; // when phase 0, 1, ... completed
    // The phase still open at the block's end (or the trace's): what it had, what it lacked.
    std::uint32_t open_arrivals = 0;       // arrivals counted in it
    std::uint64_t open_bytes_expected = 0; // bytes announced in it (arrive_expect_tx, expect_tx)
    std::uint64_t open_bytes_landed = 0;   // bytes of copies that landed in it
    std::vector<std::uint32_t> arrivers;   // the warps that ever arrived on it, in order
    // Where the stages' fill barriers are one array (stage s at the first's place + 8 s), other
    // barriers laid out the same way (full[s], empty[s], ...): array 0 is the fill barriers'.
    std::optional<std::uint32_t> stage_place;
    std::uint32_t array = 0;
};

// One warp's wait for a phase of a barrier: its lanes' waits, from the first lane's first poll to
// the last lane's success. `spun`: some lane's wait failed at least once first.
struct PipelineWait {
    std::uint32_t warp = 0;
    std::uint32_t barrier = 0; // index into PipelineModel::barriers
    std::uint32_t parity = 0;
    std::uint64_t begin = 0;
    std::uint64_t end = 0;   // the last success; the trace's end for a wait that never ended
    bool completed = true;   // false: a lane's wait never returned true (a stall)
    std::uint64_t polls = 0; // failed polls of all its lanes
};

struct PipelineArrive {
    std::uint32_t warp = 0;
    std::uint32_t barrier = 0;
    std::uint64_t time = 0; // the warp's first arrive of this phase
};

// A warp's accesses of one kind: reads of a stage during one fill, or descriptor accesses.
struct PipelineAccess {
    std::uint32_t warp = 0;
    std::uint64_t time = 0;
    bool store = false;
    std::uint64_t instruction = 0;
    std::uint32_t stage = 0; // a stage read: its stage
    bool early = false;      // a stage read before the phase that made its fill readable
};

// One fill of a stage: the phase `round` of its fill barrier.
struct StageFill {
    std::uint32_t stage = 0;
    std::uint32_t round = 0;
    std::optional<std::uint64_t> copy;   // the bulk copy issued (none: filled by plain stores)
    std::optional<std::uint64_t> landed; // its bytes landed
    std::uint32_t bytes = 0;             // copied
    std::optional<std::uint64_t> full;   // the fill barrier's phase completed: readable
    std::optional<std::uint64_t> first_read;
    std::optional<std::uint64_t> last_read;
    std::optional<std::uint64_t> released; // the release barrier's phase `round` completed
    bool read_early = false;               // read before `full` (or its phase never completed)
    bool refill_early = false; // this fill's copy was issued before the previous fill's release
};

struct Stage {
    std::uint32_t fill_barrier = 0;
    // The barrier whose phase frees the stage: the one its last readers arrive on after reading
    // it (each fill's release is known when it happens), else the one the producer waited on
    // before refilling it.
    std::optional<std::uint32_t> release_barrier;
    bool producer_waits_release = false; // the producer waited on release_barrier to refill it
    trace::MemoryPlace data;             // where the copies put the stage's bytes
    std::uint32_t bytes = 0;             // the largest copy into it
};

// A finding of the block, where it lies on the rows (a deadlock: at the end, on each waiting warp).
struct PipelineMark {
    std::uint32_t finding = 0;
    std::optional<std::uint32_t> warp;
    std::uint64_t time = 0;
};

struct PipelineModel {
    std::uint32_t block = 0;
    std::uint64_t begin = 0; // the block's start (or its first event)
    std::uint64_t end = 0;   // its end, or the trace's last event
    bool ended = false;      // the block's end is in the trace
    // The last tick at which the block did more than poll (an arrive, a completion, a copy, a
    // successful wait, a store): in a deadlock, only failed polls and reads come after it.
    std::uint64_t active_end = 0;
    std::vector<PipelineWarp> warps; // the warps that used a barrier, by warp index
    std::vector<PipelineBarrier> barriers;
    std::vector<Stage> stages;    // by the fill barrier's place
    std::vector<StageFill> fills; // by stage, then round
    std::vector<PipelineWait> waits;
    std::vector<PipelineArrive> arrives;
    std::vector<PipelineAccess> stage_reads; // consumers' shared loads of a stage's bytes
    std::vector<PipelineAccess> descriptors; // the look-back's and reducer's global accesses
    std::vector<PipelineMark> marks;

    const PipelineWarp* warp(std::uint32_t index) const;
    std::size_t stalls() const;      // waits that never completed
    std::size_t early_reads() const; // stage reads before their fill was readable
    bool died_early = false;         // no bulk copy, but the block has findings: drawn anyway
};

// What a wait that never completed lacked, in words ("phase 0 of s+41040 had 0 of 1 arrivals
// ..."): the barrier's open phase at the end of the block, and the warps that arrived on it.
std::string stall_reason(const PipelineModel& m, const PipelineWait& wait);

// Whether the trace has mbarrier events at all (format 4): the view is offered only then.
bool has_pipeline(const trace::Trace& trace);
// The pipeline of `block`; throws PipelineError when the block has no mbarrier events or they
// do not describe a ring of stages (a foreign or tampered trace).
PipelineModel build_pipeline_model(const trace::Trace& trace, std::uint32_t block);

} // namespace scanlab::view
