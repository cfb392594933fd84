// cudaLaunchCooperativeKernel((void*)kernel, grid, block, args, ...) and the same with
// cudaLaunchKernel: the emulator launches with the kernel's parameter types (simt/launch_api.h),
// which a cast to `void*` hides, so the cast in front of the first argument is dropped:
// `(void*)k`, `(void *)k<T>`, `(const void*)&k` and `reinterpret_cast<void*>(k)` pass the kernel
// itself. A first argument of any other form is left as it is (a void* variable is refused at
// run time with a message that says why).
#include "device_bodies.h"
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

// Identifiers that follow a parameter list `(void*)`, never a cast's operand.
bool declaration_word(std::string_view t) {
    return t == "const" || t == "volatile" || t == "noexcept" || t == "override" || t == "final" ||
           t == "throw" || t == "mutable" || t == "requires" || t == "try" ||
           t == "__attribute__" || t == "__asm__" || t == "asm";
}

// Whether toks[i] starts the operand of a cast to `void*` that may name a kernel: a name (not a
// word that follows a parameter list), `&name` or `::name`.
bool kernel_operand(Tokens toks, std::size_t i) {
    if (i >= toks.size()) return false;
    if (toks[i].kind == TokenKind::Identifier) return !declaration_word(toks[i].text);
    return (toks[i].text == "&" || toks[i].text == "::") && i + 1 < toks.size() &&
           (toks[i + 1].kind == TokenKind::Identifier || toks[i + 1].text == "::");
}

// toks[open] is `(`: the first argument of cudaLaunchKernel or cudaLaunchCooperativeKernel,
// whose cast the pass above drops.
bool launch_call_argument(Tokens toks, std::size_t open) {
    return open > 0 && (toks[open - 1].text == "cudaLaunchKernel" ||
                        toks[open - 1].text == "cudaLaunchCooperativeKernel");
}

} // namespace

void register_void_casts(const SourceFile& src, EditList& edits) {
    const Tokens code = src.code();
    const std::vector<bool> device = device_body_tokens(code);
    for (std::size_t i = 0; i + 3 < code.size(); ++i) {
        if (device[i]) continue;
        // (void*)x, (const void*)x
        if (code[i].text == "(" &&
            !(i > 0 && is(code, i - 1, "(") && launch_call_argument(code, i - 1)) &&
            !(i > 0 && code[i - 1].kind == TokenKind::Identifier &&
              (code[i - 1].text == "sizeof" || code[i - 1].text == "alignof" ||
               code[i - 1].text == "__alignof__" || code[i - 1].text == "decltype" ||
               code[i - 1].text == "typeid"))) {
            std::size_t j = i + 1;
            const bool is_const = is(code, j, "const");
            if (is_const) ++j;
            if (is(code, j, "void") && is(code, j + 1, "*") && is(code, j + 2, ")") &&
                kernel_operand(code, j + 3)) {
                edits.replace(src, code[i].begin, code[j + 2].end(),
                              is_const ? "::simt::ConstVoidCast{} ->* " : "::simt::VoidCast{} ->* ",
                              false);
                i = j + 2;
                continue;
            }
        }
        // reinterpret_cast<void*>(x), reinterpret_cast<const void*>(x)
        if (code[i].text == "reinterpret_cast" && is(code, i + 1, "<") &&
            !(i > 0 && is(code, i - 1, "(") && launch_call_argument(code, i - 1))) {
            std::size_t k = i + 2;
            const bool is_const = is(code, k, "const");
            if (is_const) ++k;
            if (is(code, k, "void") && is(code, k + 1, "*") && is(code, k + 2, ">") &&
                is(code, k + 3, "(")) {
                edits.replace(src, code[i].begin, code[k + 2].end(),
                              is_const ? "::simt::ConstVoidCast{} ->* " : "::simt::VoidCast{} ->* ",
                              false);
                i = k + 2;
            }
        }
    }
}

void strip_launch_api_casts(const SourceFile& src, EditList& edits) {
    src.for_code_and_defines([&](Tokens toks, bool in_directive) {
        rewrite_calls_in(src, toks, 0, in_directive, edits);
    });
}

} // namespace simt::rewrite
