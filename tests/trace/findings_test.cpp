// Findings (format version 2): they round-trip, the writer refuses findings whose references do
// not hold, and the reader reads version 1 documents (no findings) and refuses findings in them.

#include <doctest/doctest.h>

#include <functional>
#include <random>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "scanlab/trace/error.h"
#include "scanlab/trace/reader.h"
#include "scanlab/trace/writer.h"
#include "synthetic_traces.h"
#include "trace_text.h"

using namespace scanlab::trace;
using testing::error_after;
using testing::read_error;
using testing::text_of;
using testing::write_error;
using Json = nlohmann::ordered_json; // keeps "format" and "version" first

namespace {

// The minimal example (4 threads reverse s through shared memory) with a race planted on s[2]:
// thread 1 loads it in instruction 2 (step 1), thread 2 stored it in instruction 1 (step 0).
Trace with_race() {
    Trace trace = testing::minimal_trace();
    Finding race;
    race.kind = FindingKind::shared_race;
    race.message = "simt: shared memory race in kernel reverse4\n  ...\n";
    race.source = SourceLocation{0, 7};
    race.accesses.push_back(
        {0, 1, FindingRole::load, 2, 8, 4, SourceLocation{0, 7}, InstructionLane{2, 1}, 1});
    race.accesses.push_back(
        {0, 2, FindingRole::store, 2, 8, 4, SourceLocation{0, 5}, InstructionLane{1, 2}, 0});
    trace.findings.push_back(race);
    // A deadlock of a block that was not recorded: waits with no references.
    Finding deadlock;
    deadlock.kind = FindingKind::deadlock;
    deadlock.ends_launch = true;
    deadlock.message = "simt: deadlock in kernel reverse4\n";
    deadlock.accesses.push_back(
        {0, 3, FindingRole::wait, std::nullopt, 0, 0, SourceLocation{0, 6}, std::nullopt, 1});
    trace.findings.push_back(deadlock);
    return trace;
}

} // namespace

TEST_CASE("findings round-trip with their accesses and references") {
    const Trace trace = with_race();
    const std::string text = text_of(trace);
    CHECK(text.find("\"version\": 4") != std::string::npos);
    CHECK(text.find("\"kind\": \"shared_race\"") != std::string::npos);
    CHECK(read_trace_text(text) == trace);
    // Random message text survives (the report is printed as it is).
    std::mt19937 rng(std::random_device{}());
    Trace other = trace;
    other.findings[0].message.clear();
    for (int i = 0; i < 200; ++i)
        other.findings[0].message +=
            static_cast<char>(std::uniform_int_distribution<int>(32, 126)(rng));
    other.findings[0].message += "\n\ttab";
    CHECK(read_trace_text(text_of(other)) == other);
}

TEST_CASE("a trace without findings writes an empty array") {
    const std::string text = text_of(testing::minimal_trace());
    CHECK(text.find("\"findings\": []") != std::string::npos);
    CHECK(read_trace_text(text).findings.empty());
}

TEST_CASE("the writer refuses findings whose references do not hold") {
    Trace t = with_race();
    t.findings[0].accesses[0].recorded->instruction = 9;
    CHECK(write_error(t) ==
          "findings[0].accesses[0].instruction: 9 is not an instruction id (0..3)");
    t = with_race();
    t.findings[0].accesses[0].recorded->lane = 3; // lane 3 is thread 3, not thread 1
    CHECK(write_error(t) ==
          "findings[0].accesses[0].lane: instruction 2 has no lane 3 of thread 1");
    t = with_race();
    t.findings[0].accesses[0].thread = 9;
    CHECK(write_error(t) ==
          "findings[0].accesses[0].thread: 9 is not a thread of a 4-thread block");
    t = with_race();
    t.findings[0].accesses[1].block = 1;
    CHECK(write_error(t) == "findings[0].accesses[1].block: 1 is not a block of the grid (0..0)");
    t = with_race();
    t.findings[0].accesses[0].offset = 14;
    CHECK(write_error(t) == "findings[0].accesses[0].offset: bytes 14..18 (end excluded) are "
                            "outside memory[2] \"s\" (16 bytes)");
    t = with_race();
    t.findings[0].accesses[0].memory = 0;
    CHECK(write_error(t) ==
          "findings[0].accesses[0].memory: 0, but instruction 2 accesses memory[2]");
    t = with_race();
    t.findings[0].accesses[0].step = 0;
    CHECK(write_error(t) == "findings[0].accesses[0].step: 0, but instruction 2 is in step 1");
    t = with_race();
    t.findings[1].accesses[0].step = 7;
    CHECK(write_error(t) == "findings[1].accesses[0].step: 7 is not a step id (0..1)");
    t = with_race();
    t.findings[1].accesses[0].bytes = 4;
    CHECK(write_error(t) ==
          "findings[1].accesses[0].bytes: 4 bytes, but a wait accesses no memory");
    t = with_race();
    t.findings[0].source = SourceLocation{0, 1};
    CHECK(write_error(t) ==
          "findings[0].source.line: line 1 is not in sources[0].lines (examples/reverse4.cu)");
    t = with_race();
    t.findings[0].message.clear();
    CHECK(write_error(t) == "findings[0].message: empty report text");
}

TEST_CASE("the reader: findings' fields, and versions 1 and 2") {
    CHECK(error_after(with_race(),
                      [](Json& j) { j["findings"][0]["accesses"][0]["role"] = "reads"; }) ==
          "findings[0].accesses[0].role: the string \"reads\" is not one of \"load\", \"store\", "
          "\"atomic\", \"wait\", \"execute\"");
    CHECK(error_after(with_race(), [](Json& j) {
              j["findings"][0]["accesses"][0]["instruction"] = nullptr;
          }) == "findings[0].accesses[0].lane: present, but instruction is null");
    CHECK(error_after(with_race(), [](Json& j) {
              j["findings"][0]["accesses"][0]["memory"] = nullptr;
          }) == "findings[0].accesses[0].offset: present, but memory is null");
    CHECK(error_after(with_race(), [](Json& j) { j["findings"][0]["ends_launch"] = 1; }) ==
          "findings[0].ends_launch: expected true or false, got the number 1");
    CHECK(error_after(with_race(), [](Json& j) { j["findings"][0]["colour"] = "red"; }) ==
          "findings[0].colour: unknown field");
    CHECK(error_after(with_race(), [](Json& j) { j.erase("findings"); }) ==
          "missing field \"findings\"");
    // Version 1: no findings; the rest reads as before.
    CHECK(error_after(with_race(), [](Json& j) { j["version"] = 1; }) ==
          "findings: findings are a field of version 2; this document says version 1");
    Json v1 = Json::parse(text_of(with_race()));
    v1["version"] = 1;
    v1.erase("findings");
    const Trace old = read_trace_text(v1.dump());
    CHECK(old.findings.empty());
    CHECK(old.instructions == with_race().instructions);
    CHECK(error_after(with_race(), [](Json& j) { j["version"] = 5; }) ==
          "version: unsupported version 5; this reader supports versions 1 to 4");
    // Nor look events, which version 2 added too.
    Json v1_look = v1;
    v1_look["block_events"].push_back(Json::parse(
        R"({"time": 0, "block": 0, "event": "look", "tile": 0, "flag": "X", "value_type": null,
            "reads": 1})"));
    CHECK_THROWS_WITH(read_trace_text(v1_look.dump()),
                      doctest::Contains("look events are part of version 2"));
}
