// Version 3's sections: warp shuffles and the expected results. They round-trip, older versions
// refuse them, the reader names what is wrong in a malformed one, and check_expected() finds
// exactly the elements and tiles whose values differ.

#include <doctest/doctest.h>

#include <cstdint>
#include <functional>
#include <random>
#include <set>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "scanlab/trace/error.h"
#include "scanlab/trace/expected_check.h"
#include "scanlab/trace/reader.h"
#include "scanlab/trace/writer.h"
#include "synthetic_traces.h"
#include "trace_text.h"

using namespace scanlab::trace;
using testing::error_after;
using testing::read_error;
using testing::text_of;
using testing::write_error;
using Json = nlohmann::ordered_json;

namespace {

// The minimal example (4 threads reverse in[] into out[] through shared s[]) with a shuffle in
// step 1 (every lane takes lane 0's value, as __shfl_sync(mask, v, 0) does) and the values out[]
// should hold: the reversed input, 40 30 20 10, which the kernel stores.
Trace with_version3_sections() {
    Trace trace = testing::minimal_trace();
    WarpShuffle shuffle;
    shuffle.time = 3; // between the shared load (3) and the global store (4): same tick is fine
    shuffle.block = 0;
    shuffle.warp = 0;
    shuffle.step = 1;
    shuffle.source = {0, 7};
    shuffle.kind = ShuffleKind::index;
    shuffle.width = 4;
    shuffle.value_type = ValueType::i32;
    for (std::uint32_t lane = 0; lane < 4; ++lane)
        shuffle.lanes.push_back({lane, 0, ValueBytes::of(std::int32_t{40})});
    trace.shuffles.push_back(shuffle);
    Expected expected;
    expected.reference = "host reference: the input reversed";
    expected.value_type = ValueType::i32;
    ExpectedObject out{1, 0, {}};
    for (std::int32_t v : {40, 30, 20, 10}) out.values.push_back(ValueBytes::of(v));
    expected.objects.push_back(out);
    expected.tiles.push_back(
        {0, ValueBytes::of(std::int32_t{0}), ValueBytes::of(std::int32_t{100})});
    trace.expected = expected;
    return trace;
}

} // namespace

TEST_CASE("shuffles and expected values round-trip, and only in version 3") {
    const Trace trace = with_version3_sections();
    const std::string text = text_of(trace);
    CHECK(text.find("\"version\": 4") != std::string::npos);
    CHECK(text.find("\"shuffles\": [") != std::string::npos);
    CHECK(text.find("\"expected\": {") != std::string::npos);
    const Trace back = read_trace_text(text);
    CHECK(back == trace);
    CHECK(text_of(back) == text); // deterministic to the byte
    // A trace without them writes neither section, and reads back without them.
    const std::string plain = text_of(testing::minimal_trace());
    CHECK(plain.find("\"shuffles\"") == std::string::npos);
    CHECK(plain.find("\"expected\"") == std::string::npos);
    const Trace plain_back = read_trace_text(plain);
    CHECK(plain_back.shuffles.empty());
    CHECK_FALSE(plain_back.expected.has_value());
    // "expected": null is no expected values.
    CHECK(error_after(with_version3_sections(), [](Json& j) { j["expected"] = nullptr; }) ==
          "(read without error)");
    // Versions 1 and 2 stay readable, without the new sections...
    Json v2 = Json::parse(plain);
    v2["version"] = 2;
    CHECK(read_trace_text(v2.dump()) == testing::minimal_trace());
    // ...and refuse them.
    CHECK(error_after(with_version3_sections(), [](Json& j) { j["version"] = 2; }) ==
          "shuffles: shuffles is a field of version 3; this document says version 2");
    CHECK(error_after(with_version3_sections(), [](Json& j) {
              j["version"] = 2;
              j.erase("shuffles");
          }) == "expected: expected is a field of version 3; this document says version 2");
}

