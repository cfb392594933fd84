// Lab 03's graded functions, for the harness (proxies) and the worker (tools/worker/README.md).
// Its bank conflict tests record the calls' launches: the worker records them with the
// harness's settings and sends the traces back (remote_tracing.h).
#include "conflict_free_scan.h"

#include "remote_scan.h"

SCANLAB_REMOTE_SCAN(lab03, conflict_free_scan, device);
SCANLAB_REMOTE_SCAN(lab03, scan_unpadded, device);
