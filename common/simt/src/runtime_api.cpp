// The CUDA runtime API of the emulated device. Every call checks its arguments the way the real
// runtime does, returns the same error codes, and explains a misuse on stderr.
#include <sys/mman.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <map>
#include <sstream>

#include "checks/global_shadow.h"
#include "data_flow.h"
#include "device_heap.h"
#include "device_lock.h"
#include "error_state.h"
#include "graphs.h"
#include "memory_registry.h"
#include "provenance.h"
#include "simt/checks.h"
#include "simt/limits_and_hints.h"
#include "simt/options.h"
#include "simt/runtime_api.h"
#include "simt/shared.h"
#include "shared_limits.h"

using simt::detail::api_error;
using simt::detail::data_flow;
using simt::detail::error_state;
using simt::detail::memory_registry;
using simt::detail::provenance;
using simt::detail::Region;
using simt::detail::RegionKind;

namespace simt::detail {

constexpr size_t kGlobalMemoryBytes = size_t(16) << 30; // what the emulated device reports
constexpr size_t kSharedPerBlock = 48 * 1024;
constexpr size_t kSharedPerBlockOptin = 227 * 1024;

std::map<const void*, size_t>& dynamic_shared_limits() {
    static std::map<const void*, size_t> limits;
    return limits;
}
// CUDA's rule: without cudaFuncAttributeMaxDynamicSharedMemorySize a block's static and dynamic
// shared memory together fit in 48 KiB (the attribute's default is 48 KiB less the static part).
// The attribute bounds the dynamic part alone; the sum may then reach the opt-in limit.
SharedLimits shared_limits_for(const void* kernel) {
    auto it = dynamic_shared_limits().find(kernel);
    if (it == dynamic_shared_limits().end()) return {kSharedPerBlock, kSharedPerBlock};
    return {it->second, kSharedPerBlockOptin};
}

namespace {
std::string hex(const void* p) {
    std::ostringstream s;
    s << p;
    return s.str();
}
bool device_accessible(const Region* r) {
    return r && r->kind != RegionKind::parameters;
}
} // namespace

} // namespace simt::detail

using namespace simt::detail;

// Every call that touches the device's state starts here: it takes the device for this host
// thread (device_lock.h), then returns the sticky error of a faulted kernel, if any.
#define SIMT_API_GUARD()                                                                           \
    const DeviceLock device_lock;                                                                  \
    if (error_state().sticky != cudaSuccess) return error_state().sticky

