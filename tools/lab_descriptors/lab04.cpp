// Lab 04 (multi-block scan of any n): both methods, with the default 512 threads per block, each
// a row of the main job. Each call allocates and frees its temporary memory (the lab's
// contract), which waits for the GPU: the benchmark counts that as part of its time.
#include "lab_descriptor.h"
#include "lab_remote.h"
#include "multi_block_scan.h"

#include <scanlab/operators.h>

#include <cstdint>

namespace lab04_descriptor {
using namespace scanlab::labs;
using Op = scanlab::Sum<std::int32_t>;

LabDescriptor describe() {
    LabDescriptor lab{.number = "04", .trace_n = 4096};
    lab.variants.push_back(
        {.name = "scan-then-propagate",
         .call = scan_call(&lab04::scan_then_propagate<Op>, lab04::kDefaultBlockThreads),
         .trace_caption = "scan_then_propagate<Sum<int>>, inclusive",
         .run_title = "multi-block: scan-then-propagate",
         .bench_name = "lab04.scan_then_propagate",
         .bench_label = "lab04 scan_then_propagate",
         .waits_for_gpu = true});
    lab.variants.push_back(
        {.name = "reduce-then-scan",
         .call = scan_call(&lab04::reduce_then_scan<Op>, lab04::kDefaultBlockThreads),
         .trace_caption = "reduce_then_scan<Sum<int>>, inclusive",
         .run_title = "multi-block: reduce-then-scan",
         .bench_name = "lab04.reduce_then_scan",
         .bench_label = "lab04 reduce_then_scan",
         .waits_for_gpu = true});
    return lab;
}

RegisterLab lab04{describe()};
} // namespace lab04_descriptor

// The graded functions, for the grader's harness and worker (lab_remote.h).
using scanlab::ScanKind;
using scanlab::remote::Value;

SCANLAB_REMOTE_FUNCTION(lab04, scan_then_propagate,
                        (const Value<Op>* d_in, Value<Op>* d_out, std::int64_t n, ScanKind kind,
                         int block_threads),
                        (d_in, d_out, n, kind, block_threads));
SCANLAB_REMOTE_FUNCTION(lab04, reduce_then_scan,
                        (const Value<Op>* d_in, Value<Op>* d_out, std::int64_t n, ScanKind kind,
                         int block_threads),
                        (d_in, d_out, n, kind, block_threads));