TEST_CASE("malformed shuffles are refused with what is wrong") {
    CHECK(error_after(with_version3_sections(), [](Json&) {}) == "(read without error)");
    const auto shuffle = [](const std::function<void(Json&)>& edit) {
        return error_after(with_version3_sections(), [&](Json& j) { edit(j["shuffles"][0]); });
    };
    CHECK(shuffle([](Json& s) { s["lanes"][1]["source"] = 40; }) ==
          "shuffles[0].lanes[1].source: 40 is not a lane index (0..31)");
    CHECK(shuffle([](Json& s) { s["lanes"][1]["lane"] = 0; }) ==
          "shuffles[0].lanes[1].lane: 0 does not follow lane 0 (lanes are listed once, in "
          "increasing order)");
    CHECK(shuffle([](Json& s) { s["lanes"][3]["lane"] = 5; }) ==
          "shuffles[0].lanes[3].lane: lane 5 of warp 0 is not a thread of a 4-thread block");
    CHECK(shuffle([](Json& s) { s["kind"] = "sideways"; }) ==
          "shuffles[0].kind: the string \"sideways\" is not one of \"idx\", \"up\", \"down\", "
          "\"xor\"");
    CHECK(shuffle([](Json& s) { s["width"] = 2; }) ==
          "shuffles[0].width: 2 is not a shuffle width (4 or 8 bytes)");
    CHECK(shuffle([](Json& s) { s["value_type"] = "f64"; }) ==
          "shuffles[0].value_type: f64 is not 4 bytes wide (a shuffle moves one value)");
    CHECK(shuffle([](Json& s) { s["step"] = 7; }) == "shuffles[0].step: 7 is not a step id (0..1)");
    CHECK(shuffle([](Json& s) { s["warp"] = 1; }) ==
          "shuffles[0].warp: 1 is not a warp of a 4-thread block (0..0)");
    CHECK(shuffle([](Json& s) { s["time"] = 99; }) ==
          "shuffles[0].time: 99 is outside block 0's run (ticks 0..5)");
    CHECK(shuffle([](Json& s) { s["source"]["line"] = 99; }) ==
          "shuffles[0].source.line: line 99 is not in sources[0].lines (examples/reverse4.cu)");
    CHECK(shuffle([](Json& s) { s["lanes"][0].erase("value"); }) ==
          "shuffles[0].lanes[0]: missing field \"value\"");
    CHECK(shuffle([](Json& s) { s["value_type"] = nullptr; }) ==
          "shuffles[0].lanes[0].value: present, but the shuffle's value_type is null");
    CHECK(shuffle([](Json& s) { s["memory"] = 0; }) == "shuffles[0].memory: unknown field");
    CHECK(error_after(with_version3_sections(), [](Json& j) { j["shuffles"] = 3; }) ==
          "shuffles: expected an array, got the number 3");
}

TEST_CASE("malformed expected values are refused with what is wrong") {
    const auto expected = [](const std::function<void(Json&)>& edit) {
        return error_after(with_version3_sections(), [&](Json& j) { edit(j["expected"]); });
    };
    CHECK(expected([](Json& e) { e["objects"][0]["memory"] = 9; }) ==
          "expected.objects[0].memory: 9 is not a memory object id (0..2)");
    CHECK(expected([](Json& e) { e["objects"][0]["values"].push_back(5); }) ==
          "expected.objects[0].values: elements 0..5 (end excluded) are outside memory[1] "
          "\"out\" (4 elements of 4 bytes)");
    CHECK(expected([](Json& e) { e["objects"][0]["first"] = 1; }) ==
          "expected.objects[0].values: elements 1..5 (end excluded) are outside memory[1] "
          "\"out\" (4 elements of 4 bytes)");
    CHECK(expected([](Json& e) { e["objects"].push_back(e["objects"][0]); }) ==
          "expected.objects[1].memory: 1 does not follow memory 1 (objects are listed once, by "
          "increasing id)");
    CHECK(expected([](Json& e) {
              e["objects"][0]["values"][2] = "twenty";
          }).find("expected.objects[0].values[2]: ") == 0);
    CHECK(expected([](Json& e) { e["value_type"] = nullptr; }) ==
          "expected.value_type: null; expected values have a type");
    CHECK(expected([](Json& e) { e["reference"] = ""; }) ==
          "expected.reference: empty; say what computed the expected values");
    CHECK(expected([](Json& e) { e["tiles"][0]["tile"] = 3; }) ==
          "expected.tiles[0].tile: 3 is not a tile of the grid (0..0)");
    CHECK(expected([](Json& e) { e["tiles"].push_back(e["tiles"][0]); }) ==
          "expected.tiles[1].tile: 0 does not follow tile 0 (tiles are listed once, in "
          "increasing order)");
    CHECK(expected([](Json& e) { e["tiles"][0].erase("inclusive"); }) ==
          "expected.tiles[0]: missing field \"inclusive\"");
    CHECK(expected([](Json& e) { e["colour"] = "red"; }) == "expected.colour: unknown field");
    CHECK(error_after(with_version3_sections(), [](Json& j) {
              j["expected"] = 3;
          }).find("expected: ") == 0);
    // The writer refuses what the reader would.
    Trace trace = with_version3_sections();
    trace.expected->objects[0].memory = 7;
    CHECK(write_error(trace) == "expected.objects[0].memory: 7 is not a memory object id (0..2)");
}

