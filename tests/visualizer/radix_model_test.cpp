// The radix view's model of lab 09's one-sweep passes, on the solution's sort of random keys
// (recorded by visualizer.record with a new seed each run, every block, shuffled dispatch): each
// tile's keys and digits, their places after the rank, each digit's look-back and the scatter's
// positions, against what the host computes from the tiles' keys. And the errors: another
// kernel, another lab, a trace cut short.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <map>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

#include "loaded_trace.h"
#include "radix_pass_model.h"
#include "scanlab/trace/reader.h"
#include "test_paths.h"

namespace scanlab::view::test {

namespace {

std::string lab09_seed() {
    std::ifstream in(recorded("lab09.seed"));
    std::string seed;
    in >> seed;
    return seed;
}

trace::Trace read_recorded(const std::string& name) {
    return trace::read_trace_file(recorded(name), viewer_limits());
}

std::string error_of(const trace::Trace& trace, std::uint32_t block) {
    try {
        build_radix_pass_model(trace, block);
    } catch (const RadixPassError& e) {
        return e.what();
    }
    return {};
}

std::uint32_t digit_of(std::uint32_t bits, std::uint32_t shift) {
    return (bits >> shift) & (kRadixDigits - 1);
}

// Key indices 0..keys.size()-1 in a stable order by digit: where a correct pass puts each.
std::vector<std::uint32_t> stable_by_digit(const std::vector<std::uint32_t>& keys,
                                           std::uint32_t shift) {
    std::vector<std::uint32_t> order(keys.size());
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
        return digit_of(keys[a], shift) < digit_of(keys[b], shift);
    });
    return order;
}

} // namespace

TEST_CASE("radix model: every tile of the four passes of a recorded lab 09 sort") {
    if (!std::filesystem::exists(recorded("lab09.trace.2.json"))) {
        MESSAGE("skipped: lab 09 is not recorded (visualizer.record needs scanlab_trace_solution)");
        return;
    }
    const std::string seed = lab09_seed();
    CAPTURE(seed);
    std::optional<std::vector<std::uint32_t>> previous_output; // the last pass's, by position
    for (std::uint32_t pass = 0; pass < 4; ++pass) {
        CAPTURE(pass);
        const trace::Trace trace =
            read_recorded("lab09.trace." + std::to_string(pass + 2) + ".json");
        REQUIRE(is_radix_pass(trace));
        const auto blocks = static_cast<std::uint32_t>(trace.launch.grid.count());
        REQUIRE(blocks >= 3);
        std::map<std::uint32_t, RadixPassModel> by_tile;
        for (std::uint32_t block = 0; block < blocks; ++block) {
            RadixPassModel model = build_radix_pass_model(trace, block);
            CHECK(model.block == block);
            CHECK(model.shift == pass * kRadixDigitBits);
            CHECK(model.output_length == std::uint64_t{blocks} * kRadixTileKeys);
            const std::uint32_t tile = model.tile;
            CHECK(by_tile.emplace(tile, std::move(model)).second); // each tile taken once
        }
        REQUIRE(by_tile.size() == blocks);
        REQUIRE(by_tile.rbegin()->first == blocks - 1);
        const std::uint32_t shift = pass * kRadixDigitBits;

        // The pass's keys in input order: tile after tile, each in its load order.
        std::vector<std::uint32_t> keys;
        for (const auto& [tile, model] : by_tile)
            for (const RadixKey& key : model.keys) keys.push_back(key.bits);
        if (previous_output) CHECK(keys == *previous_output); // the last pass's output, as loaded

        // Counts of each digit per tile, and before each tile.
        std::vector<std::vector<std::uint32_t>> counts(blocks,
                                                       std::vector<std::uint32_t>(kRadixDigits));
        for (std::size_t k = 0; k < keys.size(); ++k)
            ++counts[k / kRadixTileKeys][digit_of(keys[k], shift)];

        const std::vector<std::uint32_t> global = stable_by_digit(keys, shift);
        std::vector<std::uint32_t> position_of(keys.size());
        for (std::uint32_t p = 0; p < global.size(); ++p) position_of[global[p]] = p;
        std::vector<std::uint32_t> output(keys.size(), 0);
        std::vector<bool> written(keys.size(), false);
        std::size_t reads_of_a = 0;
        for (const auto& [tile_number, model] : by_tile) {
            const std::uint32_t tile = tile_number; // a variable CAPTURE can take (not a binding)
            CAPTURE(tile);
            const std::vector<std::uint32_t> tile_keys(
                keys.begin() + std::int64_t{tile} * kRadixTileKeys,
                keys.begin() + std::int64_t{tile + 1} * kRadixTileKeys);
            // The rank: a stable order of the tile's keys by digit.
            const std::vector<std::uint32_t> local = stable_by_digit(tile_keys, shift);
            for (std::uint32_t place = 0; place < kRadixTileKeys; ++place) {
                const RadixKey& key = model.keys[local[place]];
                CHECK(key.place == place);
                CHECK(key.digit == digit_of(key.bits, shift));
            }
            std::vector<std::uint32_t> before(kRadixDigits, 0);
            for (std::uint32_t t = 0; t < tile; ++t)
                for (std::uint32_t d = 0; d < kRadixDigits; ++d) before[d] += counts[t][d];
            for (std::uint32_t d = 0; d < kRadixDigits; ++d) {
                CAPTURE(d);
                const DigitLookBack& look = model.digits[d];
                CHECK(look.keys == counts[tile][d]);
                REQUIRE(look.inclusive.has_value());
                CHECK(*look.inclusive == before[d] + counts[tile][d]);
                if (tile == 0) {
                    CHECK(look.reads.empty());
                    CHECK_FALSE(look.aggregate.has_value());
                    continue;
                }
                REQUIRE(look.aggregate.has_value());
                CHECK(*look.aggregate == counts[tile][d]);
                CHECK(look.prefix() == before[d]);
                // The walk: from the tile before, never forward, ending at a P.
                REQUIRE_FALSE(look.reads.empty());
                CHECK(look.reads.front().tile == tile - 1);
                for (std::size_t r = 1; r < look.reads.size(); ++r)
                    CHECK(look.reads[r].tile <= look.reads[r - 1].tile);
                CHECK(look.reads.back().flag == trace::TileFlag::P);
                for (const DescriptorRead& read : look.reads) {
                    if (read.flag == trace::TileFlag::A) {
                        ++reads_of_a;
                        CHECK(read.count == counts[read.tile][d]); // an A is that tile's count
                    }
                    if (read.flag == trace::TileFlag::P) {
                        std::uint32_t through = 0; // a P counts the digit up to that tile
                        for (std::uint32_t t = 0; t <= read.tile; ++t) through += counts[t][d];
                        CHECK(read.count == through);
                    }
                }
            }
            // The scatter: every key where the stable sort of the whole pass puts it.
            for (std::uint32_t k = 0; k < kRadixTileKeys; ++k) {
                const std::uint32_t index = tile * kRadixTileKeys + k;
                REQUIRE(model.keys[k].position.has_value());
                CHECK(*model.keys[k].position == position_of[index]);
                output[*model.keys[k].position] = model.keys[k].bits;
                written[*model.keys[k].position] = true;
            }
        }
        CHECK(std::all_of(written.begin(), written.end(), [](bool w) { return w; }));
        MESSAGE("pass " << pass << ": " << reads_of_a << " look-back reads found an A");
        previous_output = output;
    }
    // After the last pass the bits are in order (sort-order bits, before the last flip).
    REQUIRE(previous_output.has_value());
    CHECK(std::is_sorted(previous_output->begin(), previous_output->end()));
}

