// Dynamic shared memory (the launch's smem bytes), `extern __shared__ float buf[];`, becomes
//   at file/namespace scope:
//     [[maybe_unused]] static constexpr ::simt::DynamicShared<float> buf{};
//     an empty constexpr handle whose operator[] and float* conversion find the running
//     block's buffer whenever they are used;
//   inside a function:
//     [[maybe_unused]] float* const buf = ::simt::DynamicShared<float>{};
//     a real pointer, taken when the function runs (so for the running block), because the
//     common `reinterpret_cast<T*>(buf)` cannot convert a class object.
// A file-scope array used inside functions gets the in-function form as well, at the top of each
// function body that names it, so that casts of it work there too:
//     __global__ void k() { [[maybe_unused]] float* const buf = ::simt::DynamicShared<float>{};
// (not where a parameter of that name hides it; a use that is in no function body, such as a
// default member initializer, keeps the handle).
#include <set>
#include <string>
#include <vector>

#include "passes.h"
#include "shared_decl.h"

namespace simt::rewrite {
namespace {

// Whether the '{' at toks[open] starts a function's (or a lambda's) body: it follows the
// parameter list's ')' or what may stand between the two (cv-qualifiers, noexcept, override,
// a trailing return type is not recognized), and is not a control statement's block.
bool is_function_body(Tokens toks, std::size_t open) {
    std::size_t j = open;
    while (j > 0 && (is(toks, j - 1, "const") || is(toks, j - 1, "noexcept") ||
                     is(toks, j - 1, "override") || is(toks, j - 1, "final") ||
                     is(toks, j - 1, "mutable") || is(toks, j - 1, "volatile")))
        --j;
    if (j == 0 || !is(toks, j - 1, ")")) return false;
    const std::size_t paren = match_backward(toks, j - 1);
    if (paren == npos || paren == 0) return false;
    const std::string_view before = toks[paren - 1].text;
    return before != "if" && before != "for" && before != "while" && before != "switch" &&
           before != "catch" && before != "constexpr";
}

// The outermost function body around toks[use] (its '{'), or npos.
std::size_t enclosing_function_body(Tokens toks, std::size_t use) {
    std::size_t body = npos;
    int depth = 0;
    for (std::size_t j = use; j-- > 0;) {
        const std::string_view t = toks[j].text;
        if (t == "}") {
            ++depth;
        } else if (t == "{") {
            if (depth > 0) {
                --depth;
            } else if (is_function_body(toks, j)) {
                body = j;
            }
        }
    }
    return body;
}

// Whether the parameter list before the body at toks[open] names `name`.
bool parameter_named(Tokens toks, std::size_t open, std::string_view name) {
    std::size_t close = open;
    while (close > 0 && !is(toks, close - 1, ")")) --close;
    if (close == 0) return false;
    const std::size_t paren = match_backward(toks, close - 1);
    for (std::size_t j = paren; j != npos && j < close; ++j)
        if (toks[j].kind == TokenKind::Identifier && toks[j].text == name) return true;
    return false;
}

// Gives each function body that uses the file-scope dynamic shared array `name` (of element
// type `spec`, declared up to toks[declared]) a pointer of that name.
void point_uses(const SourceFile& src, const ScopeMap& scopes, std::size_t declared,
                const std::string& name, const std::string& spec, EditList& edits) {
    const Tokens code = src.code();
    std::set<std::size_t> bodies;
    for (std::size_t i = declared + 1; i < code.size(); ++i) {
        if (code[i].kind != TokenKind::Identifier || code[i].text != name) continue;
        if (scopes.at_file_scope(i)) continue;
        if (i > 0 && (is(code, i - 1, ".") || is(code, i - 1, "->") || is(code, i - 1, "::")))
            continue;
        const std::size_t body = enclosing_function_body(code, i);
        if (body == npos || !bodies.insert(body).second) continue;
        if (parameter_named(code, body, name)) continue;
        edits.insert(code[body].end(), " [[maybe_unused]] " + spec + "* const " + name +
                                           " = ::simt::DynamicShared<" + spec + ">{};");
    }
}

} // namespace

void rewrite_dynamic_shared(const SourceFile& src, const ScopeMap& scopes, EditList& edits) {
    const Tokens code = src.code();
    for (std::size_t i = 0; i < code.size(); ++i) {
        if (code[i].kind != TokenKind::Identifier || code[i].text != "__shared__") continue;
        if (!is_extern_shared(code, i)) continue; // the static pass's
        const SharedDecl d = parse_shared_decl(src, i);
        const std::string handle = "::simt::DynamicShared<" + d.spec + ">";
        std::string text;
        const bool file_scope = scopes.at_file_scope(i);
        for (const SharedDeclarator& v : d.declarators) {
            if (v.dims != "[]") {
                src.fail(code[i], "extern __shared__ must be an array of unknown size, e.g. "
                                  "'extern __shared__ float buffer[];'");
            }
            if (!text.empty()) text += ' ';
            text +=
                file_scope
                    ? "[[maybe_unused]] static constexpr " + handle + " " + v.name + "{};"
                    : "[[maybe_unused]] " + d.spec + "* const " + v.name + " = " + handle + "{};";
            if (file_scope) point_uses(src, scopes, d.semi, v.name, d.spec, edits);
        }
        edits.replace(src, code[d.first].begin, code[d.semi].end(), std::move(text), false);
        i = d.semi;
    }
}

} // namespace simt::rewrite