TEST_CASE("check_expected finds exactly the elements and tiles that differ") {
    std::mt19937 rng(std::random_device{}());
    for (int round = 0; round < 50; ++round) {
        Trace trace = with_version3_sections();
        // The kernel stored 40 30 20 10; perturb a random subset of the expected values.
        std::set<std::uint64_t> perturbed;
        for (std::uint64_t k = 0; k < 4; ++k)
            if (rng() % 2) {
                const auto wrong = static_cast<std::int32_t>(rng() % 1000) + 1000;
                trace.expected->objects[0].values[k] = ValueBytes::of(wrong);
                perturbed.insert(k);
            }
        const ExpectedCheck check = check_expected(trace);
        CHECK(check.judged == 4);
        std::set<std::uint64_t> found;
        for (const ElementDifference& d : check.elements) {
            CHECK(d.memory == 1);
            CHECK(d.instruction == 3); // the store to out[]
            CHECK(trace.instructions[3].lanes[d.lane].offset == d.element * 4);
            CHECK(d.actual == ValueBytes::of(std::int32_t(40 - 10 * std::int32_t(d.element))));
            found.insert(d.element);
        }
        CHECK(found == perturbed);
        CHECK(check.tiles.empty()); // no tile published a P
    }
    // Without expected values nothing is judged.
    CHECK(check_expected(testing::minimal_trace()).judged == 0);
    // Tiles: the look-back fixture's published P values against the expected ones.
    Trace lookback = testing::lookback_trace();
    Expected expected;
    expected.reference = "test";
    expected.value_type = ValueType::i32;
    std::set<std::uint32_t> published;
    for (const BlockEvent& e : lookback.block_events)
        if (const auto* change = std::get_if<TileFlagChange>(&e.what);
            change && change->flag == TileFlag::P && !published.count(change->tile)) {
            published.insert(change->tile);
            const bool wrong = change->tile % 2 == 1;
            const std::int32_t p = change->value.as<std::int32_t>() + (wrong ? 7 : 0);
            expected.tiles.push_back(
                {change->tile, ValueBytes::of(std::int32_t{0}), ValueBytes::of(p)});
        }
    REQUIRE(published.size() >= 2);
    std::sort(expected.tiles.begin(), expected.tiles.end(),
              [](const ExpectedTile& a, const ExpectedTile& b) { return a.tile < b.tile; });
    lookback.expected = expected;
    const ExpectedCheck check = check_expected(lookback);
    for (const TileDifference& d : check.tiles) CHECK(d.tile % 2 == 1);
    CHECK(check.tiles.size() ==
          static_cast<std::size_t>(std::count_if(published.begin(), published.end(),
                                                 [](std::uint32_t t) { return t % 2 == 1; })));
    CHECK(text_of(lookback).find("\"tiles\": [") != std::string::npos);
}
