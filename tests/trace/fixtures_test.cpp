// The committed fixture files and the documentation's example are what the generator writes now.

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "fixture_list.h"
#include "scanlab/trace/reader.h"
#include "scanlab/trace/writer.h"
#include "synthetic_traces.h"
#include "trace_text.h"

using namespace scanlab::trace;
using testing::text_of;

namespace {

std::string file_text(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    REQUIRE_MESSAGE(in, "cannot open " << path);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

} // namespace

TEST_CASE("fixture files are current (regenerate: trace_make_fixtures tests/trace/fixtures)") {
    for (const testing::Fixture& fixture : testing::fixtures()) {
        CAPTURE(fixture.file);
        const std::filesystem::path path =
            std::filesystem::path(SCANLAB_TRACE_FIXTURES_DIR) / fixture.file;
        const Trace trace = fixture.make();
        CHECK(file_text(path) == text_of(trace));
        CHECK(read_trace_file(path) == trace);
    }
}

TEST_CASE("docs/trace-format.md's example is the minimal trace, byte for byte") {
    const std::string doc = file_text(SCANLAB_TRACE_DOC);
    const std::string marker = "<!-- example: trace_make_fixtures --example -->\n```json\n";
    const std::size_t start = doc.find(marker);
    REQUIRE(start != std::string::npos);
    const std::size_t body = start + marker.size();
    const std::size_t end = doc.find("```\n", body);
    REQUIRE(end != std::string::npos);
    const std::string example = doc.substr(body, end - body);
    CHECK(example == text_of(testing::minimal_trace()));
    CHECK(read_trace_text(example) == testing::minimal_trace());
}
