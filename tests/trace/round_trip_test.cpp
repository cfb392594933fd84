// write -> read gives the same Trace, and writing is deterministic to the byte.

#include <doctest/doctest.h>

#include <bit>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <sstream>

#include "scanlab/trace/reader.h"
#include "scanlab/trace/writer.h"
#include "synthetic_traces.h"
#include "trace_text.h"
#include "trace_recorder.h"

using namespace scanlab::trace;
using testing::text_of;

namespace {

// One global instruction per value, each lane holding one of `values`.
template <class T>
Trace values_trace(ValueType type, const std::vector<T>& values) {
    LaunchInfo launch;
    launch.kernel = "values";
    launch.block = {32, 1, 1};
    launch.seed = ~std::uint64_t{0}; // above 2^53: written as a string
    testing::TraceRecorder r(launch);
    const std::uint32_t file = r.add_source("values.cu", "x[i] = v;\n");
    const std::uint32_t x = r.add_global("x", 32 * sizeof(T), "T", sizeof(T));
    std::vector<testing::TraceRecorder::Lane> lanes;
    for (std::uint32_t i = 0; i < values.size(); ++i)
        lanes.push_back({i, i * sizeof(T), ValueBytes::of(values[i]), {}});
    r.access(0, 0, r.at(file, 1), AccessKind::store, x, sizeof(T), type, lanes);
    return r.finish();
}

template <class T>
void check_values_round_trip(ValueType type, const std::vector<T>& values) {
    const Trace trace = values_trace(type, values);
    const std::string text = text_of(trace);
    const Trace back = read_trace_text(text);
    CHECK(back == trace); // compares the bytes, so NaN payloads and -0.0 count
    CHECK(text_of(back) == text);
}

} // namespace

TEST_CASE("synthetic traces survive write -> read unchanged") {
    for (const Trace& trace : {testing::minimal_trace(), testing::hillis_steele_trace(16),
                               testing::hillis_steele_trace(100), testing::bank_patterns_trace(),
                               testing::lookback_trace(), testing::harris_prescan_trace(true)}) {
        CAPTURE(trace.launch.kernel);
        const std::string text = text_of(trace);
        CHECK(text_of(trace) == text); // deterministic
        const Trace back = read_trace_text(text);
        CHECK(back == trace);
        CHECK(text_of(back) == text);
    }
}

TEST_CASE("integer values at their limits round-trip, large 64-bit ones as strings") {
    check_values_round_trip<std::int8_t>(ValueType::i8, {-128, 127, 0});
    check_values_round_trip<std::uint16_t>(ValueType::u16, {0, 65535});
    check_values_round_trip<std::int32_t>(ValueType::i32, {INT32_MIN, INT32_MAX, -1});
    check_values_round_trip<std::uint32_t>(ValueType::u32, {0, UINT32_MAX});
    check_values_round_trip<std::int64_t>(ValueType::i64,
                                          {INT64_MIN, INT64_MAX, (std::int64_t{1} << 53),
                                           -(std::int64_t{1} << 53), (std::int64_t{1} << 53) + 1});
    check_values_round_trip<std::uint64_t>(ValueType::u64, {0, UINT64_MAX, std::uint64_t{1} << 53});

    const std::string text =
        text_of(values_trace<std::uint64_t>(ValueType::u64, {UINT64_MAX, std::uint64_t{1} << 53}));
    CHECK(text.find("\"value\": \"18446744073709551615\"") != std::string::npos);
    CHECK(text.find("\"value\": 9007199254740992") != std::string::npos);
    CHECK(text.find("\"seed\": \"18446744073709551615\"") != std::string::npos);
}

TEST_CASE("float values round-trip bit for bit") {
    const float quiet = std::numeric_limits<float>::quiet_NaN();
    const float payload = std::bit_cast<float>(std::uint32_t{0x7fc00123});
    const float negative_nan = std::bit_cast<float>(std::uint32_t{0xffc00000});
    check_values_round_trip<float>(
        ValueType::f32, {0.1f, -0.0f, 0.0f, FLT_MAX, -FLT_MAX, FLT_MIN, FLT_TRUE_MIN, 1e-40f,
                         INFINITY, -INFINITY, quiet, payload, negative_nan, 16777217.0f, 3.0f});
    check_values_round_trip<double>(ValueType::f64,
                                    {0.1, -0.0, DBL_MAX, DBL_MIN, DBL_TRUE_MIN, 1e300, 1e-300,
                                     INFINITY, std::numeric_limits<double>::quiet_NaN(),
                                     std::bit_cast<double>(std::uint64_t{0x7ff0000000000001}),
                                     9007199254740993.0});

    const std::string text =
        text_of(values_trace<float>(ValueType::f32, {0.1f, -0.0f, quiet, payload}));
    CHECK(text.find("\"value\": 0.1}") != std::string::npos);
    CHECK(text.find("\"value\": -0.0}") != std::string::npos);
    CHECK(text.find("\"value\": \"nan\"}") != std::string::npos);
    CHECK(text.find("\"value\": \"nan:0x7fc00123\"}") != std::string::npos);
}

