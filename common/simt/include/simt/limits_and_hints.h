// Device limits (cudaDeviceSetLimit) and the L2 access-policy hints of streams: accepted and
// kept, so that code which sets them runs, and read back as set. They change nothing on the
// emulator: it has no L2 cache (its device reports l2CacheSize and persistingL2CacheMaxSize 0),
// and its fibers' stacks, printf and device heap do not come from these budgets. On a GPU, too,
// an access policy only changes speed, never results.
#pragma once

#include <cstddef>

#include "simt/types.h"

enum cudaLimit : int {
    cudaLimitStackSize = 0x00,
    cudaLimitPrintfFifoSize = 0x01,
    cudaLimitMallocHeapSize = 0x02,
    cudaLimitDevRuntimeSyncDepth = 0x03,
    cudaLimitDevRuntimePendingLaunchCount = 0x04,
    cudaLimitMaxL2FetchGranularity = 0x05,
    cudaLimitPersistingL2CacheSize = 0x06,
};
cudaError_t cudaDeviceSetLimit(cudaLimit limit, size_t value);
cudaError_t cudaDeviceGetLimit(size_t* value, cudaLimit limit);

enum cudaAccessProperty : int {
    cudaAccessPropertyNormal = 0,
    cudaAccessPropertyStreaming = 1,
    cudaAccessPropertyPersisting = 2,
};
struct cudaAccessPolicyWindow {
    void* base_ptr;
    size_t num_bytes;
    float hitRatio;
    cudaAccessProperty hitProp;
    cudaAccessProperty missProp;
};
enum cudaSynchronizationPolicy : int {
    cudaSyncPolicyAuto = 1,
    cudaSyncPolicySpin = 2,
    cudaSyncPolicyYield = 3,
    cudaSyncPolicyBlockingSync = 4,
};
enum cudaStreamAttrID : int {
    cudaStreamAttributeAccessPolicyWindow = 1,
    cudaStreamAttributeSynchronizationPolicy = 3,
};
union cudaStreamAttrValue {
    cudaAccessPolicyWindow accessPolicyWindow;
    cudaSynchronizationPolicy syncPolicy;
};
cudaError_t cudaStreamSetAttribute(cudaStream_t stream, cudaStreamAttrID attr,
                                   const cudaStreamAttrValue* value);
cudaError_t cudaStreamGetAttribute(cudaStream_t stream, cudaStreamAttrID attr,
                                   cudaStreamAttrValue* value);
// Persisting lines in L2 back to normal: there are none.
cudaError_t cudaCtxResetPersistingL2Cache();
