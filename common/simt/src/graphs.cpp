// CUDA graphs and stream capture (simt/graphs.h). Work in a stream is done when its call returns
// on the emulator, so an instantiated graph runs its nodes one after the other, in the order
// they were added: every node's dependencies were added before it, so the order respects them
// (a GPU may also run independent nodes at once; the checks see them one after the other). A
// kernel node keeps a copy of its launch's parameter block, made when the node is made (the
// kernel's arguments are read then, as CUDA reads kernelParams then); memcpy, memset and host
// nodes keep their parameters and act when the graph runs, through the same calls a program
// makes (cudaMemcpy, cudaMemset), with their checks.
#include <algorithm>
#include <cstring>
#include <map>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "device_lock.h"
#include "error_state.h"
#include "graphs.h"
#include "simt/graphs.h"
#include "simt/launch_api.h"

using simt::detail::api_error;
using simt::detail::DeviceLock;
using simt::detail::error_state;
using simt::detail::LaunchRequest;

namespace simt::detail {

// A launch taken instead of run: its request with its own copy of the parameter block.
struct RecordedLaunch {
    LaunchRequest request{};
    std::shared_ptr<unsigned char> params;
    std::vector<ArgumentInfo> arguments;
    bool cooperative = false;
};

namespace {

std::shared_ptr<RecordedLaunch> record(const LaunchRequest& r, bool cooperative) {
    auto rec = std::make_shared<RecordedLaunch>();
    rec->request = r;
    constexpr std::align_val_t kAlign{64};
    rec->params = std::shared_ptr<unsigned char>(
        static_cast<unsigned char*>(::operator new(std::max<size_t>(r.params_bytes, 1), kAlign)),
        [](unsigned char* p) { ::operator delete (p, std::align_val_t{64}); });
    std::memcpy(rec->params.get(), r.params, r.params_bytes);
    rec->arguments.assign(r.arguments, r.arguments + r.argument_count);
    rec->cooperative = cooperative;
    return rec;
}

std::map<const void*, ErasedLauncher>& kernels() {
    static std::map<const void*, ErasedLauncher> registry;
    return registry;
}

// While a kernel node is being made, the launch its launcher makes lands here.
thread_local std::shared_ptr<RecordedLaunch>* t_node_launch = nullptr;

} // namespace

void register_kernel(const void* kernel, ErasedLauncher launcher) {
    const DeviceLock device_lock;
    kernels().emplace(kernel, launcher);
}

ErasedLauncher registered_launcher(const void* kernel) {
    const DeviceLock device_lock;
    auto it = kernels().find(kernel);
    return it == kernels().end() ? nullptr : it->second;
}

cudaError_t launch_by_address(bool cooperative, const void* kernel, dim3 grid, dim3 block,
                              void** args, size_t smem, cudaStream_t stream, const char* call) {
    if (ErasedLauncher launcher = registered_launcher(kernel))
        return launcher(cooperative, kernel, grid, block, args, smem, stream);
    return refuse_untyped_launch(call);
}

} // namespace simt::detail

using namespace simt::detail;

// ---- Graphs ----

struct simt_graph_node {
    cudaGraphNodeType type = cudaGraphNodeTypeEmpty;
    simt_graph* graph = nullptr;
    std::vector<simt_graph_node*> dependencies;
    std::shared_ptr<const RecordedLaunch> launch; // kernel
    cudaMemcpy3DParms copy{};                     // memcpy
    cudaMemsetParams set{};                       // memset
    cudaHostNodeParams host{};                    // host
};

struct simt_graph {
    std::vector<std::unique_ptr<simt_graph_node>> nodes; // in the order added
};

struct simt_graph_exec {
    std::vector<simt_graph_node> steps; // copies of the graph's nodes, in order
};

