// Every way a document can fail to be a trace, and the message the reader gives for it.

#include <doctest/doctest.h>

#include <filesystem>
#include <functional>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "scanlab/trace/error.h"
#include "scanlab/trace/reader.h"
#include "scanlab/trace/writer.h"
#include "synthetic_traces.h"
#include "trace_text.h"

using namespace scanlab::trace;
using testing::read_error;
using Json = nlohmann::ordered_json; // keeps "format" and "version" first

namespace {

std::string minimal_text() {
    std::ostringstream out;
    write_trace(testing::minimal_trace(), out);
    return out.str();
}

// The error after editing the minimal example: 4 threads, memory in/out/s, steps 0-1,
// instructions: 0 load in, 1 store s, 2 load s (with writers), 3 store out.
std::string error_after(const std::function<void(Json&)>& edit, const Limits& limits = {}) {
    Json json = Json::parse(minimal_text());
    edit(json);
    return read_error(json.dump(), limits);
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
    const std::size_t at = text.find(from);
    REQUIRE(at != std::string::npos);
    return text.replace(at, from.size(), to);
}

} // namespace

TEST_CASE("the unedited example reads") {
    CHECK(read_error(minimal_text()) == "(read without error)");
}

TEST_CASE("files that cannot be read") {
    const auto file_error = [](const std::filesystem::path& path) {
        try {
            read_trace_file(path);
        } catch (const TraceError& error) {
            return std::string(error.what());
        }
        return std::string("(read without error)");
    };
    CHECK(file_error("/nonexistent/run.trace.json") ==
          "cannot open trace file '/nonexistent/run.trace.json': No such file or directory");
    const auto dir = std::filesystem::temp_directory_path();
    CHECK(file_error(dir) == "cannot read trace file '" + dir.string() + "': it is a directory");
}

TEST_CASE("empty, truncated and invalid JSON") {
    CHECK(read_error("") == "the document is empty (0 bytes)");
    CHECK(read_error(" \n\t") == "the document is empty (3 bytes)");
    const std::string text = minimal_text();
    const std::size_t in_kernel = text.find("reverse4") + 3;
    CHECK(read_error(text.substr(0, in_kernel)) ==
          "launch.kernel: truncated JSON at byte offset " + std::to_string(in_kernel) +
              " (line 4, column 28): syntax error while parsing value - invalid string: missing "
              "closing quote; last read: '\"rev'");
    CHECK(read_error(text.substr(0, 60)) ==
          "launch: truncated JSON at byte offset 60 (line 4, column 14): syntax error while "
          "parsing object key - unexpected end of input; expected string literal");
    CHECK(read_error(text.substr(0, 120)) ==
          "launch: truncated JSON at byte offset 120 (line 4, column 74): syntax error while "
          "parsing object key - unexpected end of input; expected string literal");
    // Cut after the last field: the document itself is unfinished.
    CHECK(read_error(text.substr(0, text.size() - 3)).starts_with("truncated JSON at byte offset"));
    CHECK(read_error(replaced(text, "\"grid\": [1, 1, 1]", "\"grid\": [1, 1 1]")) ==
          "launch.grid: invalid JSON at byte offset 96 (line 4, column 50): syntax error while "
          "parsing array - unexpected number literal; expected ']'");
    CHECK(read_error(replaced(text, "\"seed\": 1", "\"seed\": 1e999")) ==
          "launch.seed: invalid JSON: number overflow parsing '1e999'");
    CHECK(read_error("{\"format\": \"scanlab-trace\", \"version\": 2,}") ==
          "invalid JSON at byte offset 41 (line 1, column 42): syntax error while parsing object "
          "key - unexpected '}'; expected string literal");
}

TEST_CASE("documents that are not scanlab traces") {
    CHECK(read_error("[1, 2]") ==
          "the document is an array, not an object: this is not a scanlab trace");
    CHECK(read_error("42") ==
          "the document is the number 42, not an object: this is not a scanlab trace");
    CHECK(read_error("{}") == "missing field \"format\": this is not a scanlab trace");
    CHECK(read_error(R"({"traceEvents": []})") ==
          "the document does not begin with \"format\": \"scanlab-trace\" (its first field is "
          "\"traceEvents\"): this is not a scanlab trace");
    CHECK(read_error(R"({"format": "chrome-trace", "version": 1})") ==
          "format: expected \"scanlab-trace\", got the string \"chrome-trace\": this is not a "
          "scanlab trace");
    CHECK(read_error(R"({"format": {}})") ==
          "format: expected \"scanlab-trace\", got an object: this is not a scanlab trace");
}

