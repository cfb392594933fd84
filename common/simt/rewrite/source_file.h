// The input as the passes see it: its text, its token streams, and where to report errors.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>

#include "lexer.h"
#include "line_map.h"

namespace simt::rewrite {

using Tokens = std::span<const Token>;
inline constexpr std::size_t npos = static_cast<std::size_t>(-1);

class SourceFile {
  public:
    explicit SourceFile(std::string_view text);

    std::string_view text() const { return text_; }
    const Lexed& lexed() const { return lexed_; }
    Tokens code() const { return lexed_.code; }
    Tokens directive_tokens(const Directive& d) const;
    Tokens define_body(const Directive& d) const;
    const LineMap& lines() const { return lines_; }

    // Calls pass(tokens, in_directive) on the code and then on the body of each #define: for a
    // pass that rewrites what macros expand to as well as the code.
    template <class Pass>
    void for_code_and_defines(Pass&& pass) const {
        pass(code(), false);
        for (const Directive& d : lexed_.directives)
            if (d.is_define) pass(define_body(d), true);
    }

    [[noreturn]] void fail(const Token& at, const std::string& message) const;
    // True if a directive line starts inside [begin, end): such text cannot be replaced
    // without losing the directive.
    bool has_directive_in(std::size_t begin, std::size_t end) const;

  private:
    std::string_view text_;
    LineMap lines_;
    Lexed lexed_;
};

// Helpers over one token stream (code, or one directive line).
bool is(Tokens toks, std::size_t i, std::string_view text);
bool is_identifier(Tokens toks, std::size_t i);
// No whitespace or comment between the two tokens.
bool touching(const Token& a, const Token& b);
// i is at '(' '[' or '{': the index of its partner, or npos. Brackets of other kinds nest
// freely inside (angle brackets are not brackets here).
std::size_t match_forward(Tokens toks, std::size_t i);
// i is at ')' ']' or '}': the index of its partner, or npos.
std::size_t match_backward(Tokens toks, std::size_t i);
// The depth of '(' '[' '{' brackets along a forward walk over tokens (angle brackets are not
// brackets here), for scans that stop at a token outside them.
struct BracketDepth {
    int depth = 0;

    // Counts an opener or a closer; false once a closer has no opener: the walk has left the
    // brackets it started in.
    bool count(std::string_view t) {
        if (t == "(" || t == "[" || t == "{") ++depth;
        if (t == ")" || t == "]" || t == "}") --depth;
        return depth >= 0;
    }
    bool outside() const { return depth == 0; }
};
// The spellings of tokens [first, last) with one space wherever the source had a gap: the
// text without comments or line breaks, safe to emit on one line.
std::string join(Tokens toks, std::size_t first, std::size_t last);

} // namespace simt::rewrite
