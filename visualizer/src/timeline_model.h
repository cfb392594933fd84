#pragma once

// The block schedule of a trace, derived once at load: each block's run on its resident slot,
// the tile flags (X/A/P) of look-back scans over time, and the spans where a warp was waiting
// (polling one location that kept its value, as a look-back spin does).

#include <cstdint>
#include <optional>
#include <vector>

#include "scanlab/trace/trace.h"

namespace scanlab::view {

struct BlockRun {
    std::uint32_t block = 0;
    std::optional<std::uint32_t> slot;
    std::uint64_t start = 0;
    std::uint64_t end = 0;
    bool ended = false;    // false: still running when the recording stopped
    std::uint32_t row = 0; // its row in the schedule
};

struct FlagSpan {
    std::uint32_t tile = 0;
    trace::TileFlag flag = trace::TileFlag::X;
    std::uint64_t from = 0;
    std::uint64_t to = 0;
    std::optional<std::size_t> event; // the block event that set it; empty for the initial X
};

struct WaitSpan {
    std::uint32_t block = 0;
    std::uint32_t warp = 0;
    std::uint64_t from = 0;
    std::uint64_t to = 0;
    std::uint32_t polls = 0; // instructions that read the same unchanged value
    std::uint64_t first_instruction = 0;
};

class TimelineModel {
  public:
    TimelineModel() = default;
    explicit TimelineModel(const trace::Trace& trace);

    const std::vector<BlockRun>& runs() const { return runs_; }
    // The run of a block, or null when the trace has none for it.
    const BlockRun* run_of(std::uint32_t block) const;
    // Rows of the schedule: resident slots when the trace has them, else one per block.
    std::uint32_t row_count() const { return row_count_; }
    bool rows_are_slots() const { return rows_are_slots_; }

    const std::vector<std::uint32_t>& tiles() const { return tiles_; } // tiles with flag changes
    const std::vector<FlagSpan>& flags() const { return flags_; }      // by tile, then time
    const std::vector<WaitSpan>& waits() const { return waits_; }      // by block, then time

    std::uint64_t first_time() const { return first_time_; }
    std::uint64_t last_time() const { return last_time_; }

  private:
    std::vector<BlockRun> runs_;
    std::vector<std::uint32_t> by_block_; // indices into runs_, sorted by block
    std::uint32_t row_count_ = 0;
    bool rows_are_slots_ = false;
    std::vector<std::uint32_t> tiles_;
    std::vector<FlagSpan> flags_;
    std::vector<WaitSpan> waits_;
    std::uint64_t first_time_ = 0;
    std::uint64_t last_time_ = 0;
};

} // namespace scanlab::view