namespace {

#define SIMT_GRAPH_GUARD()                                                                         \
    const DeviceLock device_lock;                                                                  \
    if (error_state().sticky != cudaSuccess) return error_state().sticky

// A stream capture: its graph, and each captured stream's last nodes (what the stream's next
// work depends on).
struct Capture {
    cudaGraph_t graph = nullptr;
    cudaStream_t origin = nullptr;
    bool invalidated = false;
    std::string why; // what invalidated it
};
struct CapturedStream {
    std::shared_ptr<Capture> capture;
    std::vector<simt_graph_node*> tails;
};
std::map<cudaStream_t, CapturedStream>& captured_streams() {
    static std::map<cudaStream_t, CapturedStream> streams;
    return streams;
}
std::map<cudaEvent_t, CapturedStream>& captured_events() {
    static std::map<cudaEvent_t, CapturedStream> events;
    return events;
}

CapturedStream* capture_of(cudaStream_t stream) {
    auto it = captured_streams().find(stream);
    return it == captured_streams().end() ? nullptr : &it->second;
}

bool owns(cudaGraph_t graph, cudaGraphNode_t node) {
    return node && node->graph == graph;
}

cudaError_t check_dependencies(cudaGraph_t graph, const cudaGraphNode_t* dependencies, size_t count,
                               const char* call) {
    if (!graph) return api_error(cudaErrorInvalidValue, call, "null graph");
    if (count > 0 && !dependencies)
        return api_error(cudaErrorInvalidValue, call, "null dependencies with a count");
    for (size_t i = 0; i < count; ++i)
        if (!owns(graph, dependencies[i]))
            return api_error(cudaErrorInvalidValue, call,
                             "dependency " + std::to_string(i) + " is not a node of this graph");
    return cudaSuccess;
}

// What every cudaGraphAdd*Node call checks first: the graph and its dependencies, then that the
// node to return (and the parameters, where the call takes them) are given.
cudaError_t check_new_node(cudaGraphNode_t* node, cudaGraph_t graph,
                           const cudaGraphNode_t* dependencies, size_t count, const char* call,
                           bool has_parameters = true) {
    if (cudaError_t e = check_dependencies(graph, dependencies, count, call); e != cudaSuccess)
        return e;
    if (!node || !has_parameters) return api_error(cudaErrorInvalidValue, call, "null pointer");
    return cudaSuccess;
}

// The answer of the calls that list nodes (cudaGraphGetNodes and the like): with no array, how
// many there are; else up to *count of them, the rest of the array null, and how many were given.
cudaError_t list_nodes(const std::vector<cudaGraphNode_t>& list, cudaGraphNode_t* out,
                       size_t* count) {
    if (!out) {
        *count = list.size();
        return cudaSuccess;
    }
    const size_t n = std::min(*count, list.size());
    std::copy(list.begin(), list.begin() + static_cast<std::ptrdiff_t>(n), out);
    std::fill(out + n, out + *count, nullptr);
    *count = n;
    return cudaSuccess;
}

cudaGraphNode_t add_node(cudaGraph_t graph, simt_graph_node node,
                         const cudaGraphNode_t* dependencies, size_t count) {
    node.graph = graph;
    node.dependencies.assign(dependencies, dependencies + count);
    graph->nodes.push_back(std::make_unique<simt_graph_node>(std::move(node)));
    return graph->nodes.back().get();
}

// A node for captured work: it depends on the stream's last nodes and becomes its last one.
cudaError_t add_captured(CapturedStream& s, simt_graph_node node) {
    if (s.capture->invalidated) return cudaErrorStreamCaptureInvalidated;
    cudaGraphNode_t added =
        add_node(s.capture->graph, std::move(node), s.tails.data(), s.tails.size());
    s.tails.assign(1, added);
    return cudaSuccess;
}

cudaError_t check_memcpy(const cudaMemcpy3DParms& p, const char* call) {
    if (p.srcArray || p.dstArray)
        return api_error(cudaErrorNotSupported, call,
                         "CUDA arrays are not supported by the simt emulator: a memcpy node "
                         "copies between linear memory (srcPtr and dstPtr)");
    if ((p.extent.height > 1 || p.extent.depth > 1) && (!p.srcPtr.pitch || !p.dstPtr.pitch))
        return api_error(cudaErrorInvalidValue, call, "a copy of several rows needs both pitches");
    return cudaSuccess;
}

cudaError_t check_memset(const cudaMemsetParams& p, const char* call) {
    if (p.elementSize != 1 && p.elementSize != 2 && p.elementSize != 4)
        return api_error(cudaErrorInvalidValue, call, "elementSize must be 1, 2 or 4");
    if (p.height > 1 && p.pitch < p.width * p.elementSize)
        return api_error(cudaErrorInvalidValue, call,
                         "a set of several rows needs a pitch of at least a row");
    return cudaSuccess;
}

cudaError_t run_memcpy(const cudaMemcpy3DParms& p) {
    for (size_t z = 0; z < std::max<size_t>(p.extent.depth, 1); ++z)
        for (size_t y = 0; y < std::max<size_t>(p.extent.height, 1); ++y) {
            auto row = [&](const cudaPitchedPtr& ptr, const cudaPos& pos) {
                const size_t r = (pos.z + z) * ptr.ysize + pos.y + y;
                return static_cast<char*>(ptr.ptr) + r * ptr.pitch + pos.x;
            };
            if (cudaError_t e = cudaMemcpy(row(p.dstPtr, p.dstPos), row(p.srcPtr, p.srcPos),
                                           p.extent.width, p.kind);
                e != cudaSuccess)
                return e;
        }
    return cudaSuccess;
}

cudaError_t run_memset(const cudaMemsetParams& p) {
    const size_t row_bytes = p.width * p.elementSize;
    for (size_t y = 0; y < std::max<size_t>(p.height, 1); ++y) {
        char* row = static_cast<char*>(p.dst) + y * p.pitch;
        // cudaMemset checks the range and marks it written; then the elements get their value.
        if (cudaError_t e = cudaMemset(row, static_cast<int>(p.value & 0xFF), row_bytes);
            e != cudaSuccess)
            return e;
        if (p.elementSize == 1) continue;
        for (size_t i = 0; i < p.width; ++i) {
            if (p.elementSize == 2) {
                const auto v = static_cast<uint16_t>(p.value);
                std::memcpy(row + i * 2, &v, 2);
            } else {
                const uint32_t v = p.value;
                std::memcpy(row + i * 4, &v, 4);
            }
        }
    }
    return cudaSuccess;
}

cudaError_t replay(const RecordedLaunch& rec, cudaStream_t stream) {
    LaunchRequest r = rec.request;
    r.stream = stream;
    r.params = rec.params.get();
    r.arguments = rec.arguments.data();
    return launch_by_pointer(
        rec.cooperative, [](void* c) { run_launch(*static_cast<const LaunchRequest*>(c)); }, &r);
}

cudaError_t run_node(const simt_graph_node& n, cudaStream_t stream) {
    switch (n.type) {
    case cudaGraphNodeTypeKernel:
        return replay(*n.launch, stream);
    case cudaGraphNodeTypeMemcpy:
        return run_memcpy(n.copy);
    case cudaGraphNodeTypeMemset:
        return run_memset(n.set);
    case cudaGraphNodeTypeHost:
        n.host.fn(n.host.userData);
        return cudaSuccess;
    default:
        return cudaSuccess;
    }
}

} // namespace

