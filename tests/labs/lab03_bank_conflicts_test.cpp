// Lab 03, graded on the emulator: the padded scan must remove (almost) all of the unpadded scan's
// shared-memory bank conflicts. The emulator records both launches on the same input and counts
// conflicts as Nsight Compute defines them (wavefronts minus the ideal; see docs/emulator.md).
#include <doctest/doctest.h>

#include <scanlab/device_buffer.h>
#include <scanlab/operators.h>
#include <scanlab/reference_scan.h>
#include <scanlab/trace/analysis.h>
#include <scanlab/trace/trace.h>

#include <random>
#include <vector>

#include "conflict_free_scan.h"
#include "scan_test_support.h"
#include "simt/trace.h"

namespace {

struct Recorded {
    std::vector<int> out;
    unsigned long long conflicts = 0;
    size_t launches = 0;
};

template <class Scan>
Recorded record(Scan scan, const std::vector<int>& in) {
    scanlab::DeviceBuffer<int> d_in(in), d_out(in.size());
    simt::start_tracing({.blocks = {}, .max_instructions = 1u << 22});
    scan(d_in.data(), d_out.data(), static_cast<int>(in.size()));
    cudaDeviceSynchronize();
    auto traces = simt::stop_tracing();
    Recorded r;
    r.out = d_out.download();
    r.launches = traces.size();
    for (const auto& t : traces) r.conflicts += scanlab::trace::analyze_trace(t).launch.all().conflicts;
    return r;
}

} // namespace

TEST_CASE("bank conflicts: padding removes at least 95% of the unpadded scan's conflicts") {
    const int n = lab03::kMaxN;
    std::mt19937_64 rng(scanlab::test::seed());
    std::uniform_int_distribution<int> value(-100, 100);
    std::vector<int> in(n);
    for (int& v : in) v = value(rng);
    const auto expect = scanlab::reference_scan<scanlab::Sum<int>>(std::span<const int>(in),
                                                                   scanlab::ScanKind::exclusive);
    auto unpadded = record(
        [](const int* i, int* o, int count) {
            lab03::scan_unpadded<scanlab::Sum<int>>(i, o, count, scanlab::ScanKind::exclusive);
        },
        in);
    auto padded = record(
        [](const int* i, int* o, int count) {
            lab03::conflict_free_scan<scanlab::Sum<int>>(i, o, count, scanlab::ScanKind::exclusive);
        },
        in);
    MESSAGE("n = " << n << ": unpadded scan " << unpadded.conflicts << " bank conflicts, padded "
                   << padded.conflicts << " (run ./scanlab trace 03 --student to see where)");
    // Conflicts only count for a scan that is right.
    REQUIRE_MESSAGE(unpadded.out == expect, "scan_unpadded gives wrong results: see its tests");
    REQUIRE_MESSAGE(padded.out == expect, "conflict_free_scan gives wrong results: see its tests");
    REQUIRE_MESSAGE(unpadded.conflicts > 0,
                    "the unpadded scan should have the 2007 layout's bank conflicts");
    CHECK_MESSAGE(padded.conflicts * 20 <= unpadded.conflicts,
                  "the padded scan keeps " << padded.conflicts << " of " << unpadded.conflicts
                                           << " conflicts (more than 5%): is every shared index "
                                              "padded, including the loads and the final stores?");
}