TEST_CASE("radix model: another kernel, an unrecorded block and a trace cut short are refused") {
    if (!std::filesystem::exists(recorded("lab09.trace.json"))) {
        MESSAGE("skipped: lab 09 is not recorded (visualizer.record needs scanlab_trace_solution)");
        return;
    }
    CAPTURE(lab09_seed());
    // Lab 09's own histogram launch, and another lab's kernel.
    for (const char* name :
         {"lab09.trace.json", "lab09.trace.1.json", "hillis_steele_16.trace.json"}) {
        CAPTURE(name);
        const trace::Trace trace = read_recorded(name);
        CHECK_FALSE(is_radix_pass(trace));
        const std::string error = error_of(trace, 0);
        CHECK(error.find("onesweep_kernel") != std::string::npos);
        CHECK(error.find("lab09.trace.2.json") != std::string::npos);
    }
    const trace::Trace pass = read_recorded("lab09.trace.2.json");
    const auto blocks = static_cast<std::uint32_t>(pass.launch.grid.count());
    CHECK(error_of(pass, blocks).find("was not recorded") != std::string::npos);

    // Cut at 3000 warp instructions: the first pass records blocks until then.
    const trace::Trace cut = read_recorded("lab09_cut.trace.2.json");
    REQUIRE(cut.truncated.has_value());
    std::size_t refused = 0;
    for (std::uint32_t block = 0; block < blocks; ++block) {
        const std::string error = error_of(cut, block);
        CAPTURE(error);
        if (error.empty()) continue;
        ++refused;
        CHECK(error.find("the trace was cut") != std::string::npos);
        CHECK(error.find("--max-instructions") != std::string::npos);
    }
    CHECK(refused > 0);
}

} // namespace scanlab::view::test
