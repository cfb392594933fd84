// `#if __CUDA_ARCH__ >= 700` and the like: nvcc's device pass keeps the text for the GPU it
// compiles for, its host pass (no __CUDA_ARCH__) does not. The emulator compiles host and device
// code in one pass without __CUDA_ARCH__ (so that `#ifdef __CUDA_ARCH__` keeps picking the host
// side, as the labs rely on), so such a condition reads it as 0 and a kernel body it guards is
// left out silently. Each one gets a compiler warning at its line that names the macro.
#include <utility>
#include <vector>

#include "passes.h"

namespace simt::rewrite {
namespace {

// The lexer keeps punctuation to single characters ('>' '=' for ">="): a comparison starts with
// '<', '>', or '=' / '!' before '=', and ends with '<', '>' or '='.
bool comparison_after(Tokens line, std::size_t i) {
    while (is(line, i, ")")) ++i; // (__CUDA_ARCH__) >= 700
    if (i >= line.size()) return false;
    const std::string_view t = line[i].text;
    return t == "<" || t == ">" || ((t == "=" || t == "!") && is(line, i + 1, "="));
}
bool comparison_before(Tokens line, std::size_t i) {
    while (i > 0 && is(line, i, "(")) --i;
    const std::string_view t = line[i].text;
    return t == "<" || t == ">" || t == "=";
}

// The line compares __CUDA_ARCH__ with something (either side).
bool compares_cuda_arch(Tokens line) {
    for (std::size_t i = 2; i < line.size(); ++i)
        if (line[i].text == "__CUDA_ARCH__" &&
            (comparison_after(line, i + 1) || comparison_before(line, i - 1)))
            return true;
    return false;
}

} // namespace

void warn_cuda_arch_conditions(const SourceFile& src, EditList& edits) {
    // The `#if` (or #ifdef/#ifndef) lines of the conditionals around the directive being read, and
    // whether each has its warning. A warning for an #elif goes before its #if: text before the
    // #elif is in the branch above it, which the compiler may skip.
    std::vector<std::pair<const Token*, bool>> open;
    for (const Directive& d : src.lexed().directives) {
        const Tokens line = src.directive_tokens(d);
        const bool opens = is(line, 1, "if") || is(line, 1, "ifdef") || is(line, 1, "ifndef");
        if (opens) open.emplace_back(&line[0], false);
        if (open.empty()) continue; // an unbalanced #elif or #endif: the compiler will say so
        if (is(line, 1, "endif")) {
            open.pop_back();
            continue;
        }
        if (!(is(line, 1, "if") || is(line, 1, "elif")) || !compares_cuda_arch(line)) continue;
        auto& [hash, warned] = open.back();
        if (warned) continue;
        warned = true;
        const int number = src.lines().position(hash->begin).line;
        // A warning line of its own before the #if, then #line to give the #if its number back:
        // the warning points at the #if's line.
        edits.insert(
            hash->begin,
            "#pragma GCC warning \"__CUDA_ARCH__ is not defined on the simt emulator "
            "(host and device code are compiled in one pass, like nvcc's host pass), so "
            "this conditional's comparisons read it as 0 and leave out the code kept for a GPU; "
            "the emulated device reports compute capability 9.0\"\n#line " +
                std::to_string(number) + "\n");
    }
}

} // namespace simt::rewrite
