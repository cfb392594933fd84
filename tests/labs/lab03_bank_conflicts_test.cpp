// Lab 03, graded on the emulator: the padded scan must remove (almost) all of the unpadded scan's
// shared-memory bank conflicts. The emulator records both launches on the same input and counts
// conflicts as Nsight Compute defines them (wavefronts minus the ideal; see docs/emulator.md).
#include <doctest/doctest.h>

#include <scanlab/device_buffer.h>
#include <scanlab/operators.h>
#include <scanlab/reference_scan.h>
#include <scanlab/trace/analysis.h>
#include <scanlab/trace/trace.h>

#include <algorithm>
#include <map>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "conflict_free_scan.h"
#include "scan_test_support.h"
#include "simt/trace.h"

namespace {

struct Recorded {
    std::vector<int> out;
    unsigned long long conflicts = 0;
    size_t launches = 0;
    std::vector<long long> slot_of;                    // element -> the slot its load stored to
    std::map<std::string, unsigned long long> by_line; // "file.cu:42" -> conflicts there
};

// The slot each element was stored to by the load at the kernel's start: thread t's first shared
// store is element t, its second element t + blockDim.x (lab 02's layout). -1: not seen.
std::vector<long long> load_slots(const scanlab::trace::Trace& trace, int elements) {
    const int half = elements / 2;
    std::vector<long long> slot(static_cast<std::size_t>(elements), -1);
    std::vector<int> stores(static_cast<std::size_t>(half), 0);
    for (const auto& instruction : trace.instructions) {
        if (instruction.space != scanlab::trace::MemorySpace::shared ||
            instruction.kind != scanlab::trace::AccessKind::store)
            continue;
        for (const auto& lane : instruction.lanes) {
            if (lane.thread >= static_cast<std::uint32_t>(half)) continue;
            int& seen = stores[lane.thread];
            if (seen < 2)
                slot[lane.thread + static_cast<std::size_t>(seen) * half] =
                    static_cast<long long>(lane.offset / instruction.width);
            ++seen;
        }
    }
    return slot;
}

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
    for (const auto& t : traces) {
        const auto analysis = scanlab::trace::analyze_trace(t);
        r.conflicts += analysis.launch.all().conflicts;
        for (std::size_t k = 0; k < analysis.instructions.size(); ++k) {
            if (!analysis.instructions[k] || analysis.instructions[k]->conflicts == 0) continue;
            const auto& source = t.instructions[k].source;
            std::string file = source.file < t.sources.size() ? t.sources[source.file].path : "?";
            file = file.substr(file.find_last_of('/') + 1);
            r.by_line[file + ":" + std::to_string(source.line)] +=
                analysis.instructions[k]->conflicts;
        }
    }
    if (traces.size() == 1) r.slot_of = load_slots(traces[0], static_cast<int>(in.size()));
    return r;
}

// What the padded scan's recording shows about its padding, for the hint when conflicts remain.
std::string padding_hint(const Recorded& padded) {
    const auto& slot = padded.slot_of;
    const int n = static_cast<int>(slot.size());
    auto expected = [](long long i) { return i + (i >> 5) + (i >> 10); }; // 4-byte elements
    int wrong = -1;
    for (int i = 0; i < n && wrong < 0; ++i)
        if (slot[static_cast<std::size_t>(i)] >= 0 &&
            slot[static_cast<std::size_t>(i)] != expected(i))
            wrong = i;
    if (n == 0 || std::all_of(slot.begin(), slot.end(), [](long long s) { return s < 0; }))
        return "the recording shows no stores to shared memory; the lines with conflicts are "
               "the place to look";
    if (wrong < 0) {
        // The loads are padded right: another access is not.
        std::vector<std::pair<unsigned long long, std::string>> lines;
        for (const auto& [line, count] : padded.by_line) lines.emplace_back(count, line);
        std::sort(lines.rbegin(), lines.rend());
        std::string where;
        for (std::size_t k = 0; k < lines.size() && k < 3; ++k)
            where +=
                (k ? ", " : "") + lines[k].second + " (" + std::to_string(lines[k].first) + ")";
        return "the loads put every element in its padded slot, so another access is not padded: "
               "the conflicts are at " +
               where + "; use slot() for every shared index there";
    }
    bool unpadded = true;
    for (int i = 0; i < n; ++i)
        if (slot[static_cast<std::size_t>(i)] >= 0 && slot[static_cast<std::size_t>(i)] != i)
            unpadded = false;
    if (unpadded)
        return "the loads store element i at slot i: the padded scan applies no padding at all "
               "(does slot() pad when kPadded is true, and does conflict_free_scan launch the "
               "padded kernel?)";
    // The first element that padding moved, and the distance between the moves.
    int first_moved = -1;
    for (int i = 1; i < n && first_moved < 0; ++i)
        if (slot[static_cast<std::size_t>(i)] >= 0 && slot[static_cast<std::size_t>(i)] != i)
            first_moved = i;
    if (first_moved > 0 && first_moved != 32)
        return "the loads put element " + std::to_string(first_moved) + " in slot " +
               std::to_string(slot[static_cast<std::size_t>(first_moved)]) +
               ": the padding adds a slot after every " + std::to_string(first_moved) +
               " elements. A row of the " + std::to_string(lab03::kNumBanks) +
               " four-byte banks holds " + std::to_string(lab03::kNumBanks) +
               " ints, so the padding must come after every " + std::to_string(lab03::kNumBanks) +
               " elements (and again after every " +
               std::to_string(lab03::kNumBanks * lab03::kNumBanks) + ")";
    return "element " + std::to_string(wrong) + " was loaded into slot " +
           std::to_string(slot[static_cast<std::size_t>(wrong)]) +
           ", the conflict-free layout puts it in slot " + std::to_string(expected(wrong)) +
           " (one pad after every " + std::to_string(lab03::kNumBanks) +
           " elements and one more after every " +
           std::to_string(lab03::kNumBanks * lab03::kNumBanks) + ")";
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
                  "the padded scan keeps "
                      << padded.conflicts << " of " << unpadded.conflicts
                      << " conflicts (more than 5%)\n  lab 03 hint: " << padding_hint(padded));
}
