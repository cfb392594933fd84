#include "source_file.h"

#include <algorithm>

#include "conditionals.h"
#include "rewrite.h"

namespace simt::rewrite {

SourceFile::SourceFile(std::string_view text) : text_(text), lines_(text), lexed_(lex(text)) {
    remove_disabled_blocks(lexed_);
}

Tokens SourceFile::directive_tokens(const Directive& d) const {
    return Tokens(lexed_.directive_tokens).subspan(d.first, d.end - d.first);
}

Tokens SourceFile::define_body(const Directive& d) const {
    return Tokens(lexed_.directive_tokens).subspan(d.body, d.end - d.body);
}

void SourceFile::fail(const Token& at, const std::string& message) const {
    const SourcePosition pos = lines_.position(at.begin);
    throw RewriteError(pos.line, pos.col, message);
}

bool SourceFile::has_directive_in(std::size_t begin, std::size_t end) const {
    const auto& dirs = lexed_.directives;
    const auto& toks = lexed_.directive_tokens;
    auto it =
        std::lower_bound(dirs.begin(), dirs.end(), begin, [&](const Directive& d, std::size_t b) {
            return toks[d.first].begin < b;
        });
    return it != dirs.end() && toks[it->first].begin < end;
}

bool is(Tokens toks, std::size_t i, std::string_view text) {
    return i < toks.size() && toks[i].text == text;
}

bool is_identifier(Tokens toks, std::size_t i) {
    return i < toks.size() && toks[i].kind == TokenKind::Identifier;
}

bool touching(const Token& a, const Token& b) {
    return a.end() == b.begin;
}

namespace {

int bracket_delta(std::string_view t) {
    if (t == "(" || t == "[" || t == "{") return 1;
    if (t == ")" || t == "]" || t == "}") return -1;
    return 0;
}

} // namespace

std::size_t match_forward(Tokens toks, std::size_t i) {
    int depth = 0;
    for (std::size_t j = i; j < toks.size(); ++j) {
        depth += bracket_delta(toks[j].text);
        if (depth == 0) return j;
    }
    return npos;
}

std::size_t match_backward(Tokens toks, std::size_t i) {
    int depth = 0;
    for (std::size_t j = i + 1; j-- > 0;) {
        depth -= bracket_delta(toks[j].text);
        if (depth == 0) return j;
    }
    return npos;
}

std::string join(Tokens toks, std::size_t first, std::size_t last) {
    std::string out;
    for (std::size_t i = first; i < last; ++i) {
        if (i > first && !touching(toks[i - 1], toks[i])) out += ' ';
        out += toks[i].text;
    }
    return out;
}

} // namespace simt::rewrite