cudaError_t cudaGraphCreate(cudaGraph_t* graph, unsigned int flags) {
    SIMT_GRAPH_GUARD();
    if (!graph || flags != 0)
        return api_error(cudaErrorInvalidValue, "cudaGraphCreate",
                         graph ? "flags must be 0" : "null pointer");
    *graph = new simt_graph;
    return cudaSuccess;
}

cudaError_t cudaGraphDestroy(cudaGraph_t graph) {
    const DeviceLock device_lock;
    if (!graph) return api_error(cudaErrorInvalidValue, "cudaGraphDestroy", "null graph");
    delete graph;
    return cudaSuccess;
}

cudaError_t cudaGraphClone(cudaGraph_t* clone, cudaGraph_t original) {
    SIMT_GRAPH_GUARD();
    if (!clone || !original) return api_error(cudaErrorInvalidValue, "cudaGraphClone", "null");
    auto* copy = new simt_graph;
    std::map<const simt_graph_node*, simt_graph_node*> to_copy;
    for (const auto& n : original->nodes) {
        auto node = std::make_unique<simt_graph_node>(*n);
        node->graph = copy;
        for (auto& d : node->dependencies) d = to_copy.at(d);
        to_copy[n.get()] = node.get();
        copy->nodes.push_back(std::move(node));
    }
    *clone = copy;
    return cudaSuccess;
}

