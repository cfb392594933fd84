// Lab 06's graded functions, for the harness (proxies) and the worker (tools/worker/README.md):
// the instances its graded tests call, the same as the lab's .cu file instantiates, and the
// segmented operator's identity() and apply(), which the tests also call on the host.
#include "segmented_scan.h"

#include "remote_function.h"
#include "remote_workspace.h"

using lab06::SegmentedMethod;
using lab06::Workspace;
using scanlab::ScanKind;
using scanlab::remote::Value;

SCANLAB_REMOTE_MEMBER(lab06::Segmented, identity, value_type, (), ());
SCANLAB_REMOTE_MEMBER(lab06::Segmented, apply, value_type, (value_type a, value_type b), (a, b));

SCANLAB_REMOTE_FUNCTION(lab06, segmented_warp_scan_groups,
                        (const Value<Op>* d_in, const std::uint8_t* d_flags, Value<Op>* d_out,
                         int n, ScanKind kind, SegmentedMethod method),
                        (d_in, d_flags, d_out, n, kind, method));

SCANLAB_REMOTE_TILED_FUNCTION(lab06, segmented_block_scan_tiles,
                              (const Value<Op>* d_in, const std::uint8_t* d_flags, Value<Op>* d_out,
                               int n, ScanKind kind, SegmentedMethod method),
                              (d_in, d_flags, d_out, n, kind, method));
SCANLAB_REMOTE_TILES(lab06, segmented_block_scan_tiles, 96, 3);

SCANLAB_REMOTE_TILED_FUNCTION(lab06, segmented_scan,
                              (const Value<Op>* d_in, const std::uint8_t* d_flags, Value<Op>* d_out,
                               std::int64_t n, ScanKind kind, SegmentedMethod method,
                               Workspace* workspace),
                              (d_in, d_flags, d_out, n, kind, method, workspace));
SCANLAB_REMOTE_TILES(lab06, segmented_scan, lab06::kDefaultBlockThreads,
                     lab06::kDefaultItemsPerThread<Value<Op>>);
SCANLAB_REMOTE_TILES(lab06, segmented_scan, 64, 3);
