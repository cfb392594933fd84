#pragma once

// Builds a Trace the way the emulator's recorder does: scheduler ticks, a step per barrier epoch
// of each block, thread indices, and the last writer of every byte for loads. For synthetic
// traces in tests and viewer fixtures.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "scanlab/trace/trace.h"

namespace scanlab::trace::testing {

class TraceRecorder {
  public:
    explicit TraceRecorder(LaunchInfo launch);

    // A source file that locations can point into; returns its id.
    std::uint32_t add_source(std::string path, std::string_view text);
    // `line` of source `file`; the line's text joins the trace.
    SourceLocation at(std::uint32_t file, std::uint32_t line);

    std::uint32_t add_shared(std::string name, std::uint32_t block, std::uint64_t base,
                             std::uint64_t size, std::string element_type,
                             std::uint32_t element_size);
    std::uint32_t add_global(std::string name, std::uint64_t size, std::string element_type,
                             std::uint32_t element_size);

    struct Lane {
        std::uint32_t lane = 0;
        std::uint64_t offset = 0;
        ValueBytes value{};
        ValueBytes old{}; // atomics
    };

    // One warp access in the block's current step, one tick after the previous record. Returns
    // the instruction's index.
    std::uint64_t access(std::uint32_t block, std::uint32_t warp, SourceLocation where,
                         AccessKind kind, std::uint32_t memory, std::uint32_t width, ValueType type,
                         const std::vector<Lane>& lanes);
    // __syncthreads() of `block`: ends its current step.
    void barrier(std::uint32_t block, SourceLocation where);

    void block_start(std::uint32_t block, std::optional<std::uint32_t> slot);
    void block_end(std::uint32_t block);
    void tile_flag(std::uint32_t block, std::uint32_t tile, TileFlag flag, ValueType type,
                   ValueBytes value);

    // `block` read the descriptor of `tile` and found `flag` (and `value` unless type is none),
    // `reads` times in a row.
    void tile_look(std::uint32_t block, std::uint32_t tile, TileFlag flag, ValueType type,
                   ValueBytes value, std::uint64_t reads = 1);

    Trace finish(std::optional<Truncation> truncated = std::nullopt);

  private:
    std::uint32_t current_step(std::uint32_t block);

    Trace trace_;
    std::uint64_t tick_ = 0;
    std::vector<std::vector<std::string>> source_lines_;         // per file, all of its lines
    std::unordered_map<std::uint32_t, std::uint32_t> open_step_; // block -> step not yet ended
    std::map<std::pair<std::uint32_t, std::uint64_t>, WriterRef> last_writer_; // (memory, byte)
};

} // namespace scanlab::trace::testing
