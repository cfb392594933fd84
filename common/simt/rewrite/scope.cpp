#include "scope.h"

namespace simt::rewrite {
namespace {

// Skips a trailing [[attribute]] group ending at i; returns the index before it.
std::size_t skip_attribute_back(Tokens code, std::size_t i) {
    if (is(code, i, "]") && i > 0 && is(code, i - 1, "]")) {
        const std::size_t open = match_backward(code, i);
        if (open != npos) return open == 0 ? npos : open - 1;
    }
    return i;
}

// code[brace] is '{': does it open a namespace or a linkage-specification body?
bool opens_namespace(Tokens code, std::size_t brace) {
    if (brace == 0) return false;
    std::size_t i = brace - 1;
    if (code[i].kind == TokenKind::String &&
        (code[i].text == "\"C\"" || code[i].text == "\"C++\"")) {
        return i > 0 && is(code, i - 1, "extern");
    }
    // namespace a::inline b [[attr]] {   or   namespace {
    i = skip_attribute_back(code, i);
    while (i != npos && (is_identifier(code, i) || is(code, i, "::"))) {
        if (code[i].text == "namespace") return true;
        if (i == 0) break;
        i = skip_attribute_back(code, i - 1);
    }
    return false;
}

} // namespace

ScopeMap::ScopeMap(Tokens code) : file_scope_(code.size(), false) {
    std::vector<bool> is_namespace; // one entry per open brace
    std::size_t non_namespace_depth = 0;
    for (std::size_t i = 0; i < code.size(); ++i) {
        file_scope_[i] = non_namespace_depth == 0;
        if (code[i].text == "{") {
            const bool ns = opens_namespace(code, i);
            is_namespace.push_back(ns);
            if (!ns) ++non_namespace_depth;
        } else if (code[i].text == "}" && !is_namespace.empty()) {
            if (!is_namespace.back()) --non_namespace_depth;
            is_namespace.pop_back();
        }
    }
}

} // namespace simt::rewrite
