// Version 4's mbarrier events: they round-trip, older versions refuse them, and malformed ones
// are refused with what is wrong (the reader's path and rule).
#include <doctest/doctest.h>

#include <functional>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "scanlab/trace/error.h"
#include "scanlab/trace/reader.h"
#include "scanlab/trace/writer.h"
#include "synthetic_traces.h"
#include "trace_text.h"

namespace scanlab::trace {
namespace {

using testing::error_after;
using testing::text_of;

using Json = nlohmann::ordered_json;

MbarrierEvent event(std::uint64_t time, MbarrierOp op) {
    MbarrierEvent e;
    e.time = time;
    e.op = op;
    e.barrier = {2, 8}; // byte 8 of the minimal trace's shared s[] (16 bytes)
    if (op != MbarrierOp::land && op != MbarrierOp::complete) e.source = SourceLocation{0, 5};
    return e;
}

// The minimal trace with a barrier set up, filled by an 8-byte bulk copy and waited on.
Trace with_mbarriers() {
    Trace trace = testing::minimal_trace();
    MbarrierEvent init = event(1, MbarrierOp::init);
    init.count = 1;
    MbarrierEvent arrive = event(1, MbarrierOp::arrive);
    arrive.count = 1;
    arrive.bytes = 8;
    MbarrierEvent copy = event(2, MbarrierOp::copy);
    copy.bytes = 8;
    copy.destination = MemoryPlace{2, 0};
    MbarrierEvent poll = event(2, MbarrierOp::poll);
    poll.count = 3;
    MbarrierEvent land = event(3, MbarrierOp::land);
    land.bytes = 8;
    trace.mbarriers = {
        init, arrive, copy, poll, land, event(3, MbarrierOp::complete), event(4, MbarrierOp::wait)};
    return trace;
}

} // namespace

TEST_CASE("mbarrier events round-trip, and only in version 4") {
    const Trace trace = with_mbarriers();
    const std::string text = text_of(trace);
    CHECK(text.find("\"mbarriers\": [") != std::string::npos);
    const Trace back = read_trace_text(text);
    CHECK(back == trace);
    CHECK(text_of(back) == text);
    CHECK(text_of(testing::minimal_trace()).find("\"mbarriers\"") == std::string::npos);
    CHECK(error_after(with_mbarriers(), [](Json& j) { j["version"] = 3; })
              .starts_with("mbarriers: mbarriers is a field of version 4; this document says "
                           "version 3"));
}

TEST_CASE("malformed mbarrier events are refused with what is wrong") {
    CHECK(error_after(with_mbarriers(), [](Json& j) { j["mbarriers"][6]["parity"] = 2; }) ==
          "mbarriers[6].parity: 2 is not a parity (0 or 1)");
    CHECK(error_after(with_mbarriers(), [](Json& j) {
              j["mbarriers"][2]["destination"] = nullptr;
          }) == "mbarriers[2].destination: a copy names its destination");
    CHECK(error_after(with_mbarriers(), [](Json& j) { j["mbarriers"][3]["count"] = 0; }) ==
          "mbarriers[3].count: a poll event counts at least 1");
    CHECK(error_after(with_mbarriers(),
                      [](Json& j) { j["mbarriers"][0]["barrier"]["offset"] = 4; }) ==
          "mbarriers[0].barrier.offset: 4 is not 8-byte aligned (an mbarrier is a 64-bit word)");
    CHECK(error_after(with_mbarriers(), [](Json& j) { j["mbarriers"][0]["barrier"]["memory"] = 0; })
              .starts_with("mbarriers[0].barrier.memory: memory object 0 (in) is not a shared "
                           "object of block 0"));
    CHECK(error_after(with_mbarriers(), [](Json& j) {
              j["mbarriers"][4]["source"] = {{"file", 0}, {"line", 5}};
          }) == "mbarriers[4].source: land events have no statement (source is null)");
    CHECK(error_after(with_mbarriers(), [](Json& j) { j["mbarriers"][1]["time"] = 0; }) ==
          "mbarriers[1].time: 0 is earlier than the previous mbarrier event's time 1");
    CHECK(error_after(with_mbarriers(), [](Json& j) {
              j["mbarriers"][0]["event"] = "bogus";
          }).starts_with("mbarriers[0].event: "));
    CHECK(error_after(with_mbarriers(), [](Json& j) { j["mbarriers"][0]["phase"] = 1; }) ==
          "mbarriers[0].phase: only complete events have a phase number");
}

} // namespace scanlab::trace