cudaError_t cudaGraphAddKernelNode(cudaGraphNode_t* node, cudaGraph_t graph,
                                   const cudaGraphNode_t* dependencies, size_t count,
                                   const cudaKernelNodeParams* params) {
    SIMT_GRAPH_GUARD();
    const char* call = "cudaGraphAddKernelNode";
    if (cudaError_t e = check_new_node(node, graph, dependencies, count, call, params != nullptr);
        e != cudaSuccess)
        return e;
    if (params->extra)
        return api_error(cudaErrorNotSupported, call,
                         "kernel arguments given through `extra` are not supported by the simt "
                         "emulator: give them as kernelParams");
    const ErasedLauncher launcher = registered_launcher(params->func);
    if (!launcher)
        return api_error(cudaErrorInvalidDeviceFunction, call,
                         "func is not a kernel the emulator knows: it needs the kernel's "
                         "parameter types, which it records where the program casts the kernel "
                         "to void* (`(void*)kernel`) in a file simtcc compiled");
    std::shared_ptr<RecordedLaunch> launch;
    t_node_launch = &launch;
    const cudaError_t e = launcher(false, params->func, params->simt_gridDim, params->simt_blockDim,
                                   params->kernelParams, params->sharedMemBytes, nullptr);
    t_node_launch = nullptr;
    if (e != cudaSuccess) return e;
    if (!launch)
        return error_state().sticky != cudaSuccess ? error_state().sticky : cudaErrorUnknown;
    simt_graph_node n;
    n.type = cudaGraphNodeTypeKernel;
    n.launch = std::move(launch);
    *node = add_node(graph, std::move(n), dependencies, count);
    return cudaSuccess;
}

cudaError_t cudaGraphAddMemcpyNode(cudaGraphNode_t* node, cudaGraph_t graph,
                                   const cudaGraphNode_t* dependencies, size_t count,
                                   const cudaMemcpy3DParms* params) {
    SIMT_GRAPH_GUARD();
    const char* call = "cudaGraphAddMemcpyNode";
    if (cudaError_t e = check_new_node(node, graph, dependencies, count, call, params != nullptr);
        e != cudaSuccess)
        return e;
    if (cudaError_t e = check_memcpy(*params, call); e != cudaSuccess) return e;
    simt_graph_node n;
    n.type = cudaGraphNodeTypeMemcpy;
    n.copy = *params;
    *node = add_node(graph, std::move(n), dependencies, count);
    return cudaSuccess;
}

namespace {
cudaMemcpy3DParms linear_copy(void* dst, const void* src, size_t bytes, cudaMemcpyKind kind) {
    cudaMemcpy3DParms p{};
    p.srcPtr = make_cudaPitchedPtr(const_cast<void*>(src), bytes, bytes, 1);
    p.dstPtr = make_cudaPitchedPtr(dst, bytes, bytes, 1);
    p.extent = make_cudaExtent(bytes, 1, 1);
    p.kind = kind;
    return p;
}
} // namespace

cudaError_t cudaGraphAddMemcpyNode1D(cudaGraphNode_t* node, cudaGraph_t graph,
                                     const cudaGraphNode_t* dependencies, size_t count, void* dst,
                                     const void* src, size_t bytes, cudaMemcpyKind kind) {
    const cudaMemcpy3DParms p = linear_copy(dst, src, bytes, kind);
    return cudaGraphAddMemcpyNode(node, graph, dependencies, count, &p);
}

