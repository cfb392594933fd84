// CUDA features the emulator does not have and the compat headers do not declare: textures and
// surfaces, CUDA arrays, the parts of CUDA graphs that simt/graphs.h does not have, graphics
// interoperability. A name of theirs in the program is refused here, at its line, with the
// feature's name; the compiler would only say it "was not declared".
#include <array>
#include <string_view>

#include "passes.h"

namespace simt::rewrite {
namespace {

struct Refused {
    // An identifier; a prefix when it ends with '*'; a prefix followed by an upper-case letter
    // or '_' when it ends with '+' (cudaGraphCreate, cudaGraph_t, not a program's own
    // cudaGraphsManual).
    std::string_view name;
    std::string_view feature;
};

constexpr std::string_view kTextures = "texture and surface objects";
constexpr std::string_view kArrays = "CUDA arrays";
constexpr std::string_view kGraphs =
    "CUDA graphs beyond kernel, memcpy, memset, host and empty nodes, their dependencies, "
    "instantiate, launch, clone and stream capture";
constexpr std::string_view kInterop = "graphics interoperability (OpenGL, Direct3D, Vulkan) calls";

// The first entry that matches names the feature (cudaGraphics* before cudaGraph*).
constexpr std::array kRefused = {
    Refused{"cudaGraphics*", kInterop},
    Refused{"cudaTextureObject_t", kTextures},
    Refused{"cudaCreateTextureObject", kTextures},
    Refused{"cudaDestroyTextureObject", kTextures},
    Refused{"cudaSurfaceObject_t", kTextures},
    Refused{"cudaCreateSurfaceObject", kTextures},
    Refused{"cudaDestroySurfaceObject", kTextures},
    Refused{"tex1D*", kTextures},
    Refused{"tex2D*", kTextures},
    Refused{"tex3D*", kTextures},
    Refused{"texCubemap*", kTextures},
    Refused{"surf1D*", kTextures},
    Refused{"surf2D*", kTextures},
    Refused{"surf3D*", kTextures},
    Refused{"cudaArray", kArrays},
    Refused{"cudaArray_t", kArrays},
    Refused{"cudaMallocArray", kArrays},
    Refused{"cudaMalloc3DArray", kArrays},
    Refused{"cudaMemcpyToArray", kArrays},
    Refused{"cudaMemcpy2DToArray", kArrays},
    Refused{"cudaMemcpy3D", kArrays},
    Refused{"cudaGraph+", kGraphs},
    Refused{"cudaStreamGetCaptureInfo*", kGraphs},
    Refused{"cudaStreamUpdateCaptureDependencies*", kGraphs},
    Refused{"cudaStreamBeginCaptureToGraph", kGraphs},
    Refused{"cudaThreadExchangeStreamCaptureMode", kGraphs},
    Refused{"cudaUserObject+", kGraphs},
};

// The graph API that simt/graphs.h has (a name here is not refused).
constexpr std::array<std::string_view, 24> kGraphApi = {
    "cudaGraph_t",
    "cudaGraphEdgeData",
    "cudaGraphNode_t",
    "cudaGraphExec_t",
    "cudaGraphCreate",
    "cudaGraphDestroy",
    "cudaGraphClone",
    "cudaGraphAddKernelNode",
    "cudaGraphAddMemcpyNode",
    "cudaGraphAddMemcpyNode1D",
    "cudaGraphAddMemsetNode",
    "cudaGraphAddHostNode",
    "cudaGraphAddEmptyNode",
    "cudaGraphAddDependencies",
    "cudaGraphGetNodes",
    "cudaGraphGetRootNodes",
    "cudaGraphNodeGetType",
    "cudaGraphNodeGetDependencies",
    "cudaGraphInstantiate",
    "cudaGraphInstantiateWithFlags",
    "cudaGraphLaunch",
    "cudaGraphExecDestroy",
    "cudaGraphNodeType",
    "cudaGraphNodeType*",
};

bool matches(std::string_view pattern, std::string_view identifier) {
    const char kind = pattern.back();
    if (kind != '*' && kind != '+') return identifier == pattern;
    const std::string_view prefix = pattern.substr(0, pattern.size() - 1);
    if (!identifier.starts_with(prefix)) return false;
    if (kind == '*' || identifier.size() == prefix.size()) return true;
    const char next = identifier[prefix.size()];
    return next == '_' || (next >= 'A' && next <= 'Z');
}

const Refused* refused(std::string_view identifier) {
    for (std::string_view supported : kGraphApi)
        if (matches(supported, identifier)) return nullptr;
    for (const Refused& r : kRefused)
        if (matches(r.name, identifier)) return &r;
    return nullptr;
}

} // namespace

void reject_unsupported_apis(const SourceFile& src) {
    src.for_code_and_defines([&](Tokens toks, bool) {
        for (const Token& t : toks) {
            if (t.kind != TokenKind::Identifier) continue;
            if (const Refused* r = refused(t.text))
                src.fail(t, std::string(t.text) + ": " + std::string(r->feature) +
                                " are not supported by the simt emulator");
        }
    });
}

} // namespace simt::rewrite
