// Lab 05's graded functions, for the harness (proxies) and the worker (tools/worker/README.md):
// the instances its graded tests call, the same as the lab's .cu file instantiates.
#include "warp_scan.h"

#include "remote_function.h"
#include "remote_workspace.h"

#include <scanlab/operators.h>

using lab05::WarpScanVariant;
using lab05::Workspace;
using scanlab::ScanKind;
using scanlab::remote::Value;

SCANLAB_REMOTE_FUNCTION(lab05, warp_scan_groups,
                        (const Value<Op>* d_in, Value<Op>* d_out, int n, ScanKind kind,
                         WarpScanVariant variant),
                        (d_in, d_out, n, kind, variant));

SCANLAB_REMOTE_TILED_FUNCTION(lab05, block_scan_tiles,
                              (const Value<Op>* d_in, Value<Op>* d_out, int n, ScanKind kind),
                              (d_in, d_out, n, kind));
SCANLAB_REMOTE_TILES(lab05, block_scan_tiles, 128, 1);
SCANLAB_REMOTE_TILES(lab05, block_scan_tiles, 96, 3);

SCANLAB_REMOTE_TILED_FUNCTION(lab05, scan,
                              (const Value<Op>* d_in, Value<Op>* d_out, std::int64_t n,
                               ScanKind kind, Workspace* workspace),
                              (d_in, d_out, n, kind, workspace));
SCANLAB_REMOTE_TILES(lab05, scan, lab05::kDefaultBlockThreads,
                     lab05::kDefaultItemsPerThread<Value<Op>>);
SCANLAB_REMOTE_TILES(lab05, scan, 64, 3);
SCANLAB_REMOTE_TILES_OF(lab05, scan, scanlab::Sum<std::int32_t>, 32, 1);
SCANLAB_REMOTE_TILES_OF(lab05, scan, scanlab::Affine<std::uint32_t>, 1024, 2);