static cudaError_t allocate(void** ptr, size_t bytes, RegionKind kind, const char* call) {
    SIMT_API_GUARD();
    if (!ptr) return api_error(cudaErrorInvalidValue, call, "the pointer to the result is null");
    *ptr = nullptr;
    if (bytes == 0) return cudaSuccess; // CUDA returns success and a null pointer
    if (kind != RegionKind::pinned_host &&
        bytes > kGlobalMemoryBytes - memory_registry().device_bytes_in_use())
        return api_error(cudaErrorMemoryAllocation, call,
                         "the emulated device has 16 GiB and " + std::to_string(bytes) +
                             " more bytes do not fit");
    // Own mappings, away from the host heap: a host pointer passed by mistake is never mistaken
    // for "just past the end" of a device allocation. Page-aligned (CUDA promises 256 bytes).
    size_t rounded = (bytes + 4095) / 4096 * 4096;
    void* p = mmap(nullptr, rounded, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return api_error(cudaErrorMemoryAllocation, call, "out of host memory");
    // Fresh device memory holds garbage on a GPU; a fixed pattern makes unwritten outputs visible.
    std::memset(p, 0xCD, rounded);
    memory_registry().add(reinterpret_cast<uintptr_t>(p), bytes, kind);
    global_shadow().forget(reinterpret_cast<uintptr_t>(p), rounded); // nothing written yet
    data_flow().mark(reinterpret_cast<uintptr_t>(p), rounded, false);
    *ptr = p;
    return cudaSuccess;
}

cudaError_t cudaMalloc(void** ptr, size_t bytes) {
    return allocate(ptr, bytes, RegionKind::device, "cudaMalloc");
}
cudaError_t cudaMallocManaged(void** ptr, size_t bytes, unsigned int) {
    return allocate(ptr, bytes, RegionKind::managed, "cudaMallocManaged");
}
cudaError_t cudaMallocHost(void** ptr, size_t bytes) {
    return allocate(ptr, bytes, RegionKind::pinned_host, "cudaMallocHost");
}
cudaError_t cudaHostAlloc(void** ptr, size_t bytes, unsigned int flags) {
    // Portable and write-combined change nothing here. Kernels may read and write page-locked
    // host memory (the emulated device's memory is host memory): mapped memory's device pointer
    // is its host address, as with unified addressing on a GPU (cudaHostGetDevicePointer).
    if (flags & ~unsigned{cudaHostAllocPortable | cudaHostAllocMapped | cudaHostAllocWriteCombined})
        return api_error(cudaErrorInvalidValue, "cudaHostAlloc", "unknown flags");
    return allocate(ptr, bytes, RegionKind::pinned_host, "cudaHostAlloc");
}
cudaError_t cudaHostGetDevicePointer(void** device, void* host, unsigned int flags) {
    SIMT_API_GUARD();
    if (!device || flags != 0)
        return api_error(cudaErrorInvalidValue, "cudaHostGetDevicePointer",
                         device ? "flags must be 0" : "null pointer");
    const Region* r = memory_registry().find(reinterpret_cast<uintptr_t>(host));
    if (!r || r->kind != RegionKind::pinned_host)
        return api_error(cudaErrorInvalidValue, "cudaHostGetDevicePointer",
                         hex(host) + " is not page-locked host memory from cudaHostAlloc, "
                                     "cudaMallocHost or cudaHostRegister");
    *device = host;
    return cudaSuccess;
}

static cudaError_t release(void* ptr, bool host, const char* call,
                           cudaError_t wrong_pointer_error) {
    SIMT_API_GUARD();
    if (!ptr) return cudaSuccess;
    const Region* r = memory_registry().find(reinterpret_cast<uintptr_t>(ptr));
    const bool right_kind =
        r && (host ? r->kind == RegionKind::pinned_host && r->name != "cudaHostRegister"
                   : (r->kind == RegionKind::device || r->kind == RegionKind::managed) && !r->heap);
    if (!r || r->base != reinterpret_cast<uintptr_t>(ptr) || !right_kind) {
        std::string why =
            hex(ptr) + " was not returned by " +
            (host ? "cudaMallocHost" : "cudaMalloc, cudaMallocPitch or cudaMallocAsync") +
            (r && r->heap ? " (it is device heap memory, from malloc or new in a "
                            "kernel: only free or delete in a kernel frees it)"
                          : "") +
            (memory_registry().find_freed(reinterpret_cast<uintptr_t>(ptr))
                 ? " (or it was already freed)"
                 : "");
        return api_error(wrong_pointer_error, call, why);
    }
    Region removed;
    memory_registry().remove(reinterpret_cast<uintptr_t>(ptr), &removed);
    munmap(ptr, (removed.bytes + 4095) / 4096 * 4096);
    global_shadow().forget(reinterpret_cast<uintptr_t>(ptr), removed.bytes);
    data_flow().mark(reinterpret_cast<uintptr_t>(ptr), removed.bytes, false);
    return cudaSuccess;
}
cudaError_t cudaFree(void* ptr) {
    return release(ptr, false, "cudaFree", cudaErrorInvalidDevicePointer);
}
cudaError_t cudaFreeHost(void* ptr) {
    return release(ptr, true, "cudaFreeHost", cudaErrorInvalidValue);
}

// A capture would record a memory-allocation or memory-free node, which the emulator's graphs do
// not have.
static cudaError_t refuse_allocation_in_capture(const char* call) {
    return api_error(cudaErrorNotSupported, call,
                     "in a stream being captured it would make a memory node of the graph: CUDA "
                     "graphs with memory-allocation and memory-free nodes are not supported by the "
                     "simt emulator (allocate before the capture, free after it)");
}
cudaError_t cudaMallocAsync(void** ptr, size_t bytes, cudaStream_t stream) {
    {
        const DeviceLock device_lock;
        if (capturing(stream)) return refuse_allocation_in_capture("cudaMallocAsync");
    }
    return allocate(ptr, bytes, RegionKind::device, "cudaMallocAsync");
}
cudaError_t cudaFreeAsync(void* ptr, cudaStream_t stream) {
    {
        const DeviceLock device_lock;
        if (ptr && capturing(stream)) return refuse_allocation_in_capture("cudaFreeAsync");
    }
    // cudaFreeAsync answers a pointer it cannot free with cudaErrorInvalidValue (an H200, CUDA 13).
    return release(ptr, false, "cudaFreeAsync", cudaErrorInvalidValue);
}

// Rows of a pitched allocation start a multiple of 512 bytes apart: the pitch an H200 (CUDA 13)
// returns is the width rounded up to 512, which keeps every row aligned for any access and for
// the coalescing of a warp's loads along it. A program that indexes with `width` instead of the
// pitch then fails here as it would on a GPU.
constexpr size_t kPitchAlignment = 512;
// cudaDevAttrMaxPitch: a larger pitch is refused, as on a GPU.
constexpr size_t kMaxPitch = 2147483647;

cudaError_t cudaMallocPitch(void** ptr, size_t* pitch, size_t width, size_t height) {
    SIMT_API_GUARD();
    if (!ptr || !pitch)
        return api_error(cudaErrorInvalidValue, "cudaMallocPitch",
                         "the pointer to the result or to the pitch is null");
    if (width == 0 || height == 0) { // as CUDA: success, a null pointer and a pitch of 0
        *ptr = nullptr;
        *pitch = 0;
        return cudaSuccess;
    }
    const size_t row = (width + kPitchAlignment - 1) / kPitchAlignment * kPitchAlignment;
    if (row < width || height > SIZE_MAX / row) {
        *ptr = nullptr;
        return api_error(cudaErrorMemoryAllocation, "cudaMallocPitch",
                         std::to_string(height) + " rows of " + std::to_string(width) +
                             " bytes do not fit in the emulated device's 16 GiB");
    }
    const cudaError_t error = allocate(ptr, row * height, RegionKind::device, "cudaMallocPitch");
    if (error == cudaSuccess) *pitch = row;
    return error;
}

// Checks that [p, p+bytes) lies in device-accessible memory (or, for host sides, that it does not
// overlap device memory in a way that suggests a swapped argument).
static bool check_device_range(const void* p, size_t bytes, const std::string& call,
                               const char* side, cudaError_t* error) {
    const Region* r = memory_registry().find(reinterpret_cast<uintptr_t>(p));
    if (!device_accessible(r)) {
        *error = api_error(cudaErrorInvalidValue, call,
                           std::string("the ") + side + " " + hex(p) +
                               " is not device memory (host pointer, or arguments swapped?)");
        return false;
    }
    if (r->heap) { // CUDA: device heap memory is not for the runtime's calls
        *error = api_error(cudaErrorInvalidValue, call,
                           std::string("the ") + side + " " + hex(p) +
                               " is device heap memory (malloc or new in a kernel), which the "
                               "runtime's copies and sets may not use: copy it in a kernel");
        return false;
    }
    // Compared as what is left after p, not as p + bytes, which wraps for a size near 2^64 (a
    // size computed as (n - 1) * sizeof(T) with n = 0).
    const size_t left = r->base + r->bytes - reinterpret_cast<uintptr_t>(p);
    if (bytes > left) {
        *error =
            api_error(cudaErrorInvalidValue, call,
                      std::string("copying ") + std::to_string(bytes) + " bytes at the " + side +
                          " runs " + std::to_string(bytes - left) + " bytes past the end of its " +
                          std::to_string(r->bytes) + "-byte allocation");
        return false;
    }
    return true;
}

static bool is_device(const void* p) {
    const Region* r = memory_registry().find(reinterpret_cast<uintptr_t>(p));
    return device_accessible(r) && r->kind != RegionKind::pinned_host;
}

// The graded-output watch (provenance.h) names the caller's line: `caller` is the return address
// into the code that called the public entry point.
static cudaError_t copy_memory(void* dst, const void* src, size_t bytes, cudaMemcpyKind kind,
                               const char* name, const void* caller) {
    SIMT_API_GUARD();
    const std::string call = "cudaMemcpy";
    if (bytes == 0) return cudaSuccess;
    if (!dst || !src) return api_error(cudaErrorInvalidValue, call, "null pointer");
    if (kind == cudaMemcpyDefault)
        kind = is_device(src) ? (is_device(dst) ? cudaMemcpyDeviceToDevice : cudaMemcpyDeviceToHost)
                              : (is_device(dst) ? cudaMemcpyHostToDevice : cudaMemcpyHostToHost);
    cudaError_t error = cudaSuccess;
    switch (kind) {
    case cudaMemcpyHostToDevice:
        if (!check_device_range(dst, bytes, call + "(HostToDevice)", "destination", &error))
            return error;
        if (is_device(src))
            return api_error(cudaErrorInvalidValue, call + "(HostToDevice)",
                             "the source " + hex(src) +
                                 " is device memory: use cudaMemcpyDeviceToDevice");
        break;
    case cudaMemcpyDeviceToHost:
        if (!check_device_range(src, bytes, call + "(DeviceToHost)", "source", &error))
            return error;
        if (is_device(dst))
            return api_error(cudaErrorInvalidValue, call + "(DeviceToHost)",
                             "the destination " + hex(dst) +
                                 " is device memory: use cudaMemcpyDeviceToDevice");
        break;
    case cudaMemcpyDeviceToDevice:
        if (!check_device_range(src, bytes, call + "(DeviceToDevice)", "source", &error))
            return error;
        if (!check_device_range(dst, bytes, call + "(DeviceToDevice)", "destination", &error))
            return error;
        break;
    case cudaMemcpyHostToHost:
        break;
    default:
        return api_error(cudaErrorInvalidMemcpyDirection, call,
                         "unknown cudaMemcpyKind " + std::to_string(static_cast<int>(kind)));
    }
    std::memmove(dst, src, bytes);
    // On the emulator device memory is host memory, so cudaMemcpyHostToHost can move device
    // data too (on a GPU it would fault): it counts as what it did, by where its ends lie.
    const bool host_to_host_dst = kind == cudaMemcpyHostToHost && is_device(dst);
    const bool host_to_host_src = kind == cudaMemcpyHostToHost && is_device(src);
    if ((kind != cudaMemcpyDeviceToHost && kind != cudaMemcpyHostToHost) || host_to_host_dst)
        global_shadow().host_wrote(reinterpret_cast<uintptr_t>(dst), bytes);
    if (provenance().armed()) {
        const auto d = reinterpret_cast<uintptr_t>(dst), s = reinterpret_cast<uintptr_t>(src);
        if (host_to_host_dst && host_to_host_src)
            provenance().host_copied(d, s, bytes, name, caller);
        else if (host_to_host_dst)
            provenance().host_wrote(d, bytes, name, caller);
        else if (host_to_host_src)
            provenance().host_read(s, bytes, name, caller);
        if (kind == cudaMemcpyHostToDevice) provenance().host_wrote(d, bytes, name, caller);
        if (kind == cudaMemcpyDeviceToHost) provenance().host_read(s, bytes, name, caller);
        if (kind == cudaMemcpyDeviceToDevice) {
            provenance().host_copied(d, s, bytes, name, caller);
            // Managed memory is host memory too: host code reads it without a copy.
            const Region* r = memory_registry().find(d);
            if (r && r->kind == RegionKind::managed) provenance().host_read(s, bytes, name, caller);
        }
    }
    return cudaSuccess;
}
cudaError_t cudaMemcpy(void* dst, const void* src, size_t bytes, cudaMemcpyKind kind) {
    return copy_memory(dst, src, bytes, kind, "cudaMemcpy", __builtin_return_address(0));
}
cudaError_t cudaMemcpyAsync(void* dst, const void* src, size_t bytes, cudaMemcpyKind kind,
                            cudaStream_t stream) {
    {
        const DeviceLock device_lock;
        if (capturing(stream)) return capture_memcpy(stream, dst, src, bytes, kind);
    }
    return copy_memory(dst, src, bytes, kind, "cudaMemcpyAsync", __builtin_return_address(0));
}

static cudaError_t set_memory(void* dst, int value, size_t bytes, const char* name,
                              const void* caller) {
    SIMT_API_GUARD();
    if (bytes == 0) return cudaSuccess;
    cudaError_t error = cudaSuccess;
    if (!check_device_range(dst, bytes, name, "destination", &error)) return error;
    std::memset(dst, value, bytes);
    global_shadow().host_wrote(reinterpret_cast<uintptr_t>(dst), bytes);
    provenance().host_wrote(reinterpret_cast<uintptr_t>(dst), bytes, name, caller);
    return cudaSuccess;
}
cudaError_t cudaMemset(void* dst, int value, size_t bytes) {
    return set_memory(dst, value, bytes, "cudaMemset", __builtin_return_address(0));
}
cudaError_t cudaMemsetAsync(void* dst, int value, size_t bytes, cudaStream_t stream) {
    {
        const DeviceLock device_lock;
        if (capturing(stream)) return capture_memset(stream, dst, value, bytes);
    }
    return set_memory(dst, value, bytes, "cudaMemsetAsync", __builtin_return_address(0));
}

// The bytes from the first row's start to the last row's end (SIZE_MAX where that overflows, which
// no allocation holds, so that the range check refuses it).
static size_t pitched_span(size_t pitch, size_t width, size_t height) {
    if (pitch != 0 && height - 1 > (SIZE_MAX - width) / pitch) return SIZE_MAX;
    return (height - 1) * pitch + width;
}

// cudaMemcpy2D's argument checks, in the order and with the codes an H200 (CUDA 13) gives. Each
// row must then lie in one allocation (a device side) or be plain host memory.
static cudaError_t check_copy_2d(void* dst, size_t dpitch, const void* src, size_t spitch,
                                 size_t width, size_t height, cudaMemcpyKind kind,
                                 const std::string& call) {
    if (!dst || !src) return api_error(cudaErrorInvalidValue, call, "null pointer");
    if (dpitch > kMaxPitch || spitch > kMaxPitch)
        return api_error(cudaErrorInvalidValue, call,
                         "a pitch of more than " + std::to_string(kMaxPitch) +
                             " bytes (the device's maximum pitch)");
    if (kind < cudaMemcpyHostToHost || kind > cudaMemcpyDefault)
        return api_error(cudaErrorInvalidMemcpyDirection, call,
                         "unknown cudaMemcpyKind " + std::to_string(static_cast<int>(kind)));
    if (dpitch < width || spitch < width) {
        const std::string why = std::string(dpitch < width ? "dpitch " : "spitch ") +
                                std::to_string(dpitch < width ? dpitch : spitch) +
                                " is smaller than the width, " + std::to_string(width) +
                                " bytes: the rows would overlap";
        // One row has no pitch to speak of: CUDA calls it an invalid value then.
        return api_error(height > 1 ? cudaErrorInvalidPitchValue : cudaErrorInvalidValue, call,
                         why);
    }
    if (kind == cudaMemcpyDefault)
        kind = is_device(src) ? (is_device(dst) ? cudaMemcpyDeviceToDevice : cudaMemcpyDeviceToHost)
                              : (is_device(dst) ? cudaMemcpyHostToDevice : cudaMemcpyHostToHost);
    if (kind == cudaMemcpyHostToDevice && is_device(src))
        return api_error(cudaErrorInvalidValue, call,
                         "the source " + hex(src) +
                             " is device memory: use cudaMemcpyDeviceToDevice");
    if (kind == cudaMemcpyDeviceToHost && is_device(dst))
        return api_error(cudaErrorInvalidValue, call,
                         "the destination " + hex(dst) +
                             " is device memory: use cudaMemcpyDeviceToDevice");
    cudaError_t error = cudaSuccess;
    const bool device_src = kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice;
    const bool device_dst = kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice;
    if (device_src &&
        !check_device_range(src, pitched_span(spitch, width, height), call, "source", &error))
        return error;
    if (device_dst &&
        !check_device_range(dst, pitched_span(dpitch, width, height), call, "destination", &error))
        return error;
    return cudaSuccess;
}

static cudaError_t copy_2d(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width,
                           size_t height, cudaMemcpyKind kind, cudaStream_t stream,
                           const char* call, const void* caller) {
    SIMT_API_GUARD();
    if (width == 0 || height == 0) return cudaSuccess; // nothing to copy, pointers unread
    if (cudaError_t e = check_copy_2d(dst, dpitch, src, spitch, width, height, kind, call);
        e != cudaSuccess)
        return e;
    if (capturing(stream))
        return capture_memcpy_2d(stream, dst, dpitch, src, spitch, width, height, kind);
    // Row by row through cudaMemcpy, for its bookkeeping (its checks pass: every row lies where
    // the checks above found the whole span).
    for (size_t y = 0; y < height; ++y)
        if (cudaError_t e =
                copy_memory(static_cast<char*>(dst) + y * dpitch,
                            static_cast<const char*>(src) + y * spitch, width, kind, call, caller);
            e != cudaSuccess)
            return e;
    return cudaSuccess;
}
cudaError_t cudaMemcpy2D(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width,
                         size_t height, cudaMemcpyKind kind) {
    return copy_2d(dst, dpitch, src, spitch, width, height, kind, nullptr, "cudaMemcpy2D",
                   __builtin_return_address(0));
}
cudaError_t cudaMemcpy2DAsync(void* dst, size_t dpitch, const void* src, size_t spitch,
                              size_t width, size_t height, cudaMemcpyKind kind,
                              cudaStream_t stream) {
    return copy_2d(dst, dpitch, src, spitch, width, height, kind, stream, "cudaMemcpy2DAsync",
                   __builtin_return_address(0));
}

static cudaError_t set_2d(void* dst, size_t pitch, int value, size_t width, size_t height,
                          cudaStream_t stream, const char* call, const void* caller) {
    SIMT_API_GUARD();
    if (width == 0 || height == 0) return cudaSuccess; // nothing to set, the pointer unread
    if (!dst) return api_error(cudaErrorInvalidValue, call, "null pointer");
    // One row needs no pitch; several need one of at least the width (cudaErrorInvalidValue on
    // an H200, CUDA 13, not cudaMemcpy2D's cudaErrorInvalidPitchValue).
    if (height > 1 && pitch < width)
        return api_error(cudaErrorInvalidValue, call,
                         "the pitch " + std::to_string(pitch) + " is smaller than the width, " +
                             std::to_string(width) + " bytes: the rows would overlap");
    cudaError_t error = cudaSuccess;
    if (!check_device_range(dst, pitched_span(pitch, width, height), call, "destination", &error))
        return error;
    if (capturing(stream)) return capture_memset_2d(stream, dst, pitch, value, width, height);
    for (size_t y = 0; y < height; ++y)
        if (cudaError_t e =
                set_memory(static_cast<char*>(dst) + y * pitch, value, width, call, caller);
            e != cudaSuccess)
            return e;
    return cudaSuccess;
}
cudaError_t cudaMemset2D(void* dst, size_t pitch, int value, size_t width, size_t height) {
    return set_2d(dst, pitch, value, width, height, nullptr, "cudaMemset2D",
                  __builtin_return_address(0));
}
cudaError_t cudaMemset2DAsync(void* dst, size_t pitch, int value, size_t width, size_t height,
                              cudaStream_t stream) {
    return set_2d(dst, pitch, value, width, height, stream, "cudaMemset2DAsync",
                  __builtin_return_address(0));
}

cudaError_t cudaMemGetInfo(size_t* free_bytes, size_t* total_bytes) {
    SIMT_API_GUARD();
    if (!free_bytes || !total_bytes)
        return api_error(cudaErrorInvalidValue, "cudaMemGetInfo", "null pointer");
    *total_bytes = kGlobalMemoryBytes;
    *free_bytes = kGlobalMemoryBytes - memory_registry().device_bytes_in_use();
    return cudaSuccess;
}

cudaError_t cudaPointerGetAttributes(cudaPointerAttributes* a, const void* ptr) {
    SIMT_API_GUARD();
    if (!a) return api_error(cudaErrorInvalidValue, "cudaPointerGetAttributes", "null pointer");
    const Region* r = memory_registry().find(reinterpret_cast<uintptr_t>(ptr));
    *a = cudaPointerAttributes{cudaMemoryTypeUnregistered, 0, nullptr, nullptr};
    if (!r) return cudaSuccess;
    switch (r->kind) {
    case RegionKind::pinned_host:
        a->type = cudaMemoryTypeHost;
        break;
    case RegionKind::managed:
        a->type = cudaMemoryTypeManaged;
        break;
    default:
        a->type = cudaMemoryTypeDevice;
        break;
    }
    a->devicePointer = const_cast<void*>(ptr);
    if (r->kind != RegionKind::device) a->hostPointer = const_cast<void*>(ptr);
    return cudaSuccess;
}

// __device__ / __constant__ symbols, registered by the rewriter at static initialization.
simt::SymbolRegistration::SymbolRegistration(const volatile void* address, size_t bytes,
                                             const char* name, const char*, int) {
    memory_registry().add(reinterpret_cast<uintptr_t>(const_cast<const void*>(address)), bytes,
                          RegionKind::symbol, name);
}

static const Region* find_symbol(const void* symbol, const char* call, cudaError_t* error) {
    const Region* r = memory_registry().find(reinterpret_cast<uintptr_t>(symbol));
    if (!r || r->kind != RegionKind::symbol || r->base != reinterpret_cast<uintptr_t>(symbol)) {
        *error = api_error(cudaErrorInvalidSymbol, call,
                           "the argument is not a __device__ or __constant__ variable");
        return nullptr;
    }
    return r;
}

cudaError_t simt_memcpy_to_symbol(const void* symbol, const void* src, size_t bytes, size_t offset,
                                  cudaMemcpyKind) {
    SIMT_API_GUARD();
    cudaError_t error = cudaSuccess;
    const Region* r = find_symbol(symbol, "cudaMemcpyToSymbol", &error);
    if (!r) return error;
    if (offset > r->bytes || bytes > r->bytes - offset) // (offset + bytes may wrap)
        return api_error(cudaErrorInvalidValue, "cudaMemcpyToSymbol",
                         std::to_string(offset + bytes) + " bytes do not fit in '" + r->name +
                             "' (" + std::to_string(r->bytes) + " bytes)");
    std::memmove(reinterpret_cast<char*>(r->base) + offset, src, bytes);
    global_shadow().host_wrote(r->base + offset, bytes);
    return cudaSuccess;
}
cudaError_t simt_memcpy_from_symbol(void* dst, const void* symbol, size_t bytes, size_t offset,
                                    cudaMemcpyKind) {
    SIMT_API_GUARD();
    cudaError_t error = cudaSuccess;
    const Region* r = find_symbol(symbol, "cudaMemcpyFromSymbol", &error);
    if (!r) return error;
    if (offset > r->bytes || bytes > r->bytes - offset) // (offset + bytes may wrap)
        return api_error(cudaErrorInvalidValue, "cudaMemcpyFromSymbol",
                         std::to_string(offset + bytes) + " bytes exceed '" + r->name + "' (" +
                             std::to_string(r->bytes) + " bytes)");
    std::memmove(dst, reinterpret_cast<const char*>(r->base) + offset, bytes);
    return cudaSuccess;
}
cudaError_t simt_get_symbol_address(void** address, const void* symbol) {
    SIMT_API_GUARD();
    cudaError_t error = cudaSuccess;
    const Region* r = find_symbol(symbol, "cudaGetSymbolAddress", &error);
    if (!r) return error;
    *address = reinterpret_cast<void*>(r->base);
    return cudaSuccess;
}

cudaError_t cudaDeviceSynchronize() {
    SIMT_API_GUARD();
    return cudaSuccess;
}
cudaError_t cudaDeviceReset() {
    const DeviceLock device_lock;
    simt::reset_device();
    // The device heap goes with the context, and its size returns to CUDA's default.
    device_heap_reset();
    cudaDeviceSetLimit(cudaLimitMallocHeapSize, size_t{8} << 20);
    return cudaSuccess;
}
cudaError_t cudaGetLastError() {
    const DeviceLock device_lock;
    ErrorState& s = error_state();
    cudaError_t e = s.sticky != cudaSuccess ? s.sticky : s.last;
    s.last = cudaSuccess;
    return e;
}
cudaError_t cudaPeekAtLastError() {
    const DeviceLock device_lock;
    ErrorState& s = error_state();
    return s.sticky != cudaSuccess ? s.sticky : s.last;
}

const char* cudaGetErrorName(cudaError_t e) {
    switch (e) {
#define SIMT_NAME(x)                                                                               \
    case x:                                                                                        \
        return #x;
        SIMT_NAME(cudaSuccess)
        SIMT_NAME(cudaErrorInvalidValue)
        SIMT_NAME(cudaErrorMemoryAllocation)
        SIMT_NAME(cudaErrorInitializationError)
        SIMT_NAME(cudaErrorLaunchFailure)
        SIMT_NAME(cudaErrorLaunchTimeout)
        SIMT_NAME(cudaErrorLaunchOutOfResources)
        SIMT_NAME(cudaErrorInvalidDeviceFunction)
        SIMT_NAME(cudaErrorInvalidConfiguration)
        SIMT_NAME(cudaErrorInvalidDevice)
        SIMT_NAME(cudaErrorInvalidPitchValue)
        SIMT_NAME(cudaErrorInvalidSymbol)
        SIMT_NAME(cudaErrorInvalidDevicePointer)
        SIMT_NAME(cudaErrorInvalidMemcpyDirection)
        SIMT_NAME(cudaErrorNotSupported)
        SIMT_NAME(cudaErrorNoDevice)
        SIMT_NAME(cudaErrorIllegalAddress)
        SIMT_NAME(cudaErrorMisalignedAddress)
        SIMT_NAME(cudaErrorAssert)
        SIMT_NAME(cudaErrorIllegalInstruction)
        SIMT_NAME(cudaErrorCooperativeLaunchTooLarge)
        SIMT_NAME(cudaErrorHardwareStackError)
        SIMT_NAME(cudaErrorInvalidResourceHandle)
        SIMT_NAME(cudaErrorNotReady)
        SIMT_NAME(cudaErrorIllegalState)
        SIMT_NAME(cudaErrorStreamCaptureUnsupported)
        SIMT_NAME(cudaErrorStreamCaptureInvalidated)
        SIMT_NAME(cudaErrorStreamCaptureUnmatched)
        SIMT_NAME(cudaErrorStreamCaptureIsolation)
        SIMT_NAME(cudaErrorUnknown)
#undef SIMT_NAME
    }
    return "cudaErrorUnknown";
}

const char* cudaGetErrorString(cudaError_t e) {
    switch (e) {
    case cudaSuccess:
        return "no error";
    case cudaErrorInvalidValue:
        return "invalid argument";
    case cudaErrorMemoryAllocation:
        return "out of memory";
    case cudaErrorLaunchFailure:
        return "unspecified launch failure";
    case cudaErrorLaunchTimeout:
        return "the launch timed out and was terminated (deadlock)";
    case cudaErrorLaunchOutOfResources:
        return "too many resources requested for launch";
    case cudaErrorInvalidConfiguration:
        return "invalid configuration argument";
    case cudaErrorInvalidSymbol:
        return "invalid device symbol";
    case cudaErrorInvalidDevicePointer:
        return "invalid device pointer";
    case cudaErrorInvalidMemcpyDirection:
        return "invalid copy direction for memcpy";
    case cudaErrorIllegalAddress:
        return "an illegal memory access was encountered";
    case cudaErrorMisalignedAddress:
        return "misaligned address";
    case cudaErrorAssert:
        return "device-side assert triggered";
    case cudaErrorCooperativeLaunchTooLarge:
        return "too many blocks in cooperative launch";
    case cudaErrorHardwareStackError:
        return "hardware stack error";
    case cudaErrorInvalidDevice:
        return "invalid device ordinal";
    case cudaErrorInvalidPitchValue:
        return "invalid pitch argument";
    case cudaErrorNoDevice:
        return "no CUDA-capable device is detected";
    case cudaErrorInvalidResourceHandle:
        return "invalid resource handle";
    case cudaErrorNotSupported:
        return "operation not supported";
    default:
        return cudaGetErrorName(e);
    }
}

cudaError_t cudaGetDeviceCount(int* count) {
    if (!count) return api_error(cudaErrorInvalidValue, "cudaGetDeviceCount", "null pointer");
    *count = 1;
    return cudaSuccess;
}
cudaError_t cudaGetDevice(int* device) {
    if (!device) return api_error(cudaErrorInvalidValue, "cudaGetDevice", "null pointer");
    *device = 0;
    return cudaSuccess;
}
cudaError_t cudaSetDevice(int device) {
    SIMT_API_GUARD();
    if (device != 0)
        return api_error(cudaErrorInvalidDevice, "cudaSetDevice",
                         "the emulator has one device, number 0");
    return cudaSuccess;
}

cudaError_t cudaGetDeviceProperties(cudaDeviceProp* p, int device) {
    if (!p) return api_error(cudaErrorInvalidValue, "cudaGetDeviceProperties", "null pointer");
    if (device != 0)
        return api_error(cudaErrorInvalidDevice, "cudaGetDeviceProperties",
                         "the emulator has one device, number 0");
    *p = cudaDeviceProp{};
    std::snprintf(p->name, sizeof p->name, "Scan Lab SIMT emulator (CPU)");
    p->totalGlobalMem = kGlobalMemoryBytes;
    p->sharedMemPerBlock = kSharedPerBlock;
    p->sharedMemPerBlockOptin = kSharedPerBlockOptin;
    p->sharedMemPerMultiprocessor = 228 * 1024;
    p->regsPerBlock = 65536;
    p->warpSize = 32;
    p->maxThreadsPerBlock = 1024;
    p->maxThreadsDim[0] = 1024;
    p->maxThreadsDim[1] = 1024;
    p->maxThreadsDim[2] = 64;
    p->maxGridSize[0] = 2147483647;
    p->maxGridSize[1] = 65535;
    p->maxGridSize[2] = 65535;
    p->clockRate = 1000000;
    p->totalConstMem = 64 * 1024;
    p->major = 9; // the rules it follows: 32 banks of 4 bytes, independent thread scheduling
    p->minor = 0;
    p->multiProcessorCount = simt::options().multiprocessors;
    p->maxThreadsPerMultiProcessor = 2048;
    p->maxBlocksPerMultiProcessor = 32;
    p->l2CacheSize = 0;
    p->persistingL2CacheMaxSize = 0; // no L2 cache: access policies are hints without effect
    p->accessPolicyMaxWindowSize = 0;
    p->memoryClockRate = 0;
    p->memoryBusWidth = 0;
    p->concurrentKernels = 0;
    p->computeMode = cudaComputeModeDefault;
    p->integrated = 0;
    p->canMapHostMemory = 1; // zero-copy: kernels use page-locked host memory at its address
    p->unifiedAddressing = 1;
    p->managedMemory = 1;
    p->concurrentManagedAccess = 0;
    p->cooperativeLaunch = 1; // cudaLaunchCooperativeKernel, this_grid().sync()
    p->asyncEngineCount = 0;  // copies and kernels do not overlap: launches are synchronous
    p->deviceOverlap = 0;
    p->regsPerMultiprocessor = 65536;
    p->memPitch = 2147483647;
    p->textureAlignment = 512;
    return cudaSuccess;
}

cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attr, int device) {
    if (!value) return api_error(cudaErrorInvalidValue, "cudaDeviceGetAttribute", "null pointer");
    cudaDeviceProp p{};
    if (cudaError_t e = cudaGetDeviceProperties(&p, device); e != cudaSuccess) return e;
    switch (attr) {
    case cudaDevAttrMaxThreadsPerBlock:
        *value = p.maxThreadsPerBlock;
        break;
    case cudaDevAttrMaxSharedMemoryPerBlock:
        *value = static_cast<int>(p.sharedMemPerBlock);
        break;
    case cudaDevAttrWarpSize:
        *value = p.warpSize;
        break;
    case cudaDevAttrMultiProcessorCount:
        *value = p.multiProcessorCount;
        break;
    case cudaDevAttrMaxThreadsPerMultiProcessor:
        *value = p.maxThreadsPerMultiProcessor;
        break;
    case cudaDevAttrComputeCapabilityMajor:
        *value = p.major;
        break;
    case cudaDevAttrComputeCapabilityMinor:
        *value = p.minor;
        break;
    case cudaDevAttrL2CacheSize:
        *value = p.l2CacheSize;
        break;
    case cudaDevAttrMaxSharedMemoryPerBlockOptin:
        *value = static_cast<int>(p.sharedMemPerBlockOptin);
        break;
    case cudaDevAttrClockRate:
        *value = p.clockRate;
        break;
    case cudaDevAttrIntegrated:
        *value = p.integrated;
        break;
    case cudaDevAttrComputeMode:
        *value = p.computeMode;
        break;
    case cudaDevAttrCooperativeLaunch:
        *value = p.cooperativeLaunch;
        break;
    default:
        return api_error(cudaErrorInvalidValue, "cudaDeviceGetAttribute",
                         "attribute " + std::to_string(static_cast<int>(attr)) +
                             " is not supported by the simt emulator");
    }
    return cudaSuccess;
}
cudaError_t cudaDriverGetVersion(int* v) {
    if (!v) return cudaErrorInvalidValue;
    *v = 13000;
    return cudaSuccess;
}
cudaError_t cudaRuntimeGetVersion(int* v) {
    if (!v) return cudaErrorInvalidValue;
    *v = 13000;
    return cudaSuccess;
}

