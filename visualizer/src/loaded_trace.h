#pragma once

// A trace as the viewer holds it: the document, its bank analysis, and the per-block and
// schedule indices, all built once when the file is read.

#include <filesystem>
#include <memory>

#include "expected_marks.h"
#include "scanlab/trace/analysis.h"
#include "scanlab/trace/limits.h"
#include "scanlab/trace/trace.h"
#include "lookback_model.h"
#include "timeline_model.h"
#include "trace_index.h"

namespace scanlab::view {

// Seconds spent on each part of loading (reported by --benchmark-frames).
struct LoadTimes {
    double read = 0;    // parse and validate the JSON (the trace library)
    double analyse = 0; // bank conflicts of every shared instruction
    double index = 0;   // per-block indices and the schedule
};

struct LoadedTrace {
    LoadedTrace(std::filesystem::path file, trace::Trace document);

    std::filesystem::path path;
    trace::Trace trace;
    trace::TraceAnalysis analysis;
    TraceIndex index;
    TimelineModel timeline;
    LookbackModel lookback;
    ExpectedMarks expected; // values that differ from the trace's expected ones
    LoadTimes times;
};

// The reader's limits, raised so that the viewer opens every trace the emulator records (its
// default cut, 2^18 warp instructions, writes close to 1 GB of JSON).
trace::Limits viewer_limits();

// Reads, validates and indexes a trace file. Throws trace::TraceError (or std::bad_alloc) with a
// message for people.
std::unique_ptr<LoadedTrace> load_trace(const std::filesystem::path& path);

} // namespace scanlab::view
