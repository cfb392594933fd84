// The Chrome trace-event export parses as JSON and holds the block schedule.

#include <doctest/doctest.h>

#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "scanlab/trace/chrome_export.h"
#include "synthetic_traces.h"

using namespace scanlab::trace;

TEST_CASE("look-back trace: blocks on slot tracks, tile flags as instant events") {
    std::ostringstream out;
    export_chrome_trace(testing::lookback_trace(), out);
    const nlohmann::json json = nlohmann::json::parse(out.str());
    REQUIRE(json["traceEvents"].is_array());

    std::map<std::string, int> phases;
    std::map<std::uint32_t, std::string> track_names;
    std::map<std::uint32_t, nlohmann::json> block_spans;
    int flags = 0;
    std::vector<std::string> looks;
    for (const auto& event : json["traceEvents"]) {
        ++phases[event["ph"].get<std::string>()];
        if (event["ph"] == "M" && event["name"] == "thread_name")
            track_names[event["tid"].get<std::uint32_t>()] = event["args"]["name"];
        if (event["ph"] == "X") block_spans[event["args"]["block"].get<std::uint32_t>()] = event;
        if (event["ph"] == "i") {
            CHECK(event["s"] == "t");
            if (event["cat"] == "tile_look")
                looks.push_back(std::to_string(event["args"]["block"].get<int>()) + ":" +
                                event["name"].get<std::string>() + "x" +
                                std::to_string(event["args"]["reads"].get<int>()));
            else
                CHECK(event["cat"] == "tile_flag");
            flags += event["cat"] == "tile_flag" ? 1 : 0;
        }
    }
    CHECK(phases["X"] == 4);
    CHECK(flags == 7); // tile 0: P; tiles 1-3: A then P
    // The fixture's look-back reads, in time order: block 1 polls tile 0 three times, ...
    CHECK(looks == std::vector<std::string>{"1:look at tile 0: Xx3", "1:look at tile 0: Px1",
                                            "3:look at tile 2: Ax1", "2:look at tile 1: Px1",
                                            "3:look at tile 1: Px1"});
    CHECK(track_names == std::map<std::uint32_t, std::string>{{0, "slot 0"}, {1, "slot 1"}});
    // Block 2 reuses slot 0 after block 0 ends.
    CHECK(block_spans[0]["tid"] == 0);
    CHECK(block_spans[2]["tid"] == 0);
    CHECK(block_spans[2]["ts"].get<std::uint64_t>() >=
          block_spans[0]["ts"].get<std::uint64_t>() + block_spans[0]["dur"].get<std::uint64_t>());
    CHECK(block_spans[0]["args"]["recorded_instructions"].get<int>() > 0);
    CHECK(block_spans[3]["args"]["recorded_instructions"] == 0);
    CHECK(json["otherData"]["kernel"] == "lookback_scan");
}

TEST_CASE("without slots, one track per block; an unfinished block ends with the trace") {
    Trace trace = testing::minimal_trace();
    std::get<BlockStart>(trace.block_events[0].what).slot.reset();
    trace.block_events.pop_back(); // no end event: the recording stopped while it ran
    std::ostringstream out;
    export_chrome_trace(trace, out);
    const nlohmann::json json = nlohmann::json::parse(out.str());
    bool found = false;
    for (const auto& event : json["traceEvents"]) {
        if (event["ph"] == "M" && event["name"] == "thread_name")
            CHECK(event["args"]["name"] == "block 0");
        if (event["ph"] == "X") {
            found = true;
            CHECK(event["ts"] == 0);
            CHECK(event["dur"] == trace.instructions.back().time);
        }
    }
    CHECK(found);
}
