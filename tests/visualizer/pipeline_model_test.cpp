// The pipeline view's model of lab 08's Hopper scan, on the solution's scan of a random number of
// random elements (recorded by visualizer.record with a new seed and n each run, blocks 0 and
// 1): each fill of each stage against the protocol (copied, landed and readable before it is
// read; released before it is refilled), its tiles against the tiles the block's scanners
// stored, and the warp roles. And the errors: a trace without mbarriers, a tampered one. And
// broken attempts, recorded afresh from the solution with a mistake of the catalog written into it
// (visualizer/CMakeLists.txt): the deadlocks' waits that never ended, with what their barrier
// lacked, the reads before a fill was readable, the refill before a release.
#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>
#include <optional>
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
        CHECK(m.early_reads() == 0);
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
        // A stage's release is known from its readers' arrives; where it was refilled, the
        // producer waited on that same barrier before.
        for (std::uint32_t s = 0; s < m.stages.size(); ++s) {
            CAPTURE(s);
            // A stage only ever passed an end marker holds no bytes the trace shows.
            CHECK((m.stages[s].bytes == tile_bytes || m.stages[s].bytes == 0));
            const auto fills = std::count_if(m.fills.begin(), m.fills.end(),
                                             [&](const StageFill& f) { return f.stage == s; });
            const bool read = std::any_of(m.fills.begin(), m.fills.end(), [&](const StageFill& f) {
                return f.stage == s && f.first_read;
            });
            CHECK(m.stages[s].release_barrier.has_value() == (read || fills > 1));
            CHECK(m.stages[s].producer_waits_release == (fills > 1));
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
            CHECK_FALSE(f.read_early);
            CHECK_FALSE(f.refill_early);
            if (f.first_read) {
                ++read_fills;
                CHECK(*f.first_read > *f.full);
                // Released after the last read, when it happened (a last fill too).
                REQUIRE(f.released.has_value());
                CHECK(*f.last_read < *f.released);
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

namespace {

// A broken attempt's trace (visualizer.record), or nullopt when it was not recorded.
std::optional<trace::Trace> mistake_trace(const std::string& tag) {
    const auto path = recorded("lab08_" + tag + ".trace.json");
    if (!std::filesystem::exists(path)) return std::nullopt;
    return trace::read_trace_file(path, viewer_limits());
}

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

// The trace's deadlock finding, if any.
std::optional<std::uint32_t> deadlock_finding(const trace::Trace& trace) {
    for (std::uint32_t f = 0; f < trace.findings.size(); ++f)
        if (trace.findings[f].kind == trace::FindingKind::deadlock) return f;
    return std::nullopt;
}

} // namespace

TEST_CASE("pipeline model: expect_tx over the bytes delivered stalls on the stage's fill") {
    const auto trace = mistake_trace("tx");
    if (!trace) {
        MESSAGE("skipped: the broken lab 08 attempts are not recorded");
        return;
    }
    const PipelineModel m = build_pipeline_model(*trace, 0);
    CHECK_FALSE(m.ended);
    REQUIRE(m.stalls() >= 1);
    // Every consumer that waits on a fill barrier forever: all the arrivals came, fewer bytes
    // landed than were announced, and the fill of that round is never readable.
    std::size_t on_fills = 0;
    for (const PipelineWait& w : m.waits) {
        if (w.completed) continue;
        CAPTURE(w.warp);
        CHECK(w.end == m.end);
        const PipelineBarrier& b = m.barriers[w.barrier];
        if (!b.fills) continue;
        ++on_fills;
        REQUIRE(m.warp(w.warp) != nullptr);
        CHECK(m.warp(w.warp)->role != PipelineRole::producer);
        CHECK(b.open_arrivals == b.arrivals);
        CHECK(b.open_bytes_landed > 0);
        CHECK(b.open_bytes_landed < b.open_bytes_expected);
        // The bytes landed are the round's copies.
        const auto round = static_cast<std::uint32_t>(b.phase_times.size());
        const auto fill = std::find_if(m.fills.begin(), m.fills.end(), [&](const StageFill& f) {
            return f.stage == *b.fills && f.round == round;
        });
        REQUIRE(fill != m.fills.end());
        CHECK(fill->bytes == b.open_bytes_landed);
        CHECK_FALSE(fill->full.has_value());
        const std::string why = stall_reason(m, w);
        CHECK(contains(why, b.name));
        CHECK(contains(why, std::to_string(b.open_bytes_landed) + " of " +
                                std::to_string(b.open_bytes_expected) + " announced bytes"));
    }
    CHECK(on_fills >= 1);
    // The deadlock's report sits on a row of a warp that waits forever.
    const auto deadlock = deadlock_finding(*trace);
    REQUIRE(deadlock.has_value());
    bool marked = false;
    for (const PipelineMark& mark : m.marks)
        if (mark.finding == *deadlock && mark.warp)
            marked = marked || std::any_of(m.waits.begin(), m.waits.end(), [&](auto& w) {
                         return !w.completed && w.warp == *mark.warp;
                     });
    CHECK(marked);
}

TEST_CASE("pipeline model: a wait for the wrong parity reads a stage before it is readable") {
    const auto trace = mistake_trace("parity");
    if (!trace) return;
    const PipelineModel m = build_pipeline_model(*trace, 0);
    REQUIRE(m.early_reads() >= 1);
    std::set<std::uint32_t> early_warps;
    for (const PipelineAccess& r : m.stage_reads) {
        if (!r.early) continue;
        CAPTURE(r.time);
        early_warps.insert(r.warp);
        REQUIRE(m.warp(r.warp) != nullptr);
        CHECK(m.warp(r.warp)->role != PipelineRole::producer);
        // No fill of the stage was readable then: the one begun last was not full yet.
        const StageFill* latest = nullptr;
        for (const StageFill& f : m.fills)
            if (f.stage == r.stage && f.copy && *f.copy <= r.time) latest = &f;
        if (latest) CHECK((!latest->full || *latest->full > r.time));
        if (latest) CHECK(latest->read_early);
    }
    // The warp that read early passed a wait on that stage's fill barrier before its phase
    // completed: the wait for the other parity.
    for (const std::uint32_t warp : early_warps) {
        CAPTURE(warp);
        const bool passed_early = std::any_of(m.waits.begin(), m.waits.end(), [&](auto& w) {
            const PipelineBarrier& b = m.barriers[w.barrier];
            return w.warp == warp && w.completed && b.fills &&
                   (b.phase_times.empty() || b.phase_times.front() > w.end);
        });
        CHECK(passed_early);
    }
}

TEST_CASE("pipeline model: a refill before the release is marked, and the release still known") {
    const auto trace = mistake_trace("refill");
    if (!trace) return;
    const PipelineModel m = build_pipeline_model(*trace, 0);
    std::size_t early_refills = 0;
    for (std::size_t i = 0; i < m.fills.size(); ++i) {
        const StageFill& f = m.fills[i];
        if (!f.refill_early) continue;
        ++early_refills;
        CAPTURE(f.stage);
        REQUIRE(i > 0);
        const StageFill& before = m.fills[i - 1];
        REQUIRE(before.stage == f.stage);
        REQUIRE(f.copy.has_value());
        CHECK((!before.released || *before.released > *f.copy));
        // The release is known from the readers (they arrive on it), not from the producer,
        // which never waited on it.
        CHECK(m.stages[f.stage].release_barrier.has_value());
        CHECK_FALSE(m.stages[f.stage].producer_waits_release);
    }
    CHECK(early_refills >= 1);
    CHECK(m.stalls() >= 1);
}

} // namespace scanlab::view::test