TEST_CASE("versions") {
    CHECK(read_error(R"({"format": "scanlab-trace", "version": 5})") ==
          "version: unsupported version 5; this reader supports versions 1 to 4");
    CHECK(read_error(R"({"format": "scanlab-trace", "version": 0})") ==
          "version: unsupported version 0; this reader supports versions 1 to 4");
    CHECK(read_error(R"({"format": "scanlab-trace", "version": -1})") ==
          "version: unsupported version -1; this reader supports versions 1 to 4");
    CHECK(read_error(R"({"format": "scanlab-trace", "version": "1"})") ==
          "version: expected an integer, got the string \"1\"");
    CHECK(read_error(R"({"format": "scanlab-trace"})") == "missing field \"version\"");
    CHECK(read_error(R"({"format": "scanlab-trace", "launch": {}})") ==
          "the second field must be \"version\", not \"launch\"");
}

TEST_CASE("missing, unknown and duplicate fields") {
    CHECK(error_after([](Json& j) { j.erase("launch"); }) == "missing field \"launch\"");
    CHECK(error_after([](Json& j) { j["launch"].erase("kernel"); }) ==
          "launch: missing field \"kernel\"");
    CHECK(error_after([](Json& j) { j["launch"]["colour"] = "red"; }) ==
          "launch.colour: unknown field");
    CHECK(error_after([](Json& j) { j["colour"] = "red"; }) == "colour: unknown field");
    CHECK(error_after([](Json& j) { j["instructions"][2]["lanes"][1].erase("value"); }) ==
          "instructions[2].lanes[1]: missing field \"value\"");
    CHECK(error_after([](Json& j) { j["memory"][2].erase("block"); }) ==
          "memory[2]: missing field \"block\"");
    CHECK(error_after([](Json& j) { j["memory"][0]["block"] = 0; }) ==
          "memory[0].block: only shared objects belong to a block");
    CHECK(error_after([](Json& j) {
              j["instructions"][3]["lanes"][0]["writer"] = {{"instruction", 1}, {"thread", 0}};
          }) == "instructions[3].lanes[0].writer: stores have no writer (only loads and atomics "
                "read a value)");
    const std::string text = minimal_text();
    CHECK(read_error(
              replaced(text, "\"kernel\": \"reverse4\"", "\"kernel\": \"a\", \"kernel\": \"b\"")) ==
          "launch.kernel: duplicate field");
    CHECK(read_error(replaced(text, "\"version\": 4,", "\"version\": 4, \"version\": 4,")) ==
          "version: duplicate field");
}

