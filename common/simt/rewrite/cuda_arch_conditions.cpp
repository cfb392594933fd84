// `#if __CUDA_ARCH__ >= 700` and the like: nvcc's device pass keeps the text for the GPU it
// compiles for, its host pass (no __CUDA_ARCH__) does not. The emulator compiles host and device
// code in one pass without __CUDA_ARCH__ (so that `#ifdef __CUDA_ARCH__` keeps picking the host
// side, as the labs rely on), and runs the device code: so a comparison with __CUDA_ARCH__ in an
// #if or #elif reads the emulated device's compute capability, 900, and keeps the code a GPU of
// that capability runs (a kernel body, or a device function, under `#if __CUDA_ARCH__ >= 700`).
// A conditional that also tests `defined(__CUDA_ARCH__)`, which stays false, gets a compiler
// warning at its #if line that says so.
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

// line[i] is __CUDA_ARCH__, compared with something (either side).
bool compared(Tokens line, std::size_t i) {
    return comparison_after(line, i + 1) || comparison_before(line, i - 1);
}

// line[i] is __CUDA_ARCH__ as the operand of `defined` (`defined __CUDA_ARCH__`, `defined(...)`).
bool tested_for_definition(Tokens line, std::size_t i) {
    return is(line, i - 1, "defined") || (is(line, i - 1, "(") && is(line, i - 2, "defined"));
}

} // namespace

void read_cuda_arch_comparisons(const SourceFile& src, EditList& edits) {
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
        if (!(is(line, 1, "if") || is(line, 1, "elif"))) continue;
        bool compares = false;
        bool tests_definition = false;
        for (std::size_t i = 2; i < line.size(); ++i) {
            if (line[i].text != "__CUDA_ARCH__") continue;
            if (tested_for_definition(line, i)) {
                tests_definition = true;
            } else if (compared(line, i)) {
                compares = true;
                edits.replace(src, line[i].begin, line[i].end(), "900", true);
            }
        }
        auto& [hash, warned] = open.back();
        if (!compares || !tests_definition || warned) continue;
        warned = true;
        const int number = src.lines().position(hash->begin).line;
        // A warning line of its own before the #if, then #line to give the #if its number back:
        // the warning points at the #if's line.
        edits.insert(hash->begin,
                     "#pragma GCC warning \"__CUDA_ARCH__ is not defined on the simt emulator "
                     "(host and device code are compiled in one pass, like nvcc's host pass): "
                     "this conditional's comparisons read the emulated device's 900, but its "
                     "defined(__CUDA_ARCH__) is false\"\n#line " +
                         std::to_string(number) + "\n");
    }
}

} // namespace simt::rewrite
