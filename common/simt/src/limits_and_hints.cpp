// Device limits, cache preferences and stream access-policy hints (simt/limits_and_hints.h):
// kept, read back, and otherwise without effect on the emulator.
#include <algorithm>
#include <map>
#include <utility>

#include "device_heap.h"
#include "error_state.h"
#include "simt/limits_and_hints.h"

using simt::detail::api_error;
using simt::detail::error_state;

namespace {

// CUDA's defaults on a compute capability 9.0 device.
std::map<cudaLimit, size_t>& limits() {
    static std::map<cudaLimit, size_t> values = {
        {cudaLimitStackSize, 1024},
        {cudaLimitPrintfFifoSize, 1 << 20},
        {cudaLimitMallocHeapSize, 8 << 20},
        {cudaLimitDevRuntimeSyncDepth, 2},
        {cudaLimitDevRuntimePendingLaunchCount, 2048},
        {cudaLimitMaxL2FetchGranularity, 64},
        {cudaLimitPersistingL2CacheSize, 0},
    };
    return values;
}

std::map<std::pair<cudaStream_t, cudaStreamAttrID>, cudaStreamAttrValue>& stream_attributes() {
    static std::map<std::pair<cudaStream_t, cudaStreamAttrID>, cudaStreamAttrValue> values;
    return values;
}

// The smallest device heap: an H200 (CUDA 13) reads any smaller cudaLimitMallocHeapSize back as
// this, right after it is set.
constexpr size_t kSmallestDeviceHeap = size_t{4} << 20;

cudaFuncCache g_cache_config = cudaFuncCachePreferNone;

bool known_cache_config(cudaFuncCache config) {
    return config >= cudaFuncCachePreferNone && config <= cudaFuncCachePreferEqual;
}

bool known_stream_attribute(cudaStreamAttrID attr) {
    return attr == cudaStreamAttributeAccessPolicyWindow ||
           attr == cudaStreamAttributeSynchronizationPolicy;
}

} // namespace

cudaError_t cudaDeviceSetLimit(cudaLimit limit, size_t value) {
    if (error_state().sticky != cudaSuccess) return error_state().sticky;
    auto it = limits().find(limit);
    if (it == limits().end())
        return api_error(cudaErrorInvalidValue, "cudaDeviceSetLimit", "unknown limit");
    if (limit == cudaLimitMallocHeapSize && simt::detail::device_heap_in_use())
        return api_error(cudaErrorInvalidValue, "cudaDeviceSetLimit",
                         "the device heap's size (cudaLimitMallocHeapSize) is set before the "
                         "first kernel that uses malloc or new: a kernel has allocated from it "
                         "(cudaDeviceReset frees it and lets it be set again)");
    // The emulated device has no L2 cache to set aside: a persisting size rounds down to 0. A
    // heap is at least 4 MiB, as an H200 with CUDA 13 reads a smaller size back right away.
    if (limit == cudaLimitPersistingL2CacheSize) value = 0;
    if (limit == cudaLimitMallocHeapSize) value = std::max(value, kSmallestDeviceHeap);
    it->second = value;
    return cudaSuccess;
}

cudaError_t cudaDeviceGetLimit(size_t* value, cudaLimit limit) {
    if (!value) return api_error(cudaErrorInvalidValue, "cudaDeviceGetLimit", "null pointer");
    auto it = limits().find(limit);
    if (it == limits().end())
        return api_error(cudaErrorInvalidValue, "cudaDeviceGetLimit", "unknown limit");
    *value = it->second;
    return cudaSuccess;
}

cudaError_t cudaDeviceSetCacheConfig(cudaFuncCache config) {
    if (error_state().sticky != cudaSuccess) return error_state().sticky;
    if (!known_cache_config(config))
        return api_error(cudaErrorInvalidValue, "cudaDeviceSetCacheConfig", "unknown preference");
    g_cache_config = config;
    return cudaSuccess;
}

cudaError_t cudaDeviceGetCacheConfig(cudaFuncCache* config) {
    if (!config)
        return api_error(cudaErrorInvalidValue, "cudaDeviceGetCacheConfig", "null pointer");
    *config = g_cache_config;
    return cudaSuccess;
}

cudaError_t simt_func_set_cache_config(const void* kernel, cudaFuncCache config) {
    if (error_state().sticky != cudaSuccess) return error_state().sticky;
    if (!kernel || !known_cache_config(config))
        return api_error(cudaErrorInvalidValue, "cudaFuncSetCacheConfig",
                         kernel ? "unknown preference" : "null kernel");
    return cudaSuccess;
}

cudaError_t cudaStreamSetAttribute(cudaStream_t stream, cudaStreamAttrID attr,
                                   const cudaStreamAttrValue* value) {
    if (error_state().sticky != cudaSuccess) return error_state().sticky;
    if (!value || !known_stream_attribute(attr))
        return api_error(cudaErrorInvalidValue, "cudaStreamSetAttribute",
                         value ? "unknown attribute" : "null value");
    stream_attributes()[{stream, attr}] = *value;
    return cudaSuccess;
}

cudaError_t cudaStreamGetAttribute(cudaStream_t stream, cudaStreamAttrID attr,
                                   cudaStreamAttrValue* value) {
    if (!value || !known_stream_attribute(attr))
        return api_error(cudaErrorInvalidValue, "cudaStreamGetAttribute",
                         value ? "unknown attribute" : "null value");
    auto it = stream_attributes().find({stream, attr});
    if (it != stream_attributes().end()) {
        *value = it->second;
    } else {
        *value = cudaStreamAttrValue{};
        if (attr == cudaStreamAttributeSynchronizationPolicy)
            value->syncPolicy = cudaSyncPolicyAuto;
    }
    return cudaSuccess;
}

cudaError_t cudaCtxResetPersistingL2Cache() {
    if (error_state().sticky != cudaSuccess) return error_state().sticky;
    return cudaSuccess;
}
