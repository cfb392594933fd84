#include <scanlab/operators.h>
#include <scanlab/reference_scan.h>

#include <chrono>
#include <random>
#include <vector>

#include "lab_entry.h"
#include "sequential_scan.h"

namespace {
using namespace scanlab::run;

RunResult run_lab00(uint64_t seed) {
    const int n = 1 << 22;
    std::mt19937_64 rng(seed);
    std::uniform_int_distribution<int> value(-1000, 1000);
    std::vector<int> in(n), out(n);
    for (int& v : in) v = value(rng);
    auto t0 = std::chrono::steady_clock::now();
    lab00::sequential_scan<scanlab::Sum<int>>(in.data(), out.data(), n,
                                               scanlab::ScanKind::inclusive);
    auto t1 = std::chrono::steady_clock::now();
    auto expect = scanlab::reference_scan<scanlab::Sum<int>>(std::span<const int>(in),
                                                             scanlab::ScanKind::inclusive);
    RunResult r;
    r.n = n;
    r.correct = out == expect;
    r.ms = std::chrono::duration<double, std::milli>(t1 - t0).count();
    return r;
}

std::string record_lab00(const RecordRequest&) {
    return "lab 00 runs on the host: there is no kernel to trace";
}

RegisterLab lab00{{"00", "sequential, host (inclusive sum, int32)", run_lab00, record_lab00}};
} // namespace
