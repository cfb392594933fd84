// The pipeline view's model of lab 08's Hopper scan, on the solution's scan of a random number of
// random elements (recorded by visualizer.record with a new seed and n each run, blocks 0 and
// 1): each fill of each stage against the protocol (copied, landed and readable before it is
// read; released before it is refilled), its tiles against the tiles the block's scanners
// stored, and the warp roles. And the errors: a trace without mbarriers, a tampered one.
#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>
#include <set>
#include <string>

#include "loaded_trace.h"
#include "pipeline_model.h"
#include "scanlab/trace/reader.h"
#include "test_paths.h"

namespace scanlab::view::test {

namespace {

std::string recorded_text(const std::string& name) {
    std::ifstream in(recorded(name));
    std::string text;
    in >> text;
    return text;
}

std::string error_of(const trace::Trace& trace, std::uint32_t block) {
    try {
        build_pipeline_model(trace, block);
    } catch (const PipelineError& e) {
        return e.what();
    }
    return {};
}

// The tiles (by element offset / tile elements) that `block`'s warps stored into `object`.
std::set<std::uint64_t> stored_tiles(const trace::Trace& trace, std::uint32_t block,
                                     std::uint32_t object, std::uint64_t tile_bytes) {
    std::set<std::uint64_t> tiles;
    for (const trace::WarpInstruction& w : trace.instructions)
        if (w.block == block && w.memory == object && w.kind == trace::AccessKind::store)
            for (const trace::LaneAccess& lane : w.lanes) tiles.insert(lane.offset / tile_bytes);
    return tiles;
}

} // namespace

TEST_CASE("pipeline model: every fill of every stage of a recorded lab 08 scan") {
    const auto path = recorded("lab08.trace.json");
    if (!std::filesystem::exists(path)) {
        MESSAGE("skipped: lab 08 is not recorded (visualizer.record needs scanlab_trace_solution)");
        return;
    }
    const std::string seed = recorded_text("lab09.seed");
    const std::string n = recorded_text("lab08.n");
    CAPTURE(seed);
    CAPTURE(n);
    const trace::Trace trace = trace::read_trace_file(path, viewer_limits());
    REQUIRE(has_pipeline(trace));
    std::uint32_t output = 0;
    for (std::uint32_t i = 0; i < trace.memory.size(); ++i)
        if (trace.memory[i].name.starts_with("argument 1")) output = i;
    std::size_t tiles_in_all = 0;
    std::size_t refills = 0; // how many refills were checked (none when no block took enough tiles)
    for (std::uint32_t block = 0; block < 2; ++block) {
        CAPTURE(block);
        const PipelineModel m = build_pipeline_model(trace, block);
        REQUIRE(m.ended);
        CHECK(m.stalls() == 0);
        // One producer, the warp that issued the copies; at least one look-back and scanner.
        const auto count_role = [&](PipelineRole role) {
            return std::count_if(m.warps.begin(), m.warps.end(),
                                 [&](const PipelineWarp& w) { return w.role == role; });
        };
        CHECK(count_role(PipelineRole::producer) == 1);
        CHECK(count_role(PipelineRole::look_back) >= 1);
        CHECK(count_role(PipelineRole::scanner) >= 1);
        REQUIRE(m.stages.size() >= 2);
        const std::uint32_t tile_bytes = m.stages.front().bytes;
        // A stage's release is known from its refills: the producer waited on it before.
        for (std::uint32_t s = 0; s < m.stages.size(); ++s) {
            CAPTURE(s);
            // A stage only ever passed an end marker holds no bytes the trace shows.
            CHECK((m.stages[s].bytes == tile_bytes || m.stages[s].bytes == 0));
            const auto fills = std::count_if(m.fills.begin(), m.fills.end(),
                                             [&](const StageFill& f) { return f.stage == s; });
            CHECK(m.stages[s].release_barrier.has_value() == (fills > 1));
        }
        std::size_t read_fills = 0;
        for (std::size_t i = 0; i < m.fills.size(); ++i) {
            const StageFill& f = m.fills[i];
            CAPTURE(f.stage);
            CAPTURE(f.round);
            // Filled: the copy lands and completes the phase before anyone reads the stage.
            REQUIRE(f.full.has_value());
            if (f.copy) {
                CHECK(f.bytes == tile_bytes);
                REQUIRE(f.landed.has_value());
                CHECK(*f.copy < *f.landed);
                CHECK(*f.landed <= *f.full);
            }
            if (f.first_read) {
                ++read_fills;
                CHECK(*f.first_read > *f.full);
                // Released only after the last read.
                if (m.stages[f.stage].release_barrier) {
                    REQUIRE(f.released.has_value());
                    CHECK(*f.last_read < *f.released);
                }
            }
            // Refilled only after the release.
            if (i + 1 < m.fills.size() && m.fills[i + 1].stage == f.stage) {
                const StageFill& next = m.fills[i + 1];
                REQUIRE(f.released.has_value());
                const std::uint64_t refill = next.copy ? *next.copy : *next.full;
                CHECK(*f.released < refill);
                ++refills;
            }
        }
        // Each tile the block's scanners stored was one fill that they read.
        const auto tiles = stored_tiles(trace, block, output, tile_bytes);
        CHECK(read_fills == tiles.size());
        tiles_in_all += tiles.size();
    }
    CHECK(tiles_in_all >= 2);
    MESSAGE("lab 08 pipeline: " << tiles_in_all << " tiles, " << refills << " refills checked");
}

TEST_CASE("pipeline model: a trace without mbarriers, and a tampered one, say what they lack") {
    const trace::Trace hillis =
        trace::read_trace_file(fixture("hillis_steele_16.trace.json"), viewer_limits());
    CHECK_FALSE(has_pipeline(hillis));
    CHECK(error_of(hillis, 0).find("has no mbarrier events") != std::string::npos);

    const auto path = recorded("lab08.trace.json");
    if (!std::filesystem::exists(path)) return;
    const trace::Trace trace = trace::read_trace_file(path, viewer_limits());
    // A block that was not recorded.
    CHECK(error_of(trace, trace.launch.grid.x - 1).find("no mbarrier events in this trace") !=
          std::string::npos);
    // The inits removed: barriers used before they exist.
    trace::Trace no_init = trace;
    std::erase_if(no_init.mbarriers,
                  [](const trace::MbarrierEvent& e) { return e.op == trace::MbarrierOp::init; });
    CHECK(error_of(no_init, 0).find("before its init") != std::string::npos);
    // A phase completion removed: the next one is out of order.
    trace::Trace skipped = trace;
    const auto phase = std::find_if(skipped.mbarriers.begin(), skipped.mbarriers.end(),
                                    [](const trace::MbarrierEvent& e) {
                                        return e.block == 0 && e.op == trace::MbarrierOp::complete;
                                    });
    REQUIRE(phase != skipped.mbarriers.end());
    skipped.mbarriers.erase(phase);
    CHECK(error_of(skipped, 0).find("completed after") != std::string::npos);
    // A thread whose wait never succeeded (its later waits on that barrier removed): a stall of
    // its warp.
    trace::Trace stalled = trace;
    const auto poll = std::find_if(stalled.mbarriers.begin(), stalled.mbarriers.end(),
                                   [](const trace::MbarrierEvent& e) {
                                       return e.block == 0 && e.op == trace::MbarrierOp::poll;
                                   });
    REQUIRE(poll != stalled.mbarriers.end());
    const trace::MbarrierEvent spun = *poll;
    std::erase_if(stalled.mbarriers, [&](const trace::MbarrierEvent& e) {
        return e.block == 0 && e.thread == spun.thread && e.barrier == spun.barrier &&
               e.time > spun.time &&
               (e.op == trace::MbarrierOp::wait || e.op == trace::MbarrierOp::poll);
    });
    CHECK(build_pipeline_model(trace, 0).stalls() == 0);
    const PipelineModel with_stall = build_pipeline_model(stalled, 0);
    REQUIRE(with_stall.stalls() == 1);
    for (const PipelineWait& w : with_stall.waits)
        if (!w.completed) {
            CHECK(w.warp == spun.thread / trace::kWarpSize);
            CHECK(w.end == with_stall.end);
            CHECK(w.polls >= spun.count);
        }
    // No bulk copies: no ring of stages.
    trace::Trace no_copies = trace;
    std::erase_if(no_copies.mbarriers, [](const trace::MbarrierEvent& e) {
        return e.op == trace::MbarrierOp::copy || e.op == trace::MbarrierOp::land;
    });
    CHECK(error_of(no_copies, 0).find("issued no bulk copy") != std::string::npos);
}

} // namespace scanlab::view::test
