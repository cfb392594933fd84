// Lab 01 (naive Hillis-Steele, one thread block): one call scans at most lab01::kMaxN = 1024
// elements. The main job runs 64 blocks' worth, one call each (the emulator benchmark's
// workload); the benchmark times it in the single-block table.
#include "lab_descriptor.h"
#include "lab_remote.h"
#include "naive_scan.h"

#include <scanlab/operators.h>

#include <cstdint>

namespace lab01_descriptor {
using namespace scanlab::labs;

LabDescriptor describe() {
    LabDescriptor lab{.number = "01", .max_n = lab01::kMaxN, .run_slices = 64, .trace_n = 16};
    lab.variants.push_back({.call = scan_call(&lab01::naive_scan<scanlab::Sum<std::int32_t>>),
                            .trace_caption = "naive_scan<Sum<int>>, inclusive",
                            .run_title = "naive Hillis-Steele, 64 blocks x 1024",
                            .bench_name = "lab01.naive_scan",
                            .bench_label = "lab01 naive_scan"});
    return lab;
}

RegisterLab lab01{describe()};
} // namespace lab01_descriptor

// The graded functions, for the grader's harness and worker (lab_remote.h).
using scanlab::ScanKind;
using scanlab::remote::Value;

SCANLAB_REMOTE_FUNCTION(lab01, naive_scan,
                        (const Value<Op>* d_in, Value<Op>* d_out, int n, ScanKind kind),
                        (d_in, d_out, n, kind));
