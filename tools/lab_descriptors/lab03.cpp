// Lab 03 (conflict-free Blelloch scan, one thread block): n <= lab03::kMaxN = 2048 per call, with
// the same kernel without padding next to it (the tracer's --variant unpadded shows its bank
// conflicts; the benchmark times both).
#include "conflict_free_scan.h"
#include "lab_descriptor.h"
#include "lab_remote.h"

#include <scanlab/operators.h>

#include <cstdint>

namespace lab03_descriptor {
using namespace scanlab::labs;
using Op = scanlab::Sum<std::int32_t>;

LabDescriptor describe() {
    LabDescriptor lab{.number = "03",
                      .max_n = lab03::kMaxN,
                      .shown_kind = scanlab::ScanKind::exclusive,
                      .trace_n = 256};
    lab.variants.push_back({.name = "padded",
                            .call = scan_call(&lab03::conflict_free_scan<Op>),
                            .trace_caption = "conflict_free_scan<Sum<int>>, exclusive",
                            .run_title = "conflict-free (padded Blelloch), one block",
                            .bench_name = "lab03.conflict_free_scan",
                            .bench_label = "lab03 conflict_free_scan"});
    lab.variants.push_back({.name = "unpadded",
                            .call = scan_call(&lab03::scan_unpadded<Op>),
                            .trace_caption = "scan_unpadded<Sum<int>>, exclusive",
                            .bench_name = "lab03.scan_unpadded",
                            .bench_label = "lab03 scan_unpadded"});
    return lab;
}

RegisterLab lab03{describe()};
} // namespace lab03_descriptor

// The graded functions, for the grader's harness and worker (lab_remote.h).
// Its bank conflict tests record the calls' launches: the worker records them with the
// harness's settings and sends the traces back (tools/worker/remote_tracing.h).
using scanlab::ScanKind;
using scanlab::remote::Value;

SCANLAB_REMOTE_FUNCTION(lab03, conflict_free_scan,
                        (const Value<Op>* d_in, Value<Op>* d_out, int n, ScanKind kind),
                        (d_in, d_out, n, kind));
SCANLAB_REMOTE_FUNCTION(lab03, scan_unpadded,
                        (const Value<Op>* d_in, Value<Op>* d_out, int n, ScanKind kind),
                        (d_in, d_out, n, kind));
