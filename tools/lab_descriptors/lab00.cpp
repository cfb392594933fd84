// Lab 00 (sequential scan on the host): the main job times it; there is no kernel to trace or
// benchmark.
#include "lab_descriptor.h"
#include "lab_remote.h"
#include "sequential_scan.h"

#include <scanlab/operators.h>

namespace lab00_descriptor {
using namespace scanlab::labs;

LabDescriptor describe() {
    LabDescriptor lab{.number = "00", .runs = Runs::host, .run_n = 1 << 22};
    lab.variants.push_back({.call =
                                [](const ScanCall& c) {
                                    lab00::sequential_scan<scanlab::Sum<int>>(
                                        c.input<int>(), c.output<int>(), static_cast<int>(c.n),
                                        c.kind);
                                },
                            .run_title = "sequential, host (inclusive sum, int32)"});
    return lab;
}

RegisterLab lab00{describe()};
} // namespace lab00_descriptor

// The graded functions, for the grader's harness and worker (lab_remote.h).
using scanlab::ScanKind;
using scanlab::remote::Value;

// A host function: its pointers are host ranges of n elements.
SCANLAB_REMOTE_FUNCTION(lab00, sequential_scan,
                        (const Value<Op>* in, Value<Op>* out, int n, ScanKind kind),
                        (host_range(in, n), host_range(out, n), n, kind));
