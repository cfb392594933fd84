// CUDA keywords that cannot be macros on the host compiler, and members named like the built-in
// variables that are macros there (`config.gridDim` of a cudaLaunchConfig_t). `__noinline__` is
// one: libstdc++ itself writes `__attribute__((__noinline__))`, so a `#define __noinline__ ...` in
// the compat headers would break the standard library. It is rewritten where it stands as a
// specifier, in code and in #define bodies, and left alone inside `__attribute__((...))`.
#include "passes.h"

namespace simt::rewrite {
namespace {

void rewrite_keywords_in(const SourceFile& src, Tokens toks, std::size_t floor, bool in_directive,
                         EditList& edits) {
    for (std::size_t i = floor; i < toks.size(); ++i) {
        if (toks[i].kind != TokenKind::Identifier) continue;
        if (toks[i].text == "__attribute__" && is(toks, i + 1, "(")) {
            const std::size_t close = match_forward(toks, i + 1);
            if (close == npos) return; // unbalanced: the compiler will say so
            i = close;
            continue;
        }
        if (toks[i].text == "__noinline__") {
            edits.replace(src, toks[i].begin, toks[i].end(), "__attribute__((noinline))",
                          in_directive);
        }
        // A member named like a built-in variable (cudaLaunchConfig_t's gridDim and blockDim),
        // which the emulator's headers define as macros: the member has another name there.
        if ((toks[i].text == "gridDim" || toks[i].text == "blockDim") && i > floor &&
            (toks[i - 1].text == "." || toks[i - 1].text == "->")) {
            edits.replace(src, toks[i].begin, toks[i].end(), "simt_" + std::string(toks[i].text),
                          in_directive);
        }
    }
}

} // namespace

void rewrite_cuda_keywords(const SourceFile& src, EditList& edits) {
    src.for_code_and_defines([&](Tokens toks, bool in_directive) {
        rewrite_keywords_in(src, toks, 0, in_directive, edits);
    });
}

} // namespace simt::rewrite