// Streams: launches and copies are synchronous here, so a stream is only a handle.
struct simt_stream {
    unsigned flags;
    int priority;
};
// The priorities an H200 (CUDA 13) offers: 0, the default and least, to -5, the greatest.
constexpr int kLeastStreamPriority = 0;
constexpr int kGreatestStreamPriority = -5;
static cudaError_t create_stream(cudaStream_t* s, unsigned flags, int priority, const char* call) {
    SIMT_API_GUARD();
    if (!s) return api_error(cudaErrorInvalidValue, call, "null pointer");
    if (flags & ~unsigned{cudaStreamNonBlocking})
        return api_error(cudaErrorInvalidValue, call,
                         "unknown flags (cudaStreamDefault and cudaStreamNonBlocking are the two)");
    // CUDA clamps a priority outside the range to its nearer end.
    *s =
        new simt_stream{flags, std::clamp(priority, kGreatestStreamPriority, kLeastStreamPriority)};
    return cudaSuccess;
}
cudaError_t cudaStreamCreate(cudaStream_t* s) {
    return create_stream(s, cudaStreamDefault, 0, "cudaStreamCreate");
}
cudaError_t cudaStreamCreateWithFlags(cudaStream_t* s, unsigned int flags) {
    return create_stream(s, flags, 0, "cudaStreamCreateWithFlags");
}
cudaError_t cudaStreamCreateWithPriority(cudaStream_t* s, unsigned int flags, int priority) {
    return create_stream(s, flags, priority, "cudaStreamCreateWithPriority");
}
cudaError_t cudaDeviceGetStreamPriorityRange(int* least, int* greatest) {
    SIMT_API_GUARD();
    if (least) *least = kLeastStreamPriority; // either may be null, as CUDA allows
    if (greatest) *greatest = kGreatestStreamPriority;
    return cudaSuccess;
}
cudaError_t cudaStreamGetPriority(cudaStream_t s, int* priority) {
    SIMT_API_GUARD();
    if (!priority) return api_error(cudaErrorInvalidValue, "cudaStreamGetPriority", "null pointer");
    *priority = s ? s->priority : kLeastStreamPriority; // the default stream's is the default
    return cudaSuccess;
}
cudaError_t cudaStreamGetFlags(cudaStream_t s, unsigned int* flags) {
    SIMT_API_GUARD();
    if (!flags) return api_error(cudaErrorInvalidValue, "cudaStreamGetFlags", "null pointer");
    *flags = s ? s->flags : cudaStreamDefault;
    return cudaSuccess;
}
cudaError_t cudaStreamDestroy(cudaStream_t s) {
    SIMT_API_GUARD();
    forget_captured_stream(s);
    delete s;
    return cudaSuccess;
}
cudaError_t cudaStreamSynchronize(cudaStream_t stream) {
    SIMT_API_GUARD();
    if (capturing(stream)) return refuse_in_capture(stream, "cudaStreamSynchronize");
    return cudaSuccess;
}
cudaError_t cudaEventQuery(cudaEvent_t e) {
    SIMT_API_GUARD();
    if (!e) return api_error(cudaErrorInvalidResourceHandle, "cudaEventQuery", "null event");
    return cudaSuccess; // recorded work is done: launches and copies are synchronous
}
cudaError_t cudaStreamQuery(cudaStream_t) {
    SIMT_API_GUARD();
    return cudaSuccess; // all its work is done: launches and copies are synchronous
}
cudaError_t cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback,
                                  void* user_data, unsigned int flags) {
    const DeviceLock device_lock;
    if (!callback || flags != 0)
        return api_error(cudaErrorInvalidValue, "cudaStreamAddCallback",
                         !callback ? "null callback" : "flags must be 0");
    if (capturing(stream)) return refuse_in_capture(stream, "cudaStreamAddCallback");
    callback(stream, error_state().sticky, user_data);
    return cudaSuccess;
}
cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void* user_data) {
    SIMT_API_GUARD();
    if (!fn) return api_error(cudaErrorInvalidValue, "cudaLaunchHostFunc", "null function");
    if (capturing(stream)) return capture_host_function(stream, fn, user_data);
    fn(user_data);
    return cudaSuccess;
}

