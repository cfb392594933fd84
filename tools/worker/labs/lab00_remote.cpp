// Lab 00's graded functions, for the harness (proxies) and the worker (tools/worker/README.md).
#include "sequential_scan.h"

#include "remote_scan.h"

SCANLAB_REMOTE_SCAN(lab00, sequential_scan, host);
