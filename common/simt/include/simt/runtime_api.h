// The CUDA runtime API on the simt backend: the calls labs and typical student programs make.
// Semantics follow the CUDA documentation; differences are listed in docs/emulator.md.
#pragma once

#include "simt/types.h"

cudaError_t cudaMalloc(void** ptr, size_t bytes);
cudaError_t cudaMallocManaged(void** ptr, size_t bytes, unsigned int flags = cudaMemAttachGlobal);
cudaError_t cudaMallocHost(void** ptr, size_t bytes);
cudaError_t cudaHostAlloc(void** ptr, size_t bytes, unsigned int flags = 0);
// Mapped (zero-copy) host memory: its device pointer is its host address.
cudaError_t cudaHostGetDevicePointer(void** device, void* host, unsigned int flags);
cudaError_t cudaFree(void* ptr);
cudaError_t cudaFreeHost(void* ptr);
cudaError_t cudaMemcpy(void* dst, const void* src, size_t bytes, cudaMemcpyKind kind);
cudaError_t cudaMemcpyAsync(void* dst, const void* src, size_t bytes, cudaMemcpyKind kind,
                            cudaStream_t stream = nullptr);
cudaError_t cudaMemset(void* dst, int value, size_t bytes);
cudaError_t cudaMemsetAsync(void* dst, int value, size_t bytes, cudaStream_t stream = nullptr);
// Pitched (2D) memory: `height` rows of `width` bytes, rows `pitch` bytes apart.
cudaError_t cudaMallocPitch(void** ptr, size_t* pitch, size_t width, size_t height);
cudaError_t cudaMemcpy2D(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width,
                         size_t height, cudaMemcpyKind kind);
cudaError_t cudaMemcpy2DAsync(void* dst, size_t dpitch, const void* src, size_t spitch,
                              size_t width, size_t height, cudaMemcpyKind kind,
                              cudaStream_t stream = nullptr);
cudaError_t cudaMemset2D(void* dst, size_t pitch, int value, size_t width, size_t height);
cudaError_t cudaMemset2DAsync(void* dst, size_t pitch, int value, size_t width, size_t height,
                              cudaStream_t stream = nullptr);
// Stream-ordered allocation: work in a stream is done when its call returns here, so these are
// cudaMalloc and cudaFree (either frees what the other allocated, as in CUDA).
cudaError_t cudaMallocAsync(void** ptr, size_t bytes, cudaStream_t stream);
cudaError_t cudaFreeAsync(void* ptr, cudaStream_t stream);
cudaError_t cudaMemGetInfo(size_t* free_bytes, size_t* total_bytes);
cudaError_t cudaPointerGetAttributes(cudaPointerAttributes* attributes, const void* ptr);

cudaError_t simt_memcpy_to_symbol(const void* symbol, const void* src, size_t bytes, size_t offset,
                                  cudaMemcpyKind kind);
cudaError_t simt_memcpy_from_symbol(void* dst, const void* symbol, size_t bytes, size_t offset,
                                    cudaMemcpyKind kind);
cudaError_t simt_get_symbol_address(void** address, const void* symbol);

template <class T>
cudaError_t cudaMalloc(T** ptr, size_t bytes) {
    return cudaMalloc(reinterpret_cast<void**>(ptr), bytes);
}
template <class T>
cudaError_t cudaMallocPitch(T** ptr, size_t* pitch, size_t width, size_t height) {
    return cudaMallocPitch(reinterpret_cast<void**>(ptr), pitch, width, height);
}
template <class T>
cudaError_t cudaMallocAsync(T** ptr, size_t bytes, cudaStream_t stream) {
    return cudaMallocAsync(reinterpret_cast<void**>(ptr), bytes, stream);
}
template <class T>
cudaError_t cudaMallocManaged(T** ptr, size_t bytes, unsigned int flags = cudaMemAttachGlobal) {
    return cudaMallocManaged(reinterpret_cast<void**>(ptr), bytes, flags);
}
template <class T>
cudaError_t cudaMallocHost(T** ptr, size_t bytes) {
    return cudaMallocHost(reinterpret_cast<void**>(ptr), bytes);
}
template <class T>
cudaError_t cudaHostAlloc(T** ptr, size_t bytes, unsigned int flags) {
    return cudaHostAlloc(reinterpret_cast<void**>(ptr), bytes, flags);
}
template <class T>
cudaError_t cudaHostGetDevicePointer(T** device, void* host, unsigned int flags) {
    return cudaHostGetDevicePointer(reinterpret_cast<void**>(device), host, flags);
}
template <class T>
cudaError_t cudaMemcpyToSymbol(const T& symbol, const void* src, size_t bytes, size_t offset = 0,
                               cudaMemcpyKind kind = cudaMemcpyHostToDevice) {
    return simt_memcpy_to_symbol(&symbol, src, bytes, offset, kind);
}
template <class T>
cudaError_t cudaMemcpyFromSymbol(void* dst, const T& symbol, size_t bytes, size_t offset = 0,
                                 cudaMemcpyKind kind = cudaMemcpyDeviceToHost) {
    return simt_memcpy_from_symbol(dst, &symbol, bytes, offset, kind);
}
template <class T>
cudaError_t cudaGetSymbolAddress(void** address, const T& symbol) {
    return simt_get_symbol_address(address, &symbol);
}

