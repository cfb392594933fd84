// CUDA graphs and stream capture on the simt backend (src/graphs.cpp). A graph holds kernel,
// memcpy, memset, host and empty nodes with their dependencies; an instantiated graph runs its
// nodes one after the other in the order they were added (an order that respects every
// dependency: a node's dependencies exist before it), each as the same call made directly would
// run. Stream capture (cudaStreamBeginCapture .. cudaStreamEndCapture) records the launches,
// copies, sets and host functions issued to the captured stream, and to the streams that wait on
// its events, instead of running them.
//
// A kernel node names its kernel as a `void*` (cudaKernelNodeParams::func), and the emulator
// needs the kernel's parameter types to copy its arguments: simt-rewrite turns every
// `(void*)kernel` cast of host code into `::simt::VoidCast{} ->* kernel`, which registers a
// launcher for the kernel's type under its address and yields the same `void*`. cudaLaunchKernel
// given a `void*` uses the same registry.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "simt/launch_api.h"
#include "simt/types.h"

namespace simt {
namespace detail {

// A parameter the launch can copy and describe: a complete object type, or a pointer to one
// (or to void). A host function of other parameters, cast to void* for another reason, is
// not registered (and was never a kernel: CUDA's kernels take no references).
template <class P>
constexpr bool launchable_parameter() {
    if constexpr (std::is_reference_v<P> || !requires { sizeof(P); })
        return false;
    else if constexpr (std::is_pointer_v<P>)
        return std::is_void_v<std::remove_pointer_t<P>> || requires {
            sizeof(std::remove_pointer_t<P>);
        };
    else
        return true;
}

template <class T>
struct Registrable : std::false_type {};
template <class... P>
struct Registrable<void (*)(P...)> : std::bool_constant<(launchable_parameter<P>() && ...)> {};

template <class... P>
ErasedLauncher erased_launcher_for(void (*)(P...)) {
    return &launch_erased<P...>;
}

// What a cast to `void*` or `const void*` gives, registering a kernel on the way.
template <class Target, class T>
Target void_cast(T value) {
    if constexpr (Registrable<T>::value) {
        register_kernel(reinterpret_cast<const void*>(value), erased_launcher_for(value));
        return reinterpret_cast<Target>(value);
    } else if constexpr (std::is_integral_v<T>) {
        // An integer of another width than a pointer's (`(void*)1`): widened first, as the
        // source's cast of a constant would be, without g++'s -Wint-to-pointer-cast.
        return reinterpret_cast<Target>(static_cast<std::intptr_t>(value));
    } else {
        return (Target)(value);
    }
}
} // namespace detail

// `(void*)x` and `(const void*)x` in host code, as simt-rewrite writes them (`->*` binds the
// cast-expression after it, as the cast did).
struct VoidCast {
    template <class T>
    void* operator->*(T value) const {
        return detail::void_cast<void*>(value);
    }
};
struct ConstVoidCast {
    template <class T>
    const void* operator->*(T value) const {
        return detail::void_cast<const void*>(value);
    }
};

} // namespace simt

// ---- The API's types ----

struct simt_graph;
struct simt_graph_node;
struct simt_graph_exec;
using cudaGraph_t = simt_graph*;
using cudaGraphNode_t = simt_graph_node*;
using cudaGraphExec_t = simt_graph_exec*;

struct cudaPos {
    size_t x, y, z;
};
struct cudaExtent {
    size_t width, height, depth;
};
struct cudaPitchedPtr {
    void* ptr;
    size_t pitch;
    size_t xsize;
    size_t ysize;
};
inline cudaPos make_cudaPos(size_t x, size_t y, size_t z) {
    return {x, y, z};
}
inline cudaExtent make_cudaExtent(size_t width, size_t height, size_t depth) {
    return {width, height, depth};
}
inline cudaPitchedPtr make_cudaPitchedPtr(void* ptr, size_t pitch, size_t xsize, size_t ysize) {
    return {ptr, pitch, xsize, ysize};
}
// CUDA arrays are not modelled: a memcpy node's srcArray and dstArray must be null.
struct simt_cuda_array;
// A memcpy node between linear memory: `extent` (width in bytes) from srcPtr at srcPos to dstPtr
// at dstPos, rows `pitch` bytes apart and slices `pitch * ysize`.
struct cudaMemcpy3DParms {
    simt_cuda_array* srcArray;
    cudaPos srcPos;
    cudaPitchedPtr srcPtr;
    simt_cuda_array* dstArray;
    cudaPos dstPos;
    cudaPitchedPtr dstPtr;
    cudaExtent extent;
    cudaMemcpyKind kind;
};
// A memset node: `height` rows of `width` elements of `elementSize` bytes (1, 2 or 4), each
// `value`, rows `pitch` bytes apart.
struct cudaMemsetParams {
    void* dst;
    size_t pitch;
    unsigned int value;
    unsigned int elementSize;
    size_t width;
    size_t height;
};
// (gridDim and blockDim are macros here: simt-rewrite renames the members where the program
// names them, `params.gridDim` -> `params.simt_gridDim`.)
struct cudaKernelNodeParams {
    void* func;
    dim3 simt_gridDim;
    dim3 simt_blockDim;
    unsigned int sharedMemBytes;
    void** kernelParams;
    void** extra;
};
struct cudaHostNodeParams {
    cudaHostFn_t fn;
    void* userData;
};
enum cudaGraphNodeType : int {
    cudaGraphNodeTypeKernel = 0,
    cudaGraphNodeTypeMemcpy = 1,
    cudaGraphNodeTypeMemset = 2,
    cudaGraphNodeTypeHost = 3,
    cudaGraphNodeTypeGraph = 4,
    cudaGraphNodeTypeEmpty = 5,
};
enum cudaStreamCaptureMode : int {
    cudaStreamCaptureModeGlobal = 0,
    cudaStreamCaptureModeThreadLocal = 1,
    cudaStreamCaptureModeRelaxed = 2,
};
enum cudaStreamCaptureStatus : int {
    cudaStreamCaptureStatusNone = 0,
    cudaStreamCaptureStatusActive = 1,
    cudaStreamCaptureStatusInvalidated = 2,
};

