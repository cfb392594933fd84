// CUDA features the emulator does not have and the compat headers do not declare: textures and
// surfaces, CUDA arrays, graphs and stream capture, graphics interoperability. A name of theirs in
// the program is refused here, at its line, with the feature's name; the compiler would only say it
// "was not declared".
#include <array>
#include <string_view>

#include "passes.h"

namespace simt::rewrite {
namespace {

struct Refused {
    std::string_view name; // an identifier, or a prefix when it ends with '*'
    std::string_view feature;
};

constexpr std::string_view kTextures = "texture and surface objects";
constexpr std::string_view kArrays = "CUDA arrays";
constexpr std::string_view kGraphs = "CUDA graphs";
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
    Refused{"cudaGraph*", kGraphs},
    Refused{"cudaStreamBeginCapture", kGraphs},
    Refused{"cudaStreamEndCapture", kGraphs},
    Refused{"cudaKernelNodeParams", kGraphs},
};

const Refused* refused(std::string_view identifier) {
    for (const Refused& r : kRefused) {
        const bool prefix = r.name.ends_with('*');
        if (prefix ? identifier.starts_with(r.name.substr(0, r.name.size() - 1))
                   : identifier == r.name)
            return &r;
    }
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
