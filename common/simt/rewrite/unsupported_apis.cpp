// CUDA features the emulator does not have and the compat headers do not declare: textures and
// surfaces, CUDA arrays, the parts of CUDA graphs that simt/graphs.h does not have, graphics
// interoperability, thread block clusters. A name of theirs in the program is refused here, at
// its line, with the feature's name; the compiler would only say it "was not declared".
#include <algorithm>
#include <array>
#include <string_view>
#include <vector>

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
constexpr std::string_view kClusters = "thread block clusters";

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
    // A kernel's cluster shape (a launch through cudaLaunchKernelEx with a cluster is refused at
    // run time, and cg::this_cluster() by the compat header).
    Refused{"__cluster_dims__", kClusters},
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

namespace {

// The names that stand for namespace cooperative_groups in the program: itself, its aliases
// (`namespace cgx = cooperative_groups;`) and `cg`, the usual alias, which a header may declare.
std::vector<std::string_view> cooperative_groups_names(Tokens code) {
    std::vector<std::string_view> names = {"cooperative_groups", "cg"};
    for (std::size_t i = 0; i + 3 < code.size(); ++i) {
        if (code[i].text != "namespace" || code[i + 1].kind != TokenKind::Identifier ||
            code[i + 2].text != "=")
            continue;
        std::size_t target = i + 3;
        if (code[target].text == "::" && target + 1 < code.size()) ++target;
        if (code[target].text == "cooperative_groups") names.push_back(code[i + 1].text);
    }
    return names;
}

// cg::cluster_group, qualified by cooperative_groups or an alias of it: a program's own
// cluster_group elsewhere is left alone. Unqualified (after a using-directive) it reaches the
// compat header's type, whose use fails with the same message.
bool names_cluster_group(Tokens code, std::size_t i, const std::vector<std::string_view>& cg) {
    if (code[i].text != "cluster_group" || i < 2 || code[i - 1].text != "::") return false;
    return std::find(cg.begin(), cg.end(), code[i - 2].text) != cg.end();
}

} // namespace

void reject_unsupported_apis(const SourceFile& src) {
    const std::vector<std::string_view> cg = cooperative_groups_names(src.code());
    src.for_code_and_defines([&](Tokens toks, bool) {
        for (std::size_t i = 0; i < toks.size(); ++i) {
            const Token& t = toks[i];
            if (t.kind != TokenKind::Identifier) continue;
            if (const Refused* r = refused(t.text))
                src.fail(t, std::string(t.text) + ": " + std::string(r->feature) +
                                " are not supported by the simt emulator");
            if (names_cluster_group(toks, i, cg))
                src.fail(t, "cooperative_groups::cluster_group: " + std::string(kClusters) +
                                " are not supported by the simt emulator");
        }
    });
}

} // namespace simt::rewrite