cudaError_t cudaGraphAddMemsetNode(cudaGraphNode_t* node, cudaGraph_t graph,
                                   const cudaGraphNode_t* dependencies, size_t count,
                                   const cudaMemsetParams* params) {
    SIMT_GRAPH_GUARD();
    const char* call = "cudaGraphAddMemsetNode";
    if (cudaError_t e = check_new_node(node, graph, dependencies, count, call, params != nullptr);
        e != cudaSuccess)
        return e;
    if (cudaError_t e = check_memset(*params, call); e != cudaSuccess) return e;
    simt_graph_node n;
    n.type = cudaGraphNodeTypeMemset;
    n.set = *params;
    *node = add_node(graph, std::move(n), dependencies, count);
    return cudaSuccess;
}

cudaError_t cudaGraphAddHostNode(cudaGraphNode_t* node, cudaGraph_t graph,
                                 const cudaGraphNode_t* dependencies, size_t count,
                                 const cudaHostNodeParams* params) {
    SIMT_GRAPH_GUARD();
    const char* call = "cudaGraphAddHostNode";
    if (cudaError_t e = check_new_node(node, graph, dependencies, count, call, params != nullptr);
        e != cudaSuccess)
        return e;
    if (!params->fn) return api_error(cudaErrorInvalidValue, call, "null function");
    simt_graph_node n;
    n.type = cudaGraphNodeTypeHost;
    n.host = *params;
    *node = add_node(graph, std::move(n), dependencies, count);
    return cudaSuccess;
}

cudaError_t cudaGraphAddEmptyNode(cudaGraphNode_t* node, cudaGraph_t graph,
                                  const cudaGraphNode_t* dependencies, size_t count) {
    SIMT_GRAPH_GUARD();
    const char* call = "cudaGraphAddEmptyNode";
    if (cudaError_t e = check_new_node(node, graph, dependencies, count, call); e != cudaSuccess)
        return e;
    *node = add_node(graph, simt_graph_node{}, dependencies, count);
    return cudaSuccess;
}

cudaError_t cudaGraphAddDependencies(cudaGraph_t graph, const cudaGraphNode_t* from,
                                     const cudaGraphNode_t* to, const cudaGraphEdgeData* edges,
                                     size_t count) {
    for (size_t i = 0; edges && i < count; ++i) {
        const cudaGraphEdgeData none{};
        if (std::memcmp(&edges[i], &none, sizeof none) != 0)
            return api_error(cudaErrorNotSupported, "cudaGraphAddDependencies",
                             "edges with ports or a type (cudaGraphEdgeData) are not supported "
                             "by the simt emulator: only the default edge");
    }
    return cudaGraphAddDependencies(graph, from, to, count);
}

cudaError_t cudaGraphAddDependencies(cudaGraph_t graph, const cudaGraphNode_t* from,
                                     const cudaGraphNode_t* to, size_t count) {
    SIMT_GRAPH_GUARD();
    const char* call = "cudaGraphAddDependencies";
    if (cudaError_t e = check_dependencies(graph, from, count, call); e != cudaSuccess) return e;
    if (cudaError_t e = check_dependencies(graph, to, count, call); e != cudaSuccess) return e;
    // The graph runs its nodes in the order added; an edge against that order would need
    // another order (and a cycle none).
    auto index = [&](cudaGraphNode_t n) {
        for (size_t i = 0; i < graph->nodes.size(); ++i)
            if (graph->nodes[i].get() == n) return i;
        return graph->nodes.size();
    };
    for (size_t i = 0; i < count; ++i) {
        if (index(from[i]) >= index(to[i]))
            return api_error(cudaErrorNotSupported, call,
                             "an edge from a node to one added before it is not supported by the "
                             "simt emulator, which runs a graph's nodes in the order they were "
                             "added: add the nodes in an order their dependencies respect");
        to[i]->dependencies.push_back(from[i]);
    }
    return cudaSuccess;
}

