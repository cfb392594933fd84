// What the planted-bug catalogs share: each bug is marked in its source file with a `// BUG: name`
// comment on the line before the mistake; the emulator's report must name that line.
#pragma once

#include <doctest/doctest.h>

#include <cuda_runtime.h>

#include <fstream>
#include <functional>
#include <string>

#include "simt/options.h"
#include "simt/report.h"

// The line after the `// BUG: name` marker in `file`.
inline int marker_line(const char* file, const std::string& name) {
    std::ifstream source(file);
    std::string line;
    for (int number = 1; std::getline(source, line); ++number)
        if (line.find("// BUG: " + name) != std::string::npos &&
            line.find("find(") == std::string::npos)
            return number + 1;
    return -1;
}

inline std::string base_name(const std::string& path) {
    return path.substr(path.find_last_of('/') + 1);
}

struct Expectation {
    simt::FaultKind kind;
    std::string marker;
};

// Runs `launch` with the checks on and quiet; returns the last fault and resets the device.
inline simt::FaultReport run_quietly(const std::function<void()>& launch,
                                     simt::Mode mode = simt::Mode::its,
                                     simt::Dispatch dispatch = simt::Dispatch::in_order) {
    const simt::Options saved = simt::options();
    simt::options().mode = mode;
    simt::options().dispatch = dispatch;
    simt::options().report_to_stderr = false;
    simt::reset_device();
    launch();
    cudaDeviceSynchronize();
    simt::FaultReport report = simt::last_fault();
    simt::options() = saved;
    simt::reset_device();
    return report;
}

// The launch must fail with a finding of the expected kind, and the report must name the line
// after the bug's marker. Returns the report, for checks of what else it says.
inline simt::FaultReport expect_planted_report(const char* file, const Expectation& e,
                                               const std::function<void()>& launch,
                                               simt::Mode mode = simt::Mode::its,
                                               simt::Dispatch dispatch = simt::Dispatch::in_order) {
    const simt::FaultReport report = run_quietly(launch, mode, dispatch);
    const int line = marker_line(file, e.marker);
    REQUIRE(line > 0);
    const std::string where = base_name(file) + ":" + std::to_string(line);
    INFO("bug '" << e.marker << "', expected " << simt::to_string(e.kind) << " at " << where
                 << "\nreport:\n"
                 << report.message);
    bool kind_found = report.kind == e.kind;
    for (const simt::Finding& f : report.findings) kind_found = kind_found || f.kind == e.kind;
    CHECK(kind_found);
    CHECK(report.message.find(where) != std::string::npos);
    return report;
}

// The launch must run with no report at all (the correct versions of the planted bugs).
inline void expect_clean(const char* what, const std::function<void()>& launch) {
    const simt::FaultReport report = run_quietly(launch);
    INFO(what << " should run with no report, got:\n" << report.message);
    CHECK(report.kind == simt::FaultKind::none);
    CHECK(report.findings.empty());
}
