#pragma once

// Which block took which tile of a look-back scan, and each tile's look-back: the predecessors'
// descriptors its block read (trace look events), in order, and the reads that make its prefix.
// A block owns the tiles it publishes flags for; its look events belong to the tile it published
// last before them (the first one it publishes, for reads before any publication).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "scanlab/trace/trace.h"

namespace scanlab::view {

struct LookRead {
    std::size_t event = 0; // index into Trace::block_events
    std::uint64_t time = 0;
    std::uint32_t tile = 0; // the predecessor whose descriptor was read
    trace::TileLook look;
    bool used = false; // one of the reads the prefix is made of
};

struct TileLookBack {
    std::uint32_t tile = 0;
    std::uint32_t block = 0;          // the block that took the tile
    std::vector<LookRead> reads;      // in time order
    std::vector<std::size_t> terms;   // indices into reads: the nearest predecessor first
    bool complete = false;            // the terms end at a P (or at tile 0)
    std::optional<std::size_t> own_a; // the block event publishing the tile's A, if any
    std::optional<std::size_t> own_p; // ... and its P
};

class LookbackModel {
  public:
    LookbackModel() = default;
    explicit LookbackModel(const trace::Trace& trace);

    // Tiles that some block published a flag for, in increasing order.
    const std::vector<std::uint32_t>& tiles() const { return tiles_; }
    // The tiles a block published flags for (usually one), in the order it took them.
    const std::vector<std::uint32_t>& tiles_of(std::uint32_t block) const;
    std::optional<std::uint32_t> owner_of(std::uint32_t tile) const;
    const TileLookBack* look_back(std::uint32_t tile) const;
    bool has_reads() const { return has_reads_; } // the trace has look events at all

  private:
    std::vector<std::uint32_t> tiles_;
    std::vector<TileLookBack> look_backs_;                                     // by tile, as tiles_
    std::vector<std::pair<std::uint32_t, std::vector<std::uint32_t>>> blocks_; // sorted by block
    bool has_reads_ = false;
};

// "P of tile 1 (282) + A of tile 2 (148)": the terms, the farthest tile first, as the scan
// combines them; empty when there are none.
std::string prefix_formula(const TileLookBack& look_back);
// "A 148", "X", "P 282 (3 reads)".
std::string read_label(const trace::TileLook& look);

// The tile's P against the trace's expected values (format 3): what the reference gives it and
// whether the P it published differs. Empty text when the trace does not say.
struct TileVerdict {
    std::string text;
    bool wrong = false;
};
TileVerdict expected_tile_verdict(const trace::Trace& trace, const TileLookBack& look_back);

} // namespace scanlab::view
