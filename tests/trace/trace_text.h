#pragma once

// What the trace tests do with a trace's text, in one place for every test file (they are
// compiled as one unity file: common/trace/CMakeLists.txt's trace_tests).

#include <doctest/doctest.h>

#include <functional>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "scanlab/trace/error.h"
#include "scanlab/trace/reader.h"
#include "scanlab/trace/writer.h"

namespace scanlab::trace::testing {

using Json = nlohmann::ordered_json; // keeps "format" and "version" first

// The trace as the writer writes it.
inline std::string text_of(const Trace& trace) {
    std::ostringstream out;
    write_trace(trace, out);
    return out.str();
}

// The reader's message for `text`, or "(read without error)".
inline std::string read_error(const std::string& text, const Limits& limits = {}) {
    try {
        read_trace_text(text, limits);
    } catch (const TraceError& error) {
        return error.what();
    }
    return "(read without error)";
}

// The writer's message for `trace`, or "(written without error)"; a refused trace leaves
// nothing half-written.
inline std::string write_error(const Trace& trace) {
    std::ostringstream out;
    try {
        write_trace(trace, out);
    } catch (const TraceError& error) {
        CHECK(out.str().empty());
        return error.what();
    }
    return "(written without error)";
}

// The reader's message for `base` written, edited as JSON, and read back.
inline std::string error_after(const Trace& base, const std::function<void(Json&)>& edit) {
    Json json = Json::parse(text_of(base));
    edit(json);
    return read_error(json.dump());
}

} // namespace scanlab::trace::testing
