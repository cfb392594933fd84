// The look-back model: which block took which tile, and each tile's look-back (its reads in
// order, the reads that make its prefix), on random simulated look-back scans and the fixture.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <map>
#include <numeric>
#include <random>
#include <vector>

#include "loaded_trace.h"
#include "lookback_model.h"
#include "scanlab/trace/validate.h"
#include "test_paths.h"

namespace scanlab::view::test {

namespace {

using trace::TileFlag;

// A decoupled look-back scan played out at random: blocks take tiles in a shuffled order,
// publish A (tile 0: P), and walk back one predecessor at a time, polling while it is X, adding
// A's, stopping at the first P; then publish P. Sometimes a block also reads one tile past the P
// (as the lanes of a window beyond the nearest P do), which is not part of its prefix.
struct Simulation {
    trace::Trace trace;
    std::vector<std::uint32_t> tile_of_block;
    std::vector<int> aggregate;                                                     // by tile
    std::map<std::uint32_t, std::vector<std::pair<std::uint32_t, TileFlag>>> reads; // by tile
    std::map<std::uint32_t, std::uint32_t> stopped_at; // tile -> the predecessor whose P ended it
    std::map<std::uint32_t, std::uint32_t> extra;      // tile -> the read past the P
};

Simulation simulate(std::mt19937& random, std::uint32_t tiles) {
    Simulation s;
    s.trace.launch.kernel = "lookback";
    s.trace.launch.grid = trace::Dim3{tiles, 1, 1};
    s.trace.launch.block = trace::Dim3{32, 1, 1};
    s.tile_of_block.resize(tiles);
    std::iota(s.tile_of_block.begin(), s.tile_of_block.end(), 0u);
    std::shuffle(s.tile_of_block.begin(), s.tile_of_block.end(), random);
    std::vector<std::uint32_t> block_of(tiles);
    for (std::uint32_t b = 0; b < tiles; ++b) block_of[s.tile_of_block[b]] = b;
    s.aggregate.resize(tiles);
    for (int& a : s.aggregate) a = std::uniform_int_distribution<int>(0, 99)(random);

    std::uint64_t time = 0;
    auto push = [&](std::uint32_t block, auto what) {
        s.trace.block_events.push_back(trace::BlockEvent{time++, block, what});
    };
    for (std::uint32_t b = 0; b < tiles; ++b) push(b, trace::BlockStart{});

    std::vector<TileFlag> state(tiles, TileFlag::X);
    std::vector<int> value(tiles, 0);
    std::vector<std::uint32_t> next(tiles); // the predecessor each tile reads next
    std::vector<int> prefix(tiles, 0);
    std::vector<bool> done(tiles, false);
    std::vector<std::size_t> last_look(tiles, 0); // each tile's last look event
    for (std::uint32_t t = 0; t < tiles; ++t) next[t] = t - 1;
    auto publish = [&](std::uint32_t tile, TileFlag flag, int v) {
        state[tile] = flag;
        value[tile] = v;
        push(block_of[tile],
             trace::TileFlagChange{tile, flag, trace::ValueType::i32, trace::ValueBytes::of(v)});
    };
    auto look = [&](std::uint32_t tile, std::uint32_t of) {
        s.reads[tile].push_back({of, state[of]});
        trace::TileLook read{of, state[of], trace::ValueType::none, {}, 1};
        if (state[of] != TileFlag::X) {
            read.value_type = trace::ValueType::i32;
            read.value = trace::ValueBytes::of(value[of]);
        }
        last_look[tile] = s.trace.block_events.size();
        push(block_of[tile], read);
    };
    std::uint32_t finished = 0;
    while (finished < tiles) {
        const auto tile = std::uniform_int_distribution<std::uint32_t>(0, tiles - 1)(random);
        if (done[tile]) continue;
        if (state[tile] == TileFlag::X) {
            publish(tile, tile == 0 ? TileFlag::P : TileFlag::A, s.aggregate[tile]);
        } else if (tile > 0) {
            const std::uint32_t of = next[tile];
            // A repeated X read of the same predecessor is a poll: counted, not a new event.
            if (state[of] == TileFlag::X && !s.reads[tile].empty() &&
                s.reads[tile].back() == std::pair{of, TileFlag::X}) {
                ++std::get<trace::TileLook>(s.trace.block_events[last_look[tile]].what).reads;
                continue;
            }
            look(tile, of);
            if (state[of] == TileFlag::X) continue;
            prefix[tile] += value[of];
            if (state[of] == TileFlag::A) {
                --next[tile];
                continue;
            }
            s.stopped_at[tile] = of;
            if (of > 0 && random() % 2 == 0) {
                look(tile, of - 1);
                s.extra[tile] = of - 1;
            }
            publish(tile, TileFlag::P, prefix[tile] + s.aggregate[tile]);
        }
        if (state[tile] == TileFlag::P) {
            done[tile] = true;
            ++finished;
            push(block_of[tile], trace::BlockEnd{});
        }
    }
    return s;
}

} // namespace

TEST_CASE("look-back model: owners, reads in order, and prefixes of random look-back scans") {
    const auto seed = std::random_device{}();
    INFO("seed " << seed);
    std::mt19937 random(seed);
    std::map<TileFlag, int> kinds_seen;
    for (int round = 0; round < 50; ++round) {
        const auto tiles = std::uniform_int_distribution<std::uint32_t>(2, 12)(random);
        const Simulation s = simulate(random, tiles);
        REQUIRE_NOTHROW(trace::validate_trace(s.trace));
        const LookbackModel model(s.trace);
        CHECK(model.has_reads());
        CHECK(model.tiles().size() == tiles);
        for (std::uint32_t b = 0; b < tiles; ++b) {
            const std::uint32_t tile = s.tile_of_block[b];
            CHECK(model.tiles_of(b) == std::vector<std::uint32_t>{tile});
            CHECK(model.owner_of(tile) == b);
            const TileLookBack* look_back = model.look_back(tile);
            REQUIRE(look_back != nullptr);
            CHECK(look_back->block == b);
            CHECK(look_back->complete);
            // The reads, in the order the block made them, with what each found.
            std::vector<std::pair<std::uint32_t, TileFlag>> reads;
            for (const LookRead& read : look_back->reads) {
                reads.push_back({read.tile, read.look.flag});
                ++kinds_seen[read.look.flag];
                CHECK(s.trace.block_events[read.event].block == b);
            }
            const auto expected = s.reads.count(tile) ? s.reads.at(tile) : decltype(reads){};
            CHECK(reads == expected);
            // The terms: each predecessor from the nearest back to the P, once, by its last read.
            if (tile == 0) {
                CHECK(look_back->terms.empty());
                continue;
            }
            const std::uint32_t stop = s.stopped_at.at(tile);
            REQUIRE(look_back->terms.size() == tile - stop);
            int prefix = 0;
            for (std::size_t k = 0; k < look_back->terms.size(); ++k) {
                const LookRead& term = look_back->reads[look_back->terms[k]];
                CHECK(term.tile == tile - 1 - k);
                CHECK(term.used);
                CHECK(term.look.flag == (term.tile == stop ? TileFlag::P : TileFlag::A));
                int v = 0;
                std::memcpy(&v, term.look.value.bytes.data(), sizeof v);
                prefix += v;
            }
            // The prefix the reads make is the sum of every earlier tile's aggregate.
            CHECK(prefix == std::accumulate(s.aggregate.begin(), s.aggregate.begin() + tile, 0));
            for (const LookRead& read : look_back->reads)
                if (!read.used)
                    CHECK((read.look.flag == TileFlag::X ||
                           (s.extra.count(tile) && read.tile == s.extra.at(tile))));
            REQUIRE(look_back->own_p.has_value());
            const auto& own_p =
                std::get<trace::TileFlagChange>(s.trace.block_events[*look_back->own_p].what);
            int published = 0;
            std::memcpy(&published, own_p.value.bytes.data(), sizeof published);
            CHECK(published == prefix + s.aggregate[tile]);
        }
    }
    CHECK(kinds_seen[TileFlag::X] > 0);
    CHECK(kinds_seen[TileFlag::A] > 0);
    CHECK(kinds_seen[TileFlag::P] > 0);
}

TEST_CASE("look-back model: the fixture's tile 3 adds tile 2's A to tile 1's P") {
    const auto loaded = load_trace(fixture("lookback_4_blocks.trace.json"));
    const LookbackModel& model = loaded->lookback;
    const TileLookBack* tile3 = model.look_back(3);
    REQUIRE(tile3 != nullptr);
    CHECK(tile3->block == 3);
    CHECK(prefix_formula(*tile3) == "P of tile 1 (282) + A of tile 2 (148)");
    const TileLookBack* tile1 = model.look_back(1);
    REQUIRE(tile1 != nullptr);
    REQUIRE(tile1->reads.size() == 2);
    CHECK(read_label(tile1->reads[0].look) == "X (3 reads)");
    CHECK_FALSE(tile1->reads[0].used);
    CHECK(read_label(tile1->reads[1].look) == "P 142");
    CHECK(prefix_formula(*tile1) == "P of tile 0 (142)");
    CHECK(model.look_back(4) == nullptr);
    CHECK(model.tiles_of(7).empty());
}

TEST_CASE("look-back model: a look-back cut short before any P is incomplete") {
    trace::Trace t;
    t.launch.kernel = "cut";
    t.launch.grid = trace::Dim3{3, 1, 1};
    t.block_events = {
        {0, 0, trace::BlockStart{}},
        {1, 0,
         trace::TileFlagChange{2, TileFlag::A, trace::ValueType::i32, trace::ValueBytes::of(5)}},
        {2, 0, trace::TileLook{1, TileFlag::A, trace::ValueType::i32, trace::ValueBytes::of(4), 1}},
        {3, 0, trace::TileLook{0, TileFlag::X, trace::ValueType::none, {}, 7}},
    };
    REQUIRE_NOTHROW(trace::validate_trace(t));
    const LookbackModel model(t);
    const TileLookBack* tile2 = model.look_back(2);
    REQUIRE(tile2 != nullptr);
    CHECK_FALSE(tile2->complete);
    CHECK(prefix_formula(*tile2) == "A of tile 1 (4)");
    CHECK(tile2->reads.size() == 2);
    CHECK(model.owner_of(1) == std::nullopt); // tile 1 was never published in this trace
}

} // namespace scanlab::view::test
