// What the main job runs for each lab: one representative scan of fresh random data with the
// lab's reference solution, checked against the host reference and timed.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace scanlab::run {

struct RunResult {
    long long n = 0;      // elements scanned
    bool correct = false; // equal to the host reference
    double ms = 0;        // time of the scan itself (device events; wall time on the emulator)
    std::string detail;   // what was run, or what went wrong
};

// What `scanlab trace` asks a lab to run once: n elements of fresh random int32 data, inclusive
// sum, with the lab's reference solution (or the student's code), while the emulator records.
struct RecordRequest {
    long long n = 0;       // 0: the lab's own default size for a trace
    uint64_t seed = 1;
    std::string variant;   // a lab-specific choice, e.g. "unpadded" for lab 03; empty: default
};

struct LabEntry {
    std::string lab;   // "01"
    std::string title; // "naive (Hillis-Steele), one block"
    std::function<RunResult(uint64_t seed)> run;
    // Runs the lab once for a trace; returns what was run (for the trace's caption).
    std::function<std::string(const RecordRequest&)> record;
};

std::vector<LabEntry>& lab_entries();

struct RegisterLab {
    explicit RegisterLab(LabEntry entry) { lab_entries().push_back(std::move(entry)); }
};

} // namespace scanlab::run
