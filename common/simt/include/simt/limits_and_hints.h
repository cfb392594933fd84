// Device limits (cudaDeviceSetLimit), cache preferences (cudaDeviceSetCacheConfig,
// cudaFuncSetCacheConfig) and the L2 access-policy hints of streams: accepted and kept, so that
// code which sets them runs, and read back as set. They change nothing on the emulator: it has
// no L1/L2 caches to split or set aside (its device reports l2CacheSize and
// persistingL2CacheMaxSize 0), and its fibers' stacks, printf and device heap do not come from
// these budgets. On a GPU, too, cache preferences and access policies change speed, not results.
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

enum cudaFuncCache : int {
    cudaFuncCachePreferNone = 0,
    cudaFuncCachePreferShared = 1,
    cudaFuncCachePreferL1 = 2,
    cudaFuncCachePreferEqual = 3,
};
cudaError_t cudaDeviceSetCacheConfig(cudaFuncCache config);
cudaError_t cudaDeviceGetCacheConfig(cudaFuncCache* config);
cudaError_t simt_func_set_cache_config(const void* kernel, cudaFuncCache config);
template <class F>
cudaError_t cudaFuncSetCacheConfig(F* kernel, cudaFuncCache config) {
    return simt_func_set_cache_config(reinterpret_cast<const void*>(kernel), config);
}

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