cudaError_t cudaGraphGetNodes(cudaGraph_t graph, cudaGraphNode_t* nodes, size_t* count) {
    SIMT_GRAPH_GUARD();
    if (!graph || !count) return api_error(cudaErrorInvalidValue, "cudaGraphGetNodes", "null");
    std::vector<cudaGraphNode_t> all;
    for (const auto& n : graph->nodes) all.push_back(n.get());
    return list_nodes(all, nodes, count);
}

cudaError_t cudaGraphGetRootNodes(cudaGraph_t graph, cudaGraphNode_t* nodes, size_t* count) {
    SIMT_GRAPH_GUARD();
    if (!graph || !count) return api_error(cudaErrorInvalidValue, "cudaGraphGetRootNodes", "null");
    std::vector<cudaGraphNode_t> roots;
    for (const auto& n : graph->nodes)
        if (n->dependencies.empty()) roots.push_back(n.get());
    return list_nodes(roots, nodes, count);
}

cudaError_t cudaGraphNodeGetType(cudaGraphNode_t node, cudaGraphNodeType* type) {
    SIMT_GRAPH_GUARD();
    if (!node || !type) return api_error(cudaErrorInvalidValue, "cudaGraphNodeGetType", "null");
    *type = node->type;
    return cudaSuccess;
}

cudaError_t cudaGraphNodeGetDependencies(cudaGraphNode_t node, cudaGraphNode_t* dependencies,
                                         cudaGraphEdgeData* edges, size_t* count) {
    const cudaError_t e = cudaGraphNodeGetDependencies(node, dependencies, count);
    if (e == cudaSuccess && edges && dependencies)
        for (size_t i = 0; i < *count; ++i) edges[i] = cudaGraphEdgeData{};
    return e;
}

cudaError_t cudaGraphNodeGetDependencies(cudaGraphNode_t node, cudaGraphNode_t* dependencies,
                                         size_t* count) {
    SIMT_GRAPH_GUARD();
    if (!node || !count)
        return api_error(cudaErrorInvalidValue, "cudaGraphNodeGetDependencies", "null");
    return list_nodes(node->dependencies, dependencies, count);
}

cudaError_t cudaGraphInstantiate(cudaGraphExec_t* exec, cudaGraph_t graph,
                                 unsigned long long flags) {
    SIMT_GRAPH_GUARD();
    if (!exec || !graph) return api_error(cudaErrorInvalidValue, "cudaGraphInstantiate", "null");
    if (flags != 0)
        return api_error(cudaErrorNotSupported, "cudaGraphInstantiate",
                         "instantiation flags are not supported by the simt emulator");
    auto* e = new simt_graph_exec;
    for (const auto& n : graph->nodes) e->steps.push_back(*n);
    *exec = e;
    return cudaSuccess;
}

cudaError_t cudaGraphInstantiate(cudaGraphExec_t* exec, cudaGraph_t graph,
                                 cudaGraphNode_t* error_node, char* log, size_t log_bytes) {
    if (error_node) *error_node = nullptr;
    if (log && log_bytes > 0) log[0] = '\0';
    return cudaGraphInstantiate(exec, graph, 0ull);
}

cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t* exec, cudaGraph_t graph,
                                          unsigned long long flags) {
    return cudaGraphInstantiate(exec, graph, flags);
}

cudaError_t cudaGraphLaunch(cudaGraphExec_t exec, cudaStream_t stream) {
    SIMT_GRAPH_GUARD();
    if (!exec) return api_error(cudaErrorInvalidValue, "cudaGraphLaunch", "null graph exec");
    if (capture_of(stream))
        return api_error(cudaErrorNotSupported, "cudaGraphLaunch",
                         "launching a graph into a stream being captured (which CUDA records as "
                         "a child graph node) is not supported by the simt emulator");
    for (const simt_graph_node& n : exec->steps) {
        const cudaError_t e = run_node(n, stream);
        if (e != cudaSuccess) return e;
        if (error_state().sticky != cudaSuccess) return cudaSuccess; // a fault: later calls say so
    }
    return cudaSuccess;
}

