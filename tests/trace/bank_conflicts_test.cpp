// Bank conflicts against what Nsight Compute measured on an H200 (DESIGN.md, "Traces").

#include <doctest/doctest.h>

#include <functional>
#include <stdexcept>
#include <vector>

#include "scanlab/trace/analysis.h"
#include "scanlab/trace/bank_conflicts.h"
#include "synthetic_traces.h"

using namespace scanlab::trace;

namespace {

// Lanes in `mask` access the byte address address(lane) with `width` bytes.
BankConflicts warp_access(std::uint32_t width,
                          const std::function<std::uint64_t(std::uint32_t)>& address,
                          std::uint32_t mask = 0xffffffffu) {
    std::vector<LaneAddress> lanes;
    for (std::uint32_t lane = 0; lane < 32; ++lane)
        if (mask & (1u << lane)) lanes.push_back({lane, address(lane)});
    return analyze_bank_conflicts(lanes, width);
}

// Lane i accesses element i * stride of an array of `width`-byte elements.
std::uint32_t strided_conflicts(std::uint32_t width, std::uint32_t stride) {
    return warp_access(width, [&](std::uint32_t i) { return std::uint64_t{i} * stride * width; })
        .conflicts;
}

} // namespace

TEST_CASE("32-bit strides give the conflicts ncu measures") {
    CHECK(strided_conflicts(4, 1) == 0);
    CHECK(strided_conflicts(4, 2) == 1);
    CHECK(strided_conflicts(4, 4) == 3);
    CHECK(strided_conflicts(4, 8) == 7);
    CHECK(strided_conflicts(4, 16) == 15);
    CHECK(strided_conflicts(4, 32) == 31);
    const BankConflicts stride32 = warp_access(4, [](std::uint32_t i) { return 128u * i; });
    CHECK(stride32.wavefronts == 32);
    CHECK(stride32.ideal_wavefronts == 1);
}

TEST_CASE("all lanes on one word is a free broadcast") {
    const BankConflicts same = warp_access(4, [](std::uint32_t) { return 40; });
    CHECK(same.conflicts == 0);
    CHECK(same.wavefronts == 1);
    CHECK(same.phases[0].words_per_bank[10] == 1);
}

TEST_CASE("64-bit strides give the conflicts ncu measures") {
    CHECK(strided_conflicts(8, 1) == 0);
    CHECK(strided_conflicts(8, 2) == 2);
    CHECK(strided_conflicts(8, 16) == 30);
    const BankConflicts stride1 = warp_access(8, [](std::uint32_t i) { return 8u * i; });
    CHECK(stride1.phase_count == 2);
    CHECK(stride1.wavefronts == 2);
    CHECK(stride1.ideal_wavefronts == 2);
    CHECK(stride1.phases[0].lane_mask == 0x0000ffffu);
    CHECK(stride1.phases[1].lane_mask == 0xffff0000u);
}

TEST_CASE("padding i + i/32 removes the power-of-two stride conflicts") {
    for (std::uint32_t stride = 2; stride <= 32; stride *= 2) {
        CAPTURE(stride);
        const BankConflicts padded = warp_access(4, [&](std::uint32_t i) {
            const std::uint64_t index = std::uint64_t{i} * stride;
            return 4 * (index + index / 32);
        });
        CHECK(padded.conflicts == 0);
    }
}

TEST_CASE("broadcasts mixed with distinct words") {
    // Half the warp on word 0, half on words 1..16: no bank holds two distinct words.
    CHECK(warp_access(4, [](std::uint32_t i) { return i < 16 ? 0 : 4 * (i - 15); }).conflicts == 0);
    // Half on word 0, half on word 32: bank 0 holds two words.
    CHECK(warp_access(4, [](std::uint32_t i) { return i < 16 ? 0 : 128; }).conflicts == 1);
    // Lanes spread over words 0, 32, 64, 96, all in bank 0.
    const BankConflicts four = warp_access(4, [](std::uint32_t i) { return 128 * (i % 4); });
    CHECK(four.conflicts == 3);
    CHECK(four.phases[0].words_per_bank[0] == 4);
    // Stride 2 with pairs of lanes on one word: 16 words on even banks, one each.
    CHECK(warp_access(4, [](std::uint32_t i) { return 8 * (i / 2); }).conflicts == 0);
}