TEST_CASE("wrong types") {
    CHECK(error_after([](Json& j) { j["launch"]["grid"] = "4"; }) ==
          "launch.grid: expected [x, y, z], got the string \"4\"");
    CHECK(error_after([](Json& j) { j["launch"]["grid"][0] = "4"; }) ==
          "launch.grid[0]: expected a non-negative integer, got the string \"4\"");
    CHECK(error_after([](Json& j) { j["launch"]["kernel"] = 7; }) ==
          "launch.kernel: expected a string, got the number 7");
    CHECK(error_after([](Json& j) { j["launch"]["mode"] = "simt"; }) ==
          "launch.mode: the string \"simt\" is not one of \"lockstep\", \"its\", \"pre_volta\"");
    CHECK(
        error_after([](Json& j) { j["instructions"][0]["kind"] = "read"; }) ==
        "instructions[0].kind: the string \"read\" is not one of \"load\", \"store\", \"atomic\"");
    CHECK(error_after([](Json& j) { j["instructions"][0] = 5; }) ==
          "instructions[0]: expected an object, got the number 5");
    CHECK(error_after([](Json& j) { j["instructions"][1] = Json::array(); }) ==
          "instructions[1]: expected an object, got an array");
    CHECK(error_after([](Json& j) { j["steps"] = Json::object(); }) ==
          "steps: expected an array, got an object");
    CHECK(error_after([](Json& j) { j["instructions"][0]["lanes"][0]["value"] = 1.5; }) ==
          "instructions[0].lanes[0].value: expected an integer (i32), got the number 1.5");
    CHECK(error_after([](Json& j) { j["instructions"][0]["value_type"] = "none"; }) ==
          "instructions[0].value_type: write null, not \"none\", when values are unknown");
    CHECK(error_after([](Json& j) { j["instructions"][0]["value_type"] = nullptr; }) ==
          "instructions[0].lanes[0].value: present, but the instruction's value_type is null");
    CHECK(error_after([](Json& j) {
              j["instructions"][0]["value_type"] = "f32";
              j["instructions"][0]["lanes"][0]["value"] = "nan:0x1";
          }) == "instructions[0].lanes[0].value: the string \"nan:0x1\" is not the bit pattern of "
                "a f32 NaN");
    CHECK(error_after([](Json& j) {
              j["instructions"][0]["value_type"] = "f32";
              j["instructions"][0]["lanes"][0]["value"] = 1e300;
          }) == "instructions[0].lanes[0].value: the number 1e+300 is out of range for f32");
    CHECK(error_after([](Json& j) { j["block_events"][1]["event"] = "pause"; }) ==
          "block_events[1].event: the string \"pause\" is not one of \"start\", \"end\", \"flag\", "
          "\"look\"");
}

TEST_CASE("look events: fields and their rules") {
    // The look-back fixture's first look event: block 1 finds tile 0 still X.
    Json fixture = Json::parse([] {
        std::ostringstream out;
        write_trace(testing::lookback_trace(), out);
        return out.str();
    }());
    std::size_t at = 0;
    while (fixture["block_events"][at]["event"] != "look") ++at;
    const std::string where = "block_events[" + std::to_string(at) + "]";
    const auto error_with = [&](const std::function<void(Json&)>& edit) {
        Json json = fixture;
        edit(json["block_events"][at]);
        return read_error(json.dump());
    };
    CHECK(error_with([](Json&) {}) == "(read without error)");
    CHECK(error_with([](Json& e) { e["reads"] = 0; }) ==
          where + ".reads: 0; a look event stands for at least one read");
    CHECK(error_with([](Json& e) { e.erase("reads"); }) == where + ": missing field \"reads\"");
    CHECK(error_with([](Json& e) { e["flag"] = "Q"; }) ==
          where + ".flag: the string \"Q\" is not one of \"X\", \"A\", \"P\"");
    CHECK(error_with([](Json& e) { e["slot"] = 0; }) ==
          where + ".slot: only start events have a slot");
    CHECK(error_with([](Json& e) { e["value"] = 3; }) ==
          where + ".value: present, but value_type is null");
    CHECK(error_with([](Json& e) { e["tile"] = 4; }) == where + ".tile: 4 is not a tile (0..3)");
    CHECK(error_with([](Json& e) { e["block"] = 3; }) ==
          where + ".event: block 3 reads a tile descriptor while it is not running");
    CHECK(error_with([](Json& e) {
              e["value_type"] = "i32";
              e["value"] = 5;
          }) == where + ".value_type: a look that found X has no value (write null)");
    // "reads" belongs to look events only.
    CHECK(error_after([](Json& j) { j["block_events"][0]["reads"] = 1; }) ==
          "block_events[0].reads: only look events have this field");
}