TEST_CASE("the one float whose shortest text misreads through a double keeps its bits") {
    // Found by checking all 2^32 floats: "7.038531e-26" read as a double rounds to a neighbour
    // of 0x15ae43fd when narrowed, so the writer falls back to the double's text for it.
    const float value = std::bit_cast<float>(std::uint32_t{0x15ae43fd});
    check_values_round_trip<float>(ValueType::f32, {value, -value});
    const std::string text = text_of(values_trace<float>(ValueType::f32, {value}));
    CHECK(text.find("\"value\": 7.038531e-26}") == std::string::npos);
    CHECK(text.find("\"value\": 7.038530691851209e-26}") != std::string::npos);
}

TEST_CASE("every float's shortest text reads back exactly through a double parser (sampled)") {
    // The writer checks this per value and falls back to the double's text; sample that the
    // check holds across the whole range (every 262147th bit pattern, about 16,000 floats).
    std::vector<float> batch;
    const auto check_batch = [&] {
        const Trace trace = values_trace<float>(ValueType::f32, batch);
        REQUIRE(read_trace_text(text_of(trace)) == trace);
        batch.clear();
    };
    for (std::uint64_t bits = 0; bits <= 0xffffffffu; bits += 262147) {
        batch.push_back(std::bit_cast<float>(static_cast<std::uint32_t>(bits)));
        if (batch.size() == 32) check_batch();
    }
    check_batch();
}

TEST_CASE("vector accesses hold one value per element") {
    const Trace trace = testing::bank_patterns_trace();
    const std::string text = text_of(trace);
    CHECK(text.find("\"value\": [31, 31, 31, 31]") != std::string::npos);
    CHECK(format_value(ValueType::i32, 16, trace.instructions.back().lanes[31].value) ==
          "[31, 31, 31, 31]");
    CHECK(format_value(ValueType::f64, 8, ValueBytes::of(-1.5)) == "-1.5");
    CHECK(format_value(ValueType::none, 4, {}) == "?");
}

TEST_CASE("text that is not UTF-8 is written as U+FFFD and still reads") {
    Trace trace = testing::minimal_trace();
    trace.sources[0].lines[0].text = "caf\xe9 \"quoted\"\t\x01";
    const std::string text = text_of(trace);
    CHECK(text.find("caf\xef\xbf\xbd \\\"quoted\\\"\\t\\u0001") != std::string::npos);
    const Trace back = read_trace_text(text);
    CHECK(back.sources[0].lines[0].text == "caf\xef\xbf\xbd \"quoted\"\t\x01");
}

TEST_CASE("files: write_trace_file then read_trace_file") {
    const std::filesystem::path path =
        std::filesystem::temp_directory_path() / "scanlab_trace_round_trip.trace.json";
    const Trace trace = testing::lookback_trace();
    write_trace_file(trace, path);
    CHECK(read_trace_file(path) == trace);
    CHECK_FALSE(std::filesystem::exists(path.string() + ".partial"));
    std::filesystem::remove(path);
}

TEST_CASE("files: a trace that cannot be written says where and why") {
    const Trace trace = testing::minimal_trace();
    const std::filesystem::path missing =
        std::filesystem::temp_directory_path() / "scanlab_no_such_folder" / "t.json";
    std::filesystem::remove_all(missing.parent_path());
    std::string message;
    try {
        write_trace_file(trace, missing);
    } catch (const TraceError& e) {
        message = e.what();
    }
    CHECK(message.find("cannot write trace file '" + missing.string() + "': the folder '" +
                       missing.parent_path().string() + "' does not exist") != std::string::npos);
    const std::filesystem::path folder =
        std::filesystem::temp_directory_path() / "scanlab_trace_is_a_folder";
    std::filesystem::create_directories(folder);
    message.clear();
    try {
        write_trace_file(trace, folder);
    } catch (const TraceError& e) {
        message = e.what();
    }
    CHECK(message.find("cannot write trace file '" + folder.string() + "': it is a directory") !=
          std::string::npos);
    CHECK(std::filesystem::is_directory(folder)); // left as it was
    std::filesystem::remove_all(folder);
}

TEST_CASE("the reader accepts any field order after format and version") {
    // Fields within an object in another order, and decimal strings for small 64-bit numbers.
    const std::string text = R"({"format": "scanlab-trace", "version": 2,
      "findings": [], "block_events": [], "instructions": [], "steps": [], "memory": [],
      "sources": [],
      "truncated": null,
      "launch": {"seed": "7", "dispatch": "shuffled", "mode": "its", "dynamic_shared_bytes": 0,
                 "block": [32, 1, 1], "grid": [2, 1, 1], "kernel": "k"}})";
    const Trace trace = read_trace_text(text);
    CHECK(trace.launch.seed == 7);
    CHECK(trace.launch.mode == EmulatorMode::its);
    CHECK(trace.launch.dispatch == DispatchOrder::shuffled);
    CHECK(trace.launch.grid == Dim3{2, 1, 1});
}