cudaError_t cudaGraphExecDestroy(cudaGraphExec_t exec) {
    const DeviceLock device_lock;
    if (!exec) return api_error(cudaErrorInvalidValue, "cudaGraphExecDestroy", "null graph exec");
    delete exec;
    return cudaSuccess;
}

// ---- Stream capture ----

cudaError_t cudaStreamBeginCapture(cudaStream_t stream, cudaStreamCaptureMode mode) {
    SIMT_GRAPH_GUARD();
    const char* call = "cudaStreamBeginCapture";
    if (!stream)
        return api_error(cudaErrorStreamCaptureUnsupported, call,
                         "the legacy default stream (0) cannot be captured: capture a stream "
                         "made with cudaStreamCreate");
    if (mode < cudaStreamCaptureModeGlobal || mode > cudaStreamCaptureModeRelaxed)
        return api_error(cudaErrorInvalidValue, call, "unknown capture mode");
    if (capture_of(stream))
        return api_error(cudaErrorIllegalState, call, "the stream is being captured already");
    auto capture = std::make_shared<Capture>();
    capture->graph = new simt_graph;
    capture->origin = stream;
    captured_streams()[stream] = CapturedStream{capture, {}};
    return cudaSuccess;
}

cudaError_t cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t* graph) {
    const DeviceLock device_lock;
    const char* call = "cudaStreamEndCapture";
    if (!graph) return api_error(cudaErrorInvalidValue, call, "null pointer");
    CapturedStream* s = capture_of(stream);
    if (!s) return api_error(cudaErrorIllegalState, call, "the stream is not being captured");
    const std::shared_ptr<Capture> capture = s->capture;
    if (capture->origin != stream)
        return api_error(cudaErrorStreamCaptureUnmatched, call,
                         "the capture began in another stream: end it there");
    // Every stream that joined the capture leaves it.
    for (auto it = captured_streams().begin(); it != captured_streams().end();)
        it = it->second.capture == capture ? captured_streams().erase(it) : std::next(it);
    for (auto it = captured_events().begin(); it != captured_events().end();)
        it = it->second.capture == capture ? captured_events().erase(it) : std::next(it);
    if (capture->invalidated) {
        delete capture->graph;
        *graph = nullptr;
        return api_error(cudaErrorStreamCaptureInvalidated, call,
                         "the capture was invalidated: " + capture->why);
    }
    *graph = capture->graph;
    return cudaSuccess;
}

cudaError_t cudaStreamIsCapturing(cudaStream_t stream, cudaStreamCaptureStatus* status) {
    const DeviceLock device_lock;
    if (!status) return api_error(cudaErrorInvalidValue, "cudaStreamIsCapturing", "null pointer");
    const CapturedStream* s = capture_of(stream);
    *status = !s                        ? cudaStreamCaptureStatusNone
              : s->capture->invalidated ? cudaStreamCaptureStatusInvalidated
                                        : cudaStreamCaptureStatusActive;
    return cudaSuccess;
}

cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags) {
    SIMT_GRAPH_GUARD();
    if (!event)
        return api_error(cudaErrorInvalidResourceHandle, "cudaStreamWaitEvent", "null event");
    (void)flags;
    auto recorded = captured_events().find(event);
    if (recorded == captured_events().end()) return cudaSuccess; // its work is done already
    // The stream joins the capture the event was recorded in: its next work depends on the
    // event's.
    CapturedStream& joined = captured_streams()[stream];
    if (joined.capture && joined.capture != recorded->second.capture)
        return api_error(cudaErrorStreamCaptureIsolation, "cudaStreamWaitEvent",
                         "the stream is being captured into another graph");
    joined.capture = recorded->second.capture;
    for (simt_graph_node* n : recorded->second.tails)
        if (std::find(joined.tails.begin(), joined.tails.end(), n) == joined.tails.end())
            joined.tails.push_back(n);
    return cudaSuccess;
}

