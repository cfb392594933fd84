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

struct LabEntry {
    std::string lab;   // "01"
    std::string title; // "naive (Hillis-Steele), one block"
    std::function<RunResult(uint64_t seed)> run;
};

std::vector<LabEntry>& lab_entries();

struct RegisterLab {
    explicit RegisterLab(LabEntry entry) { lab_entries().push_back(std::move(entry)); }
};

} // namespace scanlab::run
