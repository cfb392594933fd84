// Lab 08's development benchmark: scanlab_bench's harness (main.cpp, report.cpp, the memcpy and
// CUB baselines) with these lab entries instead of the descriptors' (lab_entries.cpp): lab 07's
// solution and lab 08's solution in several pipeline shapes, int32 sums. scripts/bench-lab08.sh
// builds it with nvcc on a GPU machine; once lab 08 has its descriptor, scanlab_bench itself
// measures it and this file goes.
#include "bench.h"

#include "../labs/07_decoupled_lookback/lookback_scan.h"
// The solution itself, so that every shape below is instantiated here.
#include "../solutions/08_hopper_scan/hopper_scan.cu"

#include <scanlab/operators.h>

#include <cstdint>
#include <memory>
#include <string>

namespace scanlab::bench {
namespace {

using Sum = scanlab::Sum<std::int32_t>;
constexpr std::int64_t kAnyN = std::int64_t(1) << 40;

template <class Workspace, class Scan>
Entry entry(std::string lab, std::string name, std::string label, Scan scan) {
    Entry e;
    e.lab = std::move(lab);
    e.name = std::move(name);
    e.label = std::move(label);
    e.group = Group::global;
    e.role = Role::lab;
    e.expect = Expect::inclusive;
    e.max_n = kAnyN;
    auto workspace = std::make_shared<std::unique_ptr<Workspace>>();
    e.prepare = [workspace](std::int64_t) {
        if (!*workspace) *workspace = std::make_unique<Workspace>();
    };
    e.call = [workspace, scan](const Operands& op) { scan(op, workspace->get()); };
    e.release = [workspace] { workspace->reset(); };
    return e;
}

template <class Shape>
Entry lab08_entry(const char* suffix) {
    std::string shape = "w";
    shape += std::to_string(Shape::kScannerWarps);
    shape += " s" + std::to_string(Shape::kStages);
    shape += " v" + std::to_string(Shape::kVectorsPerLane);
    shape += " l" + std::to_string(Shape::kLookBackWarps);
    shape += " b" + std::to_string(Shape::kMinBlocksPerSm);
    shape += " p" + std::to_string(Shape::kPollPauseNs);
    return entry<lab08::Workspace>(
        "08", std::string("lab08.hopper_scan") + suffix, "lab08 hopper_scan " + shape,
        [](const Operands& op, lab08::Workspace* w) {
            lab08::scan<Sum, Shape>(op.in, op.out, op.n, ScanKind::inclusive, w);
        });
}

} // namespace

std::vector<Entry> lab_entries() {
    std::vector<Entry> all;
    all.push_back(entry<lab07::Workspace>(
        "07", "lab07.decoupled_lookback", "lab07 decoupled_lookback",
        [](const Operands& op, lab07::Workspace* w) {
            lab07::scan<Sum>(op.in, op.out, op.n, ScanKind::inclusive, {}, w);
        }));
    all.push_back(lab08_entry<lab08::DefaultShape>(""));
    // The sweep: tile size (scanner warps x vectors per lane), stages, look-back warps, the
    // register cap (blocks per SM).
    all.push_back(lab08_entry<lab08::PipelineShape<4, 5, 4, 1, 4>>(".w4s5v4b4"));
    all.push_back(lab08_entry<lab08::PipelineShape<2, 5, 8, 1, 5>>(".w2s5v8b5"));
    all.push_back(lab08_entry<lab08::PipelineShape<1, 5, 16, 1, 4>>(".w1s5v16b4"));
    all.push_back(lab08_entry<lab08::PipelineShape<4, 5, 4, 1, 5>>(".w4s5v4b5"));
    return all;
}

} // namespace scanlab::bench