TEST_CASE("numbers out of range") {
    CHECK(error_after([](Json& j) { j["memory"][0]["size"] = -4; }) ==
          "memory[0].size: -4 is negative");
    CHECK(error_after([](Json& j) { j["launch"]["grid"][0] = 4294967296; }) ==
          "launch.grid[0]: 4294967296 is out of range (at most 4294967295)");
    CHECK(error_after([](Json& j) { j["launch"]["grid"][0] = 2147483648; }) ==
          "launch.grid[0]: 2147483648 is out of range (1..2147483647)");
    CHECK(error_after([](Json& j) {
              j["launch"]["grid"] = {2147483647, 65535, 65535};
          }) == "launch.grid: 9223090559730712575 blocks; this format numbers blocks with 32 bits");
    CHECK(error_after([](Json& j) {
              j["launch"]["block"] = {32, 32, 2};
          }) == "launch.block: 2048 threads per block; CUDA allows 1024");
    CHECK(error_after([](Json& j) { j["launch"]["seed"] = "12x"; }) ==
          "launch.seed: the string \"12x\" is not a non-negative decimal integer below 2^64");
    CHECK(error_after([](Json& j) { j["memory"][0]["size"] = "99999999999999999999"; }) ==
          "memory[0].size: the string \"99999999999999999999\" is not a non-negative decimal "
          "integer below 2^64");
    CHECK(error_after([](Json& j) { j["memory"][0]["size"] = 1e20; }) ==
          "memory[0].size: expected a non-negative integer, got the number 1e+20");
    CHECK(error_after([](Json& j) { j["instructions"][0]["lanes"][0]["value"] = 3000000000; }) ==
          "instructions[0].lanes[0].value: 3000000000 is out of range for i32");
    CHECK(error_after([](Json& j) { j["instructions"][1]["lanes"][3]["lane"] = 40; }) ==
          "instructions[1].lanes[3].lane: 40 is not a lane index (0..31)");
    CHECK(error_after([](Json& j) { j["instructions"][1]["lanes"][1]["thread"] = 5; }) ==
          "instructions[1].lanes[1].thread: 5 is not lane 1 of warp 0 (thread 1)");
    CHECK(error_after([](Json& j) { j["instructions"][1]["warp"] = 1; }) ==
          "instructions[1].warp: 1 is not a warp of a 4-thread block (0..0)");
    CHECK(error_after([](Json& j) {
              std::swap(j["instructions"][1]["lanes"][0], j["instructions"][1]["lanes"][1]);
          }) == "instructions[1].lanes[1].lane: 0 does not follow lane 1 (lanes are listed once, "
                "in increasing order)");
    CHECK(error_after([](Json& j) { j["instructions"][1]["lanes"][3]["offset"] = 16; }) ==
          "instructions[1].lanes[3].offset: bytes 16..19 are outside memory[2] \"s\" (16 bytes)");
    CHECK(error_after([](Json& j) { j["instructions"][1]["lanes"][3]["offset"] = 6; }) ==
          "instructions[1].lanes[3].offset: byte 6 is not aligned to the 4-byte access");
    CHECK(error_after([](Json& j) { j["instructions"][1]["width"] = 3; }) ==
          "instructions[1].width: 3 is not an access width (1, 2, 4, 8 or 16 bytes)");
    CHECK(error_after([](Json& j) { j["instructions"][1]["value_type"] = "i64"; }) ==
          "instructions[1].value_type: i64 (8 bytes) does not divide a 4-byte access");
    CHECK(error_after([](Json& j) {
              auto& lanes = j["instructions"][1]["lanes"];
              for (int i = 0; i < 30; ++i) lanes.push_back(lanes[0]);
          }) == "instructions[1].lanes: 34 lanes; a warp has at most 32");
    CHECK(error_after([](Json& j) { j["block_events"][0]["slot"] = 4; }) ==
          "block_events[0].slot: 4 is out of range (0..0)");
}