cudaError_t cudaGraphCreate(cudaGraph_t* graph, unsigned int flags);
cudaError_t cudaGraphDestroy(cudaGraph_t graph);
cudaError_t cudaGraphClone(cudaGraph_t* clone, cudaGraph_t original);
cudaError_t cudaGraphAddKernelNode(cudaGraphNode_t* node, cudaGraph_t graph,
                                   const cudaGraphNode_t* dependencies, size_t count,
                                   const cudaKernelNodeParams* params);
cudaError_t cudaGraphAddMemcpyNode(cudaGraphNode_t* node, cudaGraph_t graph,
                                   const cudaGraphNode_t* dependencies, size_t count,
                                   const cudaMemcpy3DParms* params);
cudaError_t cudaGraphAddMemcpyNode1D(cudaGraphNode_t* node, cudaGraph_t graph,
                                     const cudaGraphNode_t* dependencies, size_t count, void* dst,
                                     const void* src, size_t bytes, cudaMemcpyKind kind);
cudaError_t cudaGraphAddMemsetNode(cudaGraphNode_t* node, cudaGraph_t graph,
                                   const cudaGraphNode_t* dependencies, size_t count,
                                   const cudaMemsetParams* params);
cudaError_t cudaGraphAddHostNode(cudaGraphNode_t* node, cudaGraph_t graph,
                                 const cudaGraphNode_t* dependencies, size_t count,
                                 const cudaHostNodeParams* params);
cudaError_t cudaGraphAddEmptyNode(cudaGraphNode_t* node, cudaGraph_t graph,
                                  const cudaGraphNode_t* dependencies, size_t count);
// An edge's ports and type (CUDA 12.3 and later); the emulator has the default edge only (all
// zero, or no edge data at all).
struct cudaGraphEdgeData {
    unsigned char from_port;
    unsigned char to_port;
    unsigned char type;
    unsigned char reserved[5];
};
// CUDA 13's form, with edge data, and the form before it.
cudaError_t cudaGraphAddDependencies(cudaGraph_t graph, const cudaGraphNode_t* from,
                                     const cudaGraphNode_t* to, const cudaGraphEdgeData* edges,
                                     size_t count);
cudaError_t cudaGraphAddDependencies(cudaGraph_t graph, const cudaGraphNode_t* from,
                                     const cudaGraphNode_t* to, size_t count);
cudaError_t cudaGraphGetNodes(cudaGraph_t graph, cudaGraphNode_t* nodes, size_t* count);
cudaError_t cudaGraphGetRootNodes(cudaGraph_t graph, cudaGraphNode_t* nodes, size_t* count);
cudaError_t cudaGraphNodeGetType(cudaGraphNode_t node, cudaGraphNodeType* type);
cudaError_t cudaGraphNodeGetDependencies(cudaGraphNode_t node, cudaGraphNode_t* dependencies,
                                         cudaGraphEdgeData* edges, size_t* count);
cudaError_t cudaGraphNodeGetDependencies(cudaGraphNode_t node, cudaGraphNode_t* dependencies,
                                         size_t* count);
cudaError_t cudaGraphInstantiate(cudaGraphExec_t* exec, cudaGraph_t graph,
                                 unsigned long long flags = 0);
// The form before CUDA 12, which C++ programs may still call.
cudaError_t cudaGraphInstantiate(cudaGraphExec_t* exec, cudaGraph_t graph,
                                 cudaGraphNode_t* error_node, char* log, size_t log_bytes);
cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t* exec, cudaGraph_t graph,
                                          unsigned long long flags);
cudaError_t cudaGraphLaunch(cudaGraphExec_t exec, cudaStream_t stream);
cudaError_t cudaGraphExecDestroy(cudaGraphExec_t exec);

cudaError_t cudaStreamBeginCapture(cudaStream_t stream, cudaStreamCaptureMode mode);
cudaError_t cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t* graph);
cudaError_t cudaStreamIsCapturing(cudaStream_t stream, cudaStreamCaptureStatus* status);
// Work in a stream is done when its call returns here, so a wait changes nothing, except in a
// stream capture, where it makes the waiting stream's next work depend on the event's.
cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags = 0);