TEST_CASE("inactive lanes do not count") {
    const auto stride32 = [](std::uint32_t i) { return 128u * i; };
    CHECK(warp_access(4, stride32, 0x0000000fu).conflicts == 3);
    CHECK(warp_access(4, stride32, 0x00000001u).conflicts == 0);
    const BankConflicts none = warp_access(4, stride32, 0);
    CHECK(none.wavefronts == 0);
    CHECK(none.ideal_wavefronts == 0);
    CHECK(none.conflicts == 0);
    // 64-bit with only the first half-warp active: one phase, ideal 1.
    const BankConflicts half = warp_access(
        8, [](std::uint32_t i) { return 8u * i; }, 0x0000ffffu);
    CHECK(half.wavefronts == 1);
    CHECK(half.ideal_wavefronts == 1);
    CHECK(half.conflicts == 0);
}

TEST_CASE("16-byte accesses are served by quarter-warps") {
    const BankConflicts stride1 = warp_access(16, [](std::uint32_t i) { return 16u * i; });
    CHECK(stride1.phase_count == 4);
    CHECK(stride1.wavefronts == 4);
    CHECK(stride1.ideal_wavefronts == 4);
    CHECK(stride1.conflicts == 0);
    CHECK(strided_conflicts(16, 2) == 4);
}

TEST_CASE("narrow accesses share words") {
    // 32 consecutive bytes are 8 words: one wavefront.
    CHECK(warp_access(1, [](std::uint32_t i) { return i; }).conflicts == 0);
    // 2-byte accesses 128 bytes apart: 32 distinct words in bank 0.
    CHECK(warp_access(2, [](std::uint32_t i) { return 128u * i; }).conflicts == 31);
}

TEST_CASE("per-lane banks and distinct words per bank") {
    const BankConflicts stride2 = warp_access(4, [](std::uint32_t i) { return 8u * i; });
    for (std::uint32_t lane = 0; lane < 32; ++lane)
        CHECK(stride2.lane_bank[lane] == (2 * lane) % 32);
    for (std::uint32_t bank = 0; bank < 32; ++bank)
        CHECK(stride2.phases[0].words_per_bank[bank] == (bank % 2 == 0 ? 2 : 0));
    CHECK(stride2.active_mask == 0xffffffffu);
    CHECK(bank_of(4 * 33) == 1);
}

TEST_CASE("bad arguments are refused") {
    const std::vector<LaneAddress> ok{{0, 0}};
    CHECK_THROWS_AS(analyze_bank_conflicts(ok, 3), std::invalid_argument);
    const std::vector<LaneAddress> big_lane{{32, 0}};
    CHECK_THROWS_AS(analyze_bank_conflicts(big_lane, 4), std::invalid_argument);
    const std::vector<LaneAddress> twice{{1, 0}, {1, 4}};
    CHECK_THROWS_AS(analyze_bank_conflicts(twice, 4), std::invalid_argument);
    // Addresses near 2^64 must not wrap.
    const std::vector<LaneAddress> top{{0, ~std::uint64_t{0} - 15}};
    CHECK(analyze_bank_conflicts(top, 16).wavefronts == 1);
}

TEST_CASE("Harris's prescan of 2048 ints: 945 store conflicts, 15 padded (ncu on an H200)") {
    const TraceAnalysis plain = analyze_trace(testing::harris_prescan_trace(false));
    const TraceAnalysis padded = analyze_trace(testing::harris_prescan_trace(true));
    CHECK(plain.launch.store.conflicts == 945);
    CHECK(padded.launch.store.conflicts == 15);
    // Totals per step add up to the launch's.
    ConflictTotals sum;
    for (const SharedTotals& step : plain.steps) sum += step.all();
    CHECK(sum == plain.launch.all());
}
