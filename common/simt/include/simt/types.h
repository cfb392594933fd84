// CUDA runtime types as the simt backend provides them: the names and members that plain CUDA C++
// code uses, source-compatible (not binary-compatible) with cuda_runtime.h.
#pragma once

#include <cstddef>
#include <cstdint>

// Qualifiers that only matter to nvcc. Device code is host code here.
#define __host__
#define __device__
#define __global__
#define __constant__
#define __forceinline__ inline __attribute__((always_inline))
#define __restrict__ __restrict
#define __align__(n) alignas(n)
#define __launch_bounds__(...)
#define __grid_constant__
#define __managed__                                                                                \
    _Pragma("GCC error \"__managed__ variables are not supported by the simt emulator\"")

// A __shared__ that reaches the compiler was not rewritten (it came out of a macro, or out of a
// header included with <...> or found only through -I).
// (Not formatted: a _Pragma takes one string literal, which may not be split.)
// clang-format off
#define __shared__                                                                                 \
    _Pragma("GCC error \"__shared__ here is not supported by the simt emulator (only plain declarations in the .cu file, in the headers it includes with quotes from its own folder, and in headers found through -I are rewritten)\"")
// clang-format on

#define SIMT_BACKEND 1

struct uint3 {
    unsigned int x, y, z;
};
struct dim3 {
    unsigned int x = 1, y = 1, z = 1;
    constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1)
        : x(vx), y(vy), z(vz) {}
    constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
    constexpr operator uint3() const { return uint3{x, y, z}; }
};

// Vector types with CUDA's sizes and alignments.
// The make_* functions are always inlined, at -O0 too: GCC's thread sanitizer, through which the
// emulator sees accesses, instruments no struct returned by a call and stored straight into
// memory (`words[i] = make_uint4(0, 0, 0, 0)`); inlined, that store is a plain one, seen and
// reported at its own line (tests/emulator/call_results_test.cu, built at -O0 and -O2).
#define SIMT_MAKE [[gnu::always_inline]]
// (Not formatted: one line per type, the four of a kind side by side.)
// clang-format off
#define SIMT_VECTOR_TYPES(T, name)                                                                 \
    struct alignas(sizeof(T)) name##1 { T x; };                                                    \
    struct alignas(2 * sizeof(T)) name##2 { T x, y; };                                             \
    struct name##3 { T x, y, z; };                                                                 \
    struct alignas(4 * sizeof(T) > 16 ? 16 : 4 * sizeof(T)) name##4 { T x, y, z, w; };            \
    SIMT_MAKE inline constexpr name##1 make_##name##1(T x) { return {x}; }                         \
    SIMT_MAKE inline constexpr name##2 make_##name##2(T x, T y) { return {x, y}; }                 \
    SIMT_MAKE inline constexpr name##3 make_##name##3(T x, T y, T z) { return {x, y, z}; }         \
    SIMT_MAKE inline constexpr name##4 make_##name##4(T x, T y, T z, T w) { return {x, y, z, w}; }
// clang-format on
SIMT_VECTOR_TYPES(signed char, char)
SIMT_VECTOR_TYPES(unsigned char, uchar)
SIMT_VECTOR_TYPES(short, short)
SIMT_VECTOR_TYPES(unsigned short, ushort)
SIMT_VECTOR_TYPES(int, int)
SIMT_VECTOR_TYPES(float, float)
SIMT_VECTOR_TYPES(long long, longlong)
SIMT_VECTOR_TYPES(unsigned long long, ulonglong)
SIMT_VECTOR_TYPES(double, double)
#undef SIMT_VECTOR_TYPES
struct alignas(4) uint1 {
    unsigned int x;
};
struct alignas(8) uint2 {
    unsigned int x, y;
};
struct alignas(16) uint4 {
    unsigned int x, y, z, w;
};
SIMT_MAKE inline constexpr uint2 make_uint2(unsigned x, unsigned y) {
    return {x, y};
}
SIMT_MAKE inline constexpr uint3 make_uint3(unsigned x, unsigned y, unsigned z) {
    return {x, y, z};
}
SIMT_MAKE inline constexpr uint4 make_uint4(unsigned x, unsigned y, unsigned z, unsigned w) {
    return {x, y, z, w};
}
#undef SIMT_MAKE

enum cudaError_t : int {
    cudaSuccess = 0,
    cudaErrorInvalidValue = 1,
    cudaErrorMemoryAllocation = 2,
    cudaErrorInitializationError = 3,
    cudaErrorLaunchFailure = 4,
    cudaErrorLaunchTimeout = 6,
    cudaErrorLaunchOutOfResources = 7,
    cudaErrorInvalidDeviceFunction = 8,
    cudaErrorInvalidConfiguration = 9,
    cudaErrorInvalidDevice = 10,
    cudaErrorInvalidPitchValue = 12,
    cudaErrorInvalidSymbol = 13,
    cudaErrorInvalidDevicePointer = 17,
    cudaErrorInvalidMemcpyDirection = 21,
    cudaErrorNotSupported = 801,
    cudaErrorNoDevice = 100,
    cudaErrorIllegalAddress = 700,
    cudaErrorMisalignedAddress = 716,
    cudaErrorAssert = 710,
    cudaErrorIllegalInstruction = 715,
    cudaErrorCooperativeLaunchTooLarge = 720,
    cudaErrorHardwareStackError = 714,
    cudaErrorInvalidResourceHandle = 400,
    cudaErrorNotReady = 600,
    cudaErrorIllegalState = 401,
    cudaErrorStreamCaptureUnsupported = 900,
    cudaErrorStreamCaptureInvalidated = 901,
    cudaErrorStreamCaptureUnmatched = 903,
    cudaErrorStreamCaptureIsolation = 905,
    cudaErrorUnknown = 999,
};
using cudaError = cudaError_t;