namespace simt::detail {

bool capture_launch(const LaunchRequest& request, bool cooperative) {
    if (t_node_launch) {
        *t_node_launch = record(request, cooperative);
        return true;
    }
    CapturedStream* s = capture_of(request.stream);
    if (!s) return false;
    simt_graph_node n;
    n.type = cudaGraphNodeTypeKernel;
    n.launch = record(request, cooperative);
    add_captured(*s, std::move(n));
    return true;
}

bool capturing(cudaStream_t stream) {
    return capture_of(stream) != nullptr;
}

cudaError_t capture_memcpy(cudaStream_t stream, void* dst, const void* src, size_t bytes,
                           cudaMemcpyKind kind) {
    simt_graph_node n;
    n.type = cudaGraphNodeTypeMemcpy;
    n.copy = linear_copy(dst, src, bytes, kind);
    return add_captured(*capture_of(stream), std::move(n));
}

cudaError_t capture_memset(cudaStream_t stream, void* dst, int value, size_t bytes) {
    simt_graph_node n;
    n.type = cudaGraphNodeTypeMemset;
    n.set = cudaMemsetParams{dst, bytes, static_cast<unsigned>(value) & 0xFF, 1, bytes, 1};
    return add_captured(*capture_of(stream), std::move(n));
}

cudaError_t capture_memcpy_2d(cudaStream_t stream, void* dst, size_t dpitch, const void* src,
                              size_t spitch, size_t width, size_t height, cudaMemcpyKind kind) {
    simt_graph_node n;
    n.type = cudaGraphNodeTypeMemcpy;
    n.copy = cudaMemcpy3DParms{};
    n.copy.srcPtr = make_cudaPitchedPtr(const_cast<void*>(src), spitch, width, height);
    n.copy.dstPtr = make_cudaPitchedPtr(dst, dpitch, width, height);
    n.copy.extent = make_cudaExtent(width, height, 1);
    n.copy.kind = kind;
    return add_captured(*capture_of(stream), std::move(n));
}

cudaError_t capture_memset_2d(cudaStream_t stream, void* dst, size_t pitch, int value, size_t width,
                              size_t height) {
    simt_graph_node n;
    n.type = cudaGraphNodeTypeMemset;
    n.set = cudaMemsetParams{dst, pitch, static_cast<unsigned>(value) & 0xFF, 1, width, height};
    return add_captured(*capture_of(stream), std::move(n));
}

cudaError_t capture_host_function(cudaStream_t stream, cudaHostFn_t fn, void* user_data) {
    simt_graph_node n;
    n.type = cudaGraphNodeTypeHost;
    n.host = cudaHostNodeParams{fn, user_data};
    return add_captured(*capture_of(stream), std::move(n));
}

void capture_event_record(cudaEvent_t event, cudaStream_t stream) {
    if (CapturedStream* s = capture_of(stream)) captured_events()[event] = *s;
}

void forget_captured_event(cudaEvent_t event) {
    captured_events().erase(event);
}

void forget_captured_stream(cudaStream_t stream) {
    CapturedStream* s = capture_of(stream);
    if (!s) return;
    if (s->capture->origin == stream && !s->capture->invalidated) {
        s->capture->invalidated = true;
        s->capture->why = "the stream it began in was destroyed";
    }
    captured_streams().erase(stream);
}

cudaError_t refuse_in_capture(cudaStream_t stream, const char* call) {
    CapturedStream* s = capture_of(stream);
    if (!s->capture->invalidated) {
        s->capture->invalidated = true;
        s->capture->why = std::string(call) + " on a stream being captured";
    }
    return api_error(cudaErrorStreamCaptureUnsupported, call,
                     "not allowed on a stream being captured (the capture records work to run "
                     "later; nothing in it has run to wait for)");
}

} // namespace simt::detail
