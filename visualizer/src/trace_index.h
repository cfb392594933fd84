#pragma once

// Per-block indices over a trace, built once when it is loaded, so that every view finds a
// block's steps and instructions without scanning the whole trace each frame.

#include <cstdint>
#include <vector>

#include "scanlab/trace/trace.h"

namespace scanlab::view {

// One block that has steps or instructions in the trace.
struct BlockIndex {
    std::uint32_t block = 0;          // linear block index
    std::vector<std::uint32_t> steps; // its steps (indices into Trace::steps), in order
    std::vector<std::uint64_t>
        instructions; // its instructions (into Trace::instructions), in order
    // Instructions of steps[k] are instructions[step_begin[k] .. step_begin[k + 1]).
    std::vector<std::uint32_t> step_begin;
    std::vector<std::uint32_t> objects; // memory objects it accessed, by id
    std::uint32_t warps = 0;            // 1 + the highest warp seen
    std::uint32_t threads = 0;          // 1 + the highest thread seen

    std::uint32_t step_count() const { return static_cast<std::uint32_t>(steps.size()); }
    std::uint32_t instruction_count() const {
        return static_cast<std::uint32_t>(instructions.size());
    }
    std::uint32_t step_end(std::uint32_t step_position) const {
        return step_begin[step_position + 1];
    }
};

// Where a global step or instruction lies: its block (position in TraceIndex::blocks) and its
// position in that block's list.
struct Place {
    std::uint32_t block = 0;
    std::uint32_t position = 0;
};

class TraceIndex {
  public:
    explicit TraceIndex(const trace::Trace& trace);

    const std::vector<BlockIndex>& blocks() const { return blocks_; }
    const BlockIndex& block(std::uint32_t position) const { return blocks_[position]; }
    // The position in blocks() of a linear block index, or -1 when it has nothing recorded.
    int block_position(std::uint32_t block) const;

    Place step_place(std::uint32_t step) const { return step_places_[step]; }
    Place instruction_place(std::uint64_t instruction) const {
        return instruction_places_[instruction];
    }

    std::uint64_t first_time() const { return first_time_; }
    std::uint64_t last_time() const { return last_time_; }

  private:
    std::vector<BlockIndex> blocks_; // sorted by block index
    std::vector<Place> step_places_;
    std::vector<Place> instruction_places_;
    std::uint64_t first_time_ = 0;
    std::uint64_t last_time_ = 0;
};

} // namespace scanlab::view