// Events time host wall-clock: the emulator's own speed, not a GPU's.
struct simt_event {
    std::chrono::steady_clock::time_point when;
    bool recorded = false;
};
cudaError_t cudaEventCreate(cudaEvent_t* e) {
    return cudaEventCreateWithFlags(e, 0);
}
cudaError_t cudaEventCreateWithFlags(cudaEvent_t* e, unsigned int) {
    SIMT_API_GUARD();
    if (!e) return api_error(cudaErrorInvalidValue, "cudaEventCreate", "null pointer");
    *e = new simt_event{};
    return cudaSuccess;
}
cudaError_t cudaEventDestroy(cudaEvent_t e) {
    const DeviceLock device_lock;
    forget_captured_event(e);
    delete e;
    return cudaSuccess;
}
cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t stream) {
    SIMT_API_GUARD();
    if (!e) return api_error(cudaErrorInvalidResourceHandle, "cudaEventRecord", "null event");
    if (capturing(stream)) {
        capture_event_record(e, stream); // a point in the capture, not a time
        return cudaSuccess;
    }
    e->when = std::chrono::steady_clock::now();
    e->recorded = true;
    return cudaSuccess;
}
cudaError_t cudaEventSynchronize(cudaEvent_t e) {
    SIMT_API_GUARD();
    if (!e) return api_error(cudaErrorInvalidResourceHandle, "cudaEventSynchronize", "null event");
    return cudaSuccess;
}
cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end) {
    SIMT_API_GUARD();
    if (!ms || !start || !end)
        return api_error(cudaErrorInvalidValue, "cudaEventElapsedTime", "null argument");
    if (!start->recorded || !end->recorded)
        return api_error(cudaErrorNotReady, "cudaEventElapsedTime", "an event was never recorded");
    *ms = std::chrono::duration<float, std::milli>(end->when - start->when).count();
    return cudaSuccess;
}