enum cudaMemcpyKind : int {
    cudaMemcpyHostToHost = 0,
    cudaMemcpyHostToDevice = 1,
    cudaMemcpyDeviceToHost = 2,
    cudaMemcpyDeviceToDevice = 3,
    cudaMemcpyDefault = 4,
};

enum cudaFuncAttribute : int {
    cudaFuncAttributeMaxDynamicSharedMemorySize = 8,
    cudaFuncAttributePreferredSharedMemoryCarveout = 9,
};

enum cudaDeviceAttr : int {
    cudaDevAttrMaxThreadsPerBlock = 1,
    cudaDevAttrMaxSharedMemoryPerBlock = 8,
    cudaDevAttrWarpSize = 10,
    cudaDevAttrMultiProcessorCount = 16,
    cudaDevAttrMaxThreadsPerMultiProcessor = 39,
    cudaDevAttrComputeCapabilityMajor = 75,
    cudaDevAttrComputeCapabilityMinor = 76,
    cudaDevAttrL2CacheSize = 38,
    cudaDevAttrMaxSharedMemoryPerBlockOptin = 97,
    cudaDevAttrClockRate = 13,
    cudaDevAttrIntegrated = 18,
    cudaDevAttrComputeMode = 20,
    cudaDevAttrCooperativeLaunch = 95,
};

enum cudaComputeMode : int {
    cudaComputeModeDefault = 0,
    cudaComputeModeExclusive = 1,
    cudaComputeModeProhibited = 2,
    cudaComputeModeExclusiveProcess = 3,
};

enum cudaMemoryType : int {
    cudaMemoryTypeUnregistered = 0,
    cudaMemoryTypeHost = 1,
    cudaMemoryTypeDevice = 2,
    cudaMemoryTypeManaged = 3,
};
struct cudaPointerAttributes {
    cudaMemoryType type;
    int device;
    void* devicePointer;
    void* hostPointer;
};

struct cudaDeviceProp {
    char name[256];
    size_t totalGlobalMem;
    size_t sharedMemPerBlock;
    size_t sharedMemPerBlockOptin;
    size_t sharedMemPerMultiprocessor;
    int regsPerBlock;
    int warpSize;
    int maxThreadsPerBlock;
    int maxThreadsDim[3];
    int maxGridSize[3];
    int clockRate;
    size_t totalConstMem;
    int major;
    int minor;
    int multiProcessorCount;
    int maxThreadsPerMultiProcessor;
    int maxBlocksPerMultiProcessor;
    int l2CacheSize;
    int memoryClockRate;
    int memoryBusWidth;
    int concurrentKernels;
    int computeMode;
    int integrated;
    int canMapHostMemory;
    int unifiedAddressing;
    int managedMemory;
    int concurrentManagedAccess;
    int cooperativeLaunch;
    int asyncEngineCount;
    int deviceOverlap;
    int kernelExecTimeoutEnabled;
    int ECCEnabled;
    int pciBusID;
    int pciDeviceID;
    int pciDomainID;
    size_t memPitch;
    size_t textureAlignment;
    size_t sharedMemPerMultiprocessorOptin;
    int regsPerMultiprocessor;
    int pageableMemoryAccess;
    int hostNativeAtomicSupported;
    int persistingL2CacheMaxSize;
    int accessPolicyMaxWindowSize;
};

struct simt_stream;
struct simt_event;
using cudaStream_t = simt_stream*;
using cudaEvent_t = simt_event*;
#define cudaStreamDefault 0x00
#define cudaStreamNonBlocking 0x01
#define cudaEventDefault 0x00
#define cudaHostAllocDefault 0x00
#define cudaHostAllocPortable 0x01
#define cudaHostAllocMapped 0x02 // zero-copy: cudaHostGetDevicePointer gives the same address
#define cudaHostAllocWriteCombined 0x04
#define cudaHostRegisterDefault 0x00
#define cudaHostRegisterPortable 0x01
#define cudaHostRegisterMapped 0x02
#define cudaHostRegisterIoMemory 0x04
#define cudaHostRegisterReadOnly 0x08
#define cudaDeviceScheduleAuto 0x00
#define cudaDeviceScheduleSpin 0x01
#define cudaDeviceScheduleYield 0x02
#define cudaDeviceScheduleBlockingSync 0x04
#define cudaDeviceMapHost 0x08
#define cudaDeviceLmemResizeToMax 0x10
#define cudaDeviceBlockingSync 0x04 // the old name of cudaDeviceScheduleBlockingSync
#define cudaEventBlockingSync 0x01
#define cudaEventDisableTiming 0x02
#define cudaMemAttachGlobal 0x01
