// A preprocessing-token lexer, just enough to find the CUDA constructs to rewrite: it knows
// comments, string/char/raw-string literals, pp-numbers and directive lines, so that nothing
// inside them is mistaken for code. It never fails: malformed input is left for the compiler.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

namespace simt::rewrite {

enum class TokenKind { Identifier, Number, String, Char, HeaderName, Punct };

struct Token {
    TokenKind kind;
    std::string_view text; // a view into the source
    std::size_t begin;     // byte offset of the first character
    std::size_t end() const { return begin + text.size(); }
};

// One preprocessor directive line (with its continuations), as indices into
// Lexed::directive_tokens: [first, end). For #define, body is where the replacement list starts.
struct Directive {
    std::size_t first;
    std::size_t end;
    std::size_t body;
    bool is_define;
};

// Code and directives are separate token streams: code scans then never stumble into a
// directive line, and a #define body can be scanned on its own.
struct Lexed {
    std::vector<Token> code;
    std::vector<Token> directive_tokens;
    std::vector<Directive> directives;
};

Lexed lex(std::string_view text);

} // namespace simt::rewrite