cudaError_t simt_func_set_attribute(const void* kernel, cudaFuncAttribute attr, int value) {
    SIMT_API_GUARD();
    if (attr == cudaFuncAttributeMaxDynamicSharedMemorySize) {
        if (value < 0 || static_cast<size_t>(value) > kSharedPerBlockOptin)
            return api_error(cudaErrorInvalidValue, "cudaFuncSetAttribute",
                             "at most " + std::to_string(kSharedPerBlockOptin) +
                                 " bytes of dynamic shared memory per block");
        dynamic_shared_limits()[kernel] = static_cast<size_t>(value);
        return cudaSuccess;
    }
    return cudaSuccess; // carveout preferences do not change behaviour
}

cudaError_t simt_occupancy_max_active_blocks(int* blocks, const void*, int block_size,
                                             size_t dynamic_smem) {
    SIMT_API_GUARD();
    if (!blocks || block_size <= 0 || block_size > 1024)
        return api_error(cudaErrorInvalidValue, "cudaOccupancyMaxActiveBlocksPerMultiprocessor",
                         "bad arguments");
    int by_threads = 2048 / block_size;
    int by_smem = dynamic_smem ? static_cast<int>((228 * 1024) / (dynamic_smem + 1024)) : 32;
    *blocks = std::max(0, std::min({32, by_threads, by_smem}));
    return cudaSuccess;
}