TEST_CASE("references to what does not exist") {
    CHECK(error_after([](Json& j) { j["instructions"][1]["memory"] = 7; }) ==
          "instructions[1].memory: 7 is not a memory object id (0..2)");
    CHECK(error_after([](Json& j) { j["instructions"][1]["step"] = 5; }) ==
          "instructions[1].step: 5 is not a step id (0..1)");
    CHECK(error_after([](Json& j) { j["instructions"][0]["source"]["file"] = 3; }) ==
          "instructions[0].source.file: 3 is not a source file id (0..0)");
    CHECK(error_after([](Json& j) { j["instructions"][0]["source"]["line"] = 99; }) ==
          "instructions[0].source.line: line 99 is not in sources[0].lines (examples/reverse4.cu)");
    CHECK(error_after([](Json& j) { j["steps"][0]["barrier"]["line"] = 1; }) ==
          "steps[0].barrier.line: line 1 is not in sources[0].lines (examples/reverse4.cu)");
    CHECK(error_after(
              [](Json& j) { j["instructions"][2]["lanes"][0]["writer"]["instruction"] = 9; }) ==
          "instructions[2].lanes[0].writer.instruction: 9 is not an earlier instruction (0..1)");
    CHECK(error_after([](Json& j) {
              j["instructions"][2]["lanes"][0]["writer"]["instruction"] = 0;
          }) == "instructions[2].lanes[0].writer.instruction: instruction 0 is a load, not a store "
                "or atomic");
    CHECK(error_after([](Json& j) { j["instructions"][2]["lanes"][0]["writer"]["thread"] = 0; }) ==
          "instructions[2].lanes[0].writer.thread: instruction 1 has no lane of thread 0 writing "
          "these bytes");
    CHECK(error_after([](Json& j) { j["instructions"][0]["space"] = "shared"; }) ==
          "instructions[0].space: \"shared\", but memory[0] \"in\" is global memory");
    CHECK(error_after([](Json& j) { j["memory"][1]["id"] = 5; }) ==
          "memory[1].id: 5 is not the element's position 1 (ids are positions in the array)");
}

TEST_CASE("order in time and steps") {
    CHECK(error_after([](Json& j) { j["instructions"][1]["time"] = 0; }) ==
          "instructions[1].time: 0 is earlier than the previous instruction's time 1");
    CHECK(error_after([](Json& j) { j["instructions"][3]["time"] = 9; }) ==
          "instructions[3].time: 9 is outside block 0's run (ticks 0..5)");
    CHECK(error_after([](Json& j) { j["instructions"][0]["step"] = 1; }) ==
          "instructions[1].step: step 0 after step 1 of the same block (a block's steps come in "
          "order)");
    CHECK(error_after([](Json& j) { j["steps"][0]["barrier"] = nullptr; }) ==
          "steps[0].barrier: null, but block 0 has later steps (only a block's last step ends "
          "without a barrier)");
    CHECK(error_after([](Json& j) {
              j["block_events"][1]["time"] = 0;
              j["block_events"][0]["time"] = 1;
          }) == "block_events[1].time: 0 is earlier than the previous event's time 1");
    CHECK(error_after([](Json& j) {
              std::swap(j["block_events"][0], j["block_events"][1]);
              j["block_events"][0]["time"] = 0;
          }) == "block_events[0].event: block 0 ends before it starts");
}

TEST_CASE("limits: documents too large to load") {
    Limits limits;
    limits.max_instructions = 3;
    CHECK(read_error(minimal_text(), limits) ==
          "instructions: more than 3 instructions (Limits::max_instructions); refusing to load a "
          "trace this large");
    limits = {};
    limits.max_document_bytes = 100;
    CHECK(read_error(minimal_text(), limits).starts_with("the document has "));
    CHECK(read_error(minimal_text(), limits)
              .ends_with(" bytes; the limit is 100 (Limits::max_document_bytes)"));
    limits = {};
    limits.max_object_bytes = 8;
    CHECK(read_error(minimal_text(), limits) ==
          "memory[0].size: 16 bytes; the limit is 8 (Limits::max_object_bytes)");
    limits = {};
    limits.max_lanes = 6;
    CHECK(read_error(minimal_text(), limits) ==
          "instructions: more than 6 lanes in all (Limits::max_lanes); refusing to load a trace "
          "this large");
    // Nesting: refused before it can exhaust memory.
    std::string deep = R"({"format": "scanlab-trace", "version": 2, "truncated": )";
    for (int i = 0; i < 100000; ++i) deep += '[';
    CHECK(read_error(deep) == "truncated[0][0][0][0][0][0][0][0][0]: nested deeper than 10 levels");
    // A huge grid in the header must not allocate anything per block: it is only a number.
    CHECK(error_after([](Json& j) {
              j["launch"]["grid"] = {65536, 65535, 1};
          }) == "(read without error)");
    CHECK(error_after([](Json& j) {
              j["launch"]["grid"] = {131072, 65535, 1};
          }) == "launch.grid: 8589803520 blocks; this format numbers blocks with 32 bits");
}
