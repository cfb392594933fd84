// File-scope __shared__ variables, static and extern, in the functions that use them: a
// declaration of the same name at the top of each function body that names one, where the
// variable can be bound for the running block (static_shared.cpp, dynamic_shared.cpp). Not where
// a parameter of that name hides it, nor in a use outside any function body (a default member
// initializer, a file-scope initializer).
#include <set>
#include <string>

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

} // namespace

void declare_in_functions(const SourceFile& src, const ScopeMap& scopes, std::size_t declared,
                          const std::string& name, const std::string& declaration,
                          EditList& edits) {
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
        edits.insert(code[body].end(), " " + declaration);
    }
}

} // namespace simt::rewrite
