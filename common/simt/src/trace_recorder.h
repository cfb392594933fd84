// Records one launch as a scanlab::trace::Trace: the warp instructions of the chosen blocks
// (grouped in lockstep rounds), their lanes' offsets, values and writers, the barrier steps, and
// every block's start and end.
#pragma once

#include <scanlab/trace/trace.h>

#include <deque>
#include <map>
#include <optional>
#include <unordered_map>
#include <vector>

#include "engine.h"
#include "launch_recorder.h"
#include "simt/trace.h"

namespace simt::detail {

class TraceRecorder final : public LaunchRecorder {
  public:
    TraceRecorder(const TraceSettings& settings, const LaunchRequest& request,
                  const Options& options);
    bool records(const Block* block) const;
    void block_started(const Block* block) override;
    void block_ended(const Block* block) override;
    void barrier_released(const Block* block, const void* site) override;
    // Before an access: the lane says what it will do.
    void announce(Thread* t, uintptr_t address, size_t bytes, AccessKind kind,
                  const void* site) override;
    // The lane resumes and the access happens now: a load's value is what memory holds.
    void executing(Thread* t) override;
    // The lane is back in the emulator: its last store or atomic has happened.
    void settle(Thread* t) override;
    // A warp shuffle of a recorded block: one entry of the trace's shuffles.
    void shuffled(const Warp& warp, unsigned participants, const std::array<uint8_t, 32>& sources,
                  const void* site) override;
    // An mbarrier operation of a recorded block: one entry of the trace's mbarriers; a thread's
    // failed polls of one barrier in a row are one entry that counts them.
    void mbarrier_event(const MbarrierNote& note) override;
    // The engine found something (finding number `index` of the launch): where the accesses it
    // names lie in the trace, taken now while their blocks are resident.
    void note_finding(size_t index, const void* site,
                      const std::vector<AccessRecord>& accesses) override;
    // `report`: the launch's findings, which the trace carries. The trace goes to the session.
    void finish(const FaultReport& report) override;
    scanlab::trace::Trace take_trace(const FaultReport& report);

  private:
    struct Open {
        uint32_t seq;
        const void* site;
        uint32_t memory;
        AccessKind kind;
        uint32_t width;
        uint64_t instruction;
    };
    // Where a finding's access lies in the trace (instruction: before fusing).
    struct AccessRef {
        std::optional<uint32_t> memory;
        uint64_t offset = 0;
        std::optional<uint64_t> instruction;
        std::optional<uint32_t> step;
        const void* site = nullptr;
    };
    struct FindingRefs {
        const void* site = nullptr;
        std::vector<AccessRef> accesses;
    };
    uint32_t shared_object(const Block* b, size_t allocation);
    // The shared allocation of `b` that holds `address` (the last one that does, as before), and
    // the offset in it; none outside all.
    std::optional<std::pair<size_t, uint64_t>> shared_allocation_at(const Block* b,
                                                                    uintptr_t address);
    // The same as a memory object of the trace.
    std::optional<scanlab::trace::MemoryPlace> shared_place(const Block* b, uintptr_t address);
    AccessRef locate_access(const AccessRecord& access);
    // Returns each instruction's index after fusing (old index -> new index).
    std::vector<uint64_t> fuse_vector_pairs();
    void tile_status_changed(Thread* t);
    void tile_status_read(Thread* t);
    uint32_t global_object(const Region* r);
    // The expected values registered with simt::trace_expected for the objects this launch wrote.
    void attach_expected();

    TraceSettings settings_;
    const LaunchRequest& request_;
    scanlab::trace::Trace trace_;
    uint64_t tick_ = 0;
    std::vector<const void*> instruction_sites_;
    std::vector<const void*> step_sites_;
    std::vector<const void*> shuffle_sites_;
    std::vector<const void*> mbarrier_sites_;
    std::map<std::pair<unsigned, unsigned>, size_t> last_mbarrier_; // (block, thread) -> event
    std::map<unsigned, uint32_t> current_step_;                     // block -> step index
    std::map<std::pair<unsigned, size_t>, uint32_t> shared_ids_;    // (block, allocation) -> object
    std::map<uint64_t, uint32_t> global_ids_;                       // region serial -> object
    std::map<uint64_t, uintptr_t> global_bases_;
    std::unordered_map<uint64_t, std::deque<Open>> open_; // per (block, warp)
    // How often each lane has reached each access site in the current step: the k-th execution
    // of a site by every lane of a warp is one warp instruction, as on a GPU, where a lane that
    // skips a conditional access is predicated off and stays in step with the others.
    std::unordered_map<const Thread*, std::vector<std::pair<const void*, uint32_t>>> site_counts_;
    std::unordered_map<uintptr_t, scanlab::trace::WriterRef> writers_; // per 4-byte word
    // (block, tile) -> the block's last look event at the tile, which repeated reads extend.
    std::map<std::pair<unsigned, uint32_t>, size_t> last_look_;
    std::vector<bool> slots_;
    std::map<unsigned, uint32_t> slot_of_;
    bool cut_ = false;
    std::map<size_t, FindingRefs> finding_refs_; // by finding index
};

} // namespace simt::detail
