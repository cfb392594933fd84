// cudaLaunchCooperativeKernel((void*)kernel, grid, block, args, ...) and the same with
// cudaLaunchKernel: the emulator launches with the kernel's parameter types (simt/launch_api.h),
// which a cast to `void*` hides, so the cast in front of the first argument is dropped:
// `(void*)k`, `(void *)k<T>`, `(const void*)&k` and `reinterpret_cast<void*>(k)` pass the kernel
// itself. A first argument of any other form is left as it is (a void* variable is refused at
// run time with a message that says why).
#include "passes.h"

namespace simt::rewrite {
namespace {

// toks[open] is the call's '(': the end (exclusive) of a C-style cast to `[const] void *` that
// starts the first argument, or npos.
std::size_t c_style_void_cast_end(Tokens toks, std::size_t open) {
    std::size_t j = open + 1;
    if (!is(toks, j, "(")) return npos;
    ++j;
    if (is(toks, j, "const")) ++j;
    if (!is(toks, j, "void") || !is(toks, j + 1, "*") || !is(toks, j + 2, ")")) return npos;
    return j + 3;
}

void rewrite_calls_in(const SourceFile& src, Tokens toks, std::size_t floor, bool in_directive,
                      EditList& edits) {
    for (std::size_t i = floor; i + 1 < toks.size(); ++i) {
        if (toks[i].kind != TokenKind::Identifier) continue;
        if (toks[i].text != "cudaLaunchCooperativeKernel" && toks[i].text != "cudaLaunchKernel")
            continue;
        if (!is(toks, i + 1, "(")) continue;
        const std::size_t open = i + 1;
        if (const std::size_t end = c_style_void_cast_end(toks, open); end != npos) {
            // Drop "(void*)": the kernel expression that follows binds as tightly as the cast.
            edits.replace(src, toks[open + 1].begin, toks[end - 1].end(), "", in_directive);
            continue;
        }
        // reinterpret_cast<[const] void*>( kernel ) -> ( kernel )
        std::size_t j = open + 1;
        if (!is(toks, j, "reinterpret_cast") && !is(toks, j, "static_cast")) continue;
        if (!is(toks, j + 1, "<")) continue;
        std::size_t k = j + 2;
        if (is(toks, k, "const")) ++k;
        if (!is(toks, k, "void") || !is(toks, k + 1, "*") || !is(toks, k + 2, ">") ||
            !is(toks, k + 3, "("))
            continue;
        edits.replace(src, toks[j].begin, toks[k + 2].end(), "", in_directive);
    }
}

} // namespace

void strip_launch_api_casts(const SourceFile& src, EditList& edits) {
    src.for_code_and_defines([&](Tokens toks, bool in_directive) {
        rewrite_calls_in(src, toks, 0, in_directive, edits);
    });
}

} // namespace simt::rewrite
