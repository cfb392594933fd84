// Lab 04's graded functions, for the harness (proxies) and the worker (tools/worker/README.md).
#include "multi_block_scan.h"

#include "remote_function.h"

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