cudaError_t cudaDeviceSynchronize();
cudaError_t cudaDeviceReset();
cudaError_t cudaGetLastError();
cudaError_t cudaPeekAtLastError();
const char* cudaGetErrorString(cudaError_t error);
const char* cudaGetErrorName(cudaError_t error);

cudaError_t cudaGetDeviceCount(int* count);
cudaError_t cudaGetDevice(int* device);
cudaError_t cudaSetDevice(int device);
cudaError_t cudaGetDeviceProperties(cudaDeviceProp* prop, int device);
cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attr, int device);
cudaError_t cudaDriverGetVersion(int* version);
cudaError_t cudaRuntimeGetVersion(int* version);

cudaError_t cudaStreamCreate(cudaStream_t* stream);
cudaError_t cudaStreamCreateWithFlags(cudaStream_t* stream, unsigned int flags);
// Priorities are kept and read back (clamped to the range, as CUDA does) but change nothing: the
// emulator runs each stream's work when it is issued.
cudaError_t cudaStreamCreateWithPriority(cudaStream_t* stream, unsigned int flags, int priority);
cudaError_t cudaDeviceGetStreamPriorityRange(int* least, int* greatest);
cudaError_t cudaStreamGetPriority(cudaStream_t stream, int* priority);
cudaError_t cudaStreamGetFlags(cudaStream_t stream, unsigned int* flags);
cudaError_t cudaStreamDestroy(cudaStream_t stream);
cudaError_t cudaStreamSynchronize(cudaStream_t stream);
cudaError_t cudaStreamQuery(cudaStream_t stream);
// Host callbacks in a stream. Work in a stream is done when it returns on the emulator, so the
// callback runs at once, on the calling thread, with the device's error state.
using cudaStreamCallback_t = void (*)(cudaStream_t stream, cudaError_t status, void* user_data);
using cudaHostFn_t = void (*)(void* user_data);
cudaError_t cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback,
                                  void* user_data, unsigned int flags);
cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void* user_data);

cudaError_t cudaEventCreate(cudaEvent_t* event);
cudaError_t cudaEventCreateWithFlags(cudaEvent_t* event, unsigned int flags);
cudaError_t cudaEventDestroy(cudaEvent_t event);
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream = nullptr);
cudaError_t cudaEventSynchronize(cudaEvent_t event);
cudaError_t cudaEventQuery(cudaEvent_t event);
cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end);

// Kernel attributes are keyed by the kernel's address.
cudaError_t simt_func_set_attribute(const void* kernel, cudaFuncAttribute attr, int value);
template <class F>
cudaError_t cudaFuncSetAttribute(F* kernel, cudaFuncAttribute attr, int value) {
    return simt_func_set_attribute(reinterpret_cast<const void*>(kernel), attr, value);
}
cudaError_t simt_occupancy_max_active_blocks(int* blocks, const void* kernel, int block_size,
                                             size_t dynamic_smem);
template <class F>
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* blocks, F* kernel, int block_size,
                                                          size_t dynamic_smem) {
    return simt_occupancy_max_active_blocks(blocks, reinterpret_cast<const void*>(kernel),
                                            block_size, dynamic_smem);
}
// The block size with the most resident threads per multiprocessor by the rules above (the
// largest, at equal occupancy), and the grid that fills every multiprocessor with it.
cudaError_t simt_occupancy_max_potential_block_size(int* min_grid, int* block_size,
                                                    size_t dynamic_smem, int block_size_limit);
template <class F>
cudaError_t cudaOccupancyMaxPotentialBlockSize(int* min_grid, int* block_size, F* /*kernel*/,
                                               size_t dynamic_smem = 0, int block_size_limit = 0) {
    return simt_occupancy_max_potential_block_size(min_grid, block_size, dynamic_smem,
                                                   block_size_limit);
}

// Page-locking host memory: copies from it work as from any host memory, and kernels may use it
// (every flag maps it: its device pointer is its own address, cudaHostGetDevicePointer).
cudaError_t cudaHostRegister(void* ptr, size_t bytes, unsigned int flags);
cudaError_t cudaHostUnregister(void* ptr);
// Device flags (scheduling, cudaDeviceMapHost) change nothing on the emulator.
cudaError_t cudaSetDeviceFlags(unsigned int flags);
cudaError_t cudaGetDeviceFlags(unsigned int* flags);
