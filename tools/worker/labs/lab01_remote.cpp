// Lab 01's graded functions, for the harness (proxies) and the worker (tools/worker/README.md).
#include "naive_scan.h"

#include "remote_scan.h"

SCANLAB_REMOTE_SCAN(lab01, naive_scan, device);