cudaError_t simt_occupancy_max_potential_block_size(int* min_grid, int* block_size,
                                                    size_t dynamic_smem, int block_size_limit) {
    SIMT_API_GUARD();
    if (!min_grid || !block_size || block_size_limit < 0)
        return api_error(cudaErrorInvalidValue, "cudaOccupancyMaxPotentialBlockSize",
                         "bad arguments");
    const int limit = block_size_limit == 0 ? 1024 : std::min(1024, block_size_limit);
    int best = 0, best_threads = -1, best_blocks = 0;
    for (int size = 32; size <= limit; size += 32) {
        int blocks = 0;
        simt_occupancy_max_active_blocks(&blocks, nullptr, size, dynamic_smem);
        if (blocks * size >= best_threads) {
            best = size;
            best_threads = blocks * size;
            best_blocks = blocks;
        }
    }
    if (best == 0) { // a limit under one warp
        best = limit;
        simt_occupancy_max_active_blocks(&best_blocks, nullptr, best, dynamic_smem);
    }
    *block_size = best;
    *min_grid = best_blocks * simt::options().multiprocessors;
    return cudaSuccess;
}

cudaError_t cudaHostRegister(void* ptr, size_t bytes, unsigned int flags) {
    SIMT_API_GUARD();
    if (!ptr || bytes == 0)
        return api_error(cudaErrorInvalidValue, "cudaHostRegister", "null pointer or no bytes");
    if (bytes > UINTPTR_MAX - reinterpret_cast<uintptr_t>(ptr))
        return api_error(cudaErrorInvalidValue, "cudaHostRegister",
                         std::to_string(bytes) + " bytes from " + hex(ptr) +
                             " run past the end of the address space");
    // The range becomes page-locked host memory that kernels may use (through the pointer
    // cudaHostGetDevicePointer gives: its own address).
    if (memory_registry().find(reinterpret_cast<uintptr_t>(ptr)) ||
        memory_registry().find(reinterpret_cast<uintptr_t>(ptr) + bytes - 1))
        return api_error(cudaErrorInvalidValue, "cudaHostRegister",
                         hex(ptr) + " overlaps memory the runtime already knows");
    (void)flags;
    memory_registry().add(reinterpret_cast<uintptr_t>(ptr), bytes, RegionKind::pinned_host,
                          "cudaHostRegister");
    global_shadow().forget(reinterpret_cast<uintptr_t>(ptr), bytes);
    return cudaSuccess;
}
cudaError_t cudaHostUnregister(void* ptr) {
    SIMT_API_GUARD();
    if (!ptr) return api_error(cudaErrorInvalidValue, "cudaHostUnregister", "null pointer");
    const Region* r = memory_registry().find(reinterpret_cast<uintptr_t>(ptr));
    if (!r || r->base != reinterpret_cast<uintptr_t>(ptr) || r->kind != RegionKind::pinned_host ||
        r->name != "cudaHostRegister")
        return api_error(cudaErrorInvalidValue, "cudaHostUnregister",
                         hex(ptr) + " was not registered with cudaHostRegister");
    Region removed;
    memory_registry().remove(reinterpret_cast<uintptr_t>(ptr), &removed);
    global_shadow().forget(reinterpret_cast<uintptr_t>(ptr), removed.bytes);
    return cudaSuccess;
}
static unsigned g_device_flags = 0;
cudaError_t cudaSetDeviceFlags(unsigned int flags) {
    SIMT_API_GUARD();
    g_device_flags = flags;
    return cudaSuccess;
}
cudaError_t cudaGetDeviceFlags(unsigned int* flags) {
    if (!flags) return api_error(cudaErrorInvalidValue, "cudaGetDeviceFlags", "null pointer");
    *flags = g_device_flags;
    return cudaSuccess;
}

namespace simt {

bool accept_reset_by_earlier_launch(const void* device_ptr, size_t bytes) {
    if (bytes == 0) return true;
    const Region* r = memory_registry().find(reinterpret_cast<uintptr_t>(device_ptr));
    if (!device_accessible(r) ||
        bytes > r->base + r->bytes - reinterpret_cast<uintptr_t>(device_ptr))
        return false;
    const auto* p = static_cast<const unsigned char*>(device_ptr);
    if (std::any_of(p, p + bytes, [](unsigned char c) { return c != 0; })) return false;
    detail::global_shadow().accept_reset(reinterpret_cast<uintptr_t>(device_ptr), bytes);
    return true;
}

bool accept_self_tagged_words(const void* device_ptr, size_t bytes) {
    if (bytes == 0) return true;
    const Region* r = memory_registry().find(reinterpret_cast<uintptr_t>(device_ptr));
    if (!device_accessible(r)) return false;
    return memory_registry().mark_self_tagged(reinterpret_cast<uintptr_t>(device_ptr), bytes);
}

} // namespace simt
