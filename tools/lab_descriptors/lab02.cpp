// Lab 02 (work-efficient Blelloch scan, one thread block): n <= lab02::kMaxN = 2048 per call.
// The main job and the tracer show the exclusive scan the lesson builds.
#include "lab_descriptor.h"
#include "lab_remote.h"
#include "work_efficient_scan.h"

#include <scanlab/operators.h>

#include <cstdint>

namespace lab02_descriptor {
using namespace scanlab::labs;

LabDescriptor describe() {
    LabDescriptor lab{.number = "02",
                      .max_n = lab02::kMaxN,
                      .shown_kind = scanlab::ScanKind::exclusive,
                      .trace_n = 16};
    lab.variants.push_back(
        {.call = scan_call(&lab02::work_efficient_scan<scanlab::Sum<std::int32_t>>),
         .trace_caption = "work_efficient_scan<Sum<int>>, exclusive",
         .run_title = "work-efficient (Blelloch), one block",
         .bench_name = "lab02.work_efficient_scan",
         .bench_label = "lab02 work_efficient_scan"});
    return lab;
}

RegisterLab lab02{describe()};
} // namespace lab02_descriptor

// The graded functions, for the grader's harness and worker (lab_remote.h).
using scanlab::ScanKind;
using scanlab::remote::Value;

SCANLAB_REMOTE_FUNCTION(lab02, work_efficient_scan,
                        (const Value<Op>* d_in, Value<Op>* d_out, int n, ScanKind kind),
                        (d_in, d_out, n, kind));
