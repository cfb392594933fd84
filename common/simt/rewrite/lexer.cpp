#include "lexer.h"

#include <array>
#include <optional>
#include <string>

namespace simt::rewrite {
namespace {

bool is_ident_start(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$' ||
           static_cast<unsigned char>(c) >= 0x80; // UTF-8 identifiers
}

bool is_ident_char(char c) {
    return is_ident_start(c) || (c >= '0' && c <= '9');
}

bool is_digit(char c) {
    return c >= '0' && c <= '9';
}

class Lexer {
  public:
    explicit Lexer(std::string_view text) : text_(text) {}

    Lexed run() {
        while (pos_ < text_.size()) step();
        end_directive();
        return std::move(out_);
    }

  private:
    char at(std::size_t i) const { return i < text_.size() ? text_[i] : '\0'; }

    // A backslash-newline (line splice) at pos: its length, else 0.
    std::size_t splice_length(std::size_t pos) const {
        if (at(pos) != '\\') return 0;
        if (at(pos + 1) == '\n') return 2;
        if (at(pos + 1) == '\r' && at(pos + 2) == '\n') return 3;
        return 0;
    }

    void step() {
        const char c = text_[pos_];
        if (c == '\n') {
            end_directive();
            at_line_start_ = true;
            ++pos_;
            return;
        }
        if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
            ++pos_;
            return;
        }
        if (std::size_t n = splice_length(pos_)) {
            pos_ += n;
            return;
        }
        if (c == '/' && at(pos_ + 1) == '/') return skip_line_comment();
        if (c == '/' && at(pos_ + 1) == '*') return skip_block_comment();

        const bool line_start = at_line_start_;
        at_line_start_ = false;
        if (c == '#' && line_start && !in_directive()) {
            begin_directive();
            return;
        }
        if (expect_header_name_ && c == '<') return lex_header_name();
        expect_header_name_ = false;

        if (is_digit(c) || (c == '.' && is_digit(at(pos_ + 1)))) return lex_number();
        if (is_ident_start(c)) return lex_identifier_or_prefixed_literal();
        if (c == '"') return lex_quoted(pos_, pos_ + 1, '"', TokenKind::String);
        if (c == '\'') return lex_quoted(pos_, pos_ + 1, '\'', TokenKind::Char);
        lex_punct();
    }

    void skip_line_comment() {
        // A comment ending in a backslash continues on the next line, as in translation phase 2.
        while (pos_ < text_.size() && text_[pos_] != '\n') {
            if (std::size_t n = splice_length(pos_)) {
                pos_ += n;
            } else {
                ++pos_;
            }
        }
    }

    void skip_block_comment() {
        const std::size_t close = text_.find("*/", pos_ + 2);
        pos_ = close == std::string_view::npos ? text_.size() : close + 2;
    }

    void lex_number() {
        const std::size_t start = pos_;
        ++pos_;
        while (pos_ < text_.size()) {
            const char c = text_[pos_];
            const char next = at(pos_ + 1);
            if ((c == 'e' || c == 'E' || c == 'p' || c == 'P') && (next == '+' || next == '-')) {
                pos_ += 2;
            } else if (c == '\'' && is_ident_char(next)) { // digit separator, 1'000'000
                pos_ += 2;
            } else if (is_ident_char(c) || c == '.') {
                ++pos_;
            } else {
                break;
            }
        }
        push(TokenKind::Number, start, pos_);
    }

    void lex_identifier_or_prefixed_literal() {
        const std::size_t start = pos_;
        while (pos_ < text_.size() && is_ident_char(text_[pos_])) ++pos_;
        const std::string_view word = text_.substr(start, pos_ - start);
        const char next = at(pos_);

        static constexpr std::array raw_prefixes{"R", "u8R", "uR", "UR", "LR"};
        static constexpr std::array prefixes{"u8", "u", "U", "L"};
        if (next == '"') {
            for (std::string_view p : raw_prefixes) {
                if (word == p) return lex_raw_string(start);
            }
            for (std::string_view p : prefixes) {
                if (word == p) return lex_quoted(start, pos_ + 1, '"', TokenKind::String);
            }
        } else if (next == '\'') {
            for (std::string_view p : prefixes) {
                if (word == p) return lex_quoted(start, pos_ + 1, '\'', TokenKind::Char);
            }
        }
        push(TokenKind::Identifier, start, pos_);
        if (in_directive() && directive_token_count() == 2 &&
            (word == "include" || word == "include_next" || word == "import")) {
            expect_header_name_ = true;
        }
    }

    // body_start is just past the opening quote. An unterminated literal stops at the end of
    // its line, as in a skipped #if block where gcc only warns.
    void lex_quoted(std::size_t start, std::size_t body_start, char quote, TokenKind kind) {
        pos_ = body_start;
        while (pos_ < text_.size()) {
            const char c = text_[pos_];
            if (c == '\\' && pos_ + 1 < text_.size()) {
                pos_ += 2;
            } else if (c == '\n') {
                break;
            } else {
                ++pos_;
                if (c == quote) break;
            }
        }
        skip_ud_suffix();
        push(kind, start, pos_);
    }

    // pos_ is at the opening quote of R"delim( ... )delim".
    void lex_raw_string(std::size_t start) {
        const std::size_t delim_start = pos_ + 1;
        std::size_t open = delim_start;
        while (open < text_.size() && open - delim_start <= 16 && text_[open] != '(' &&
               text_[open] != ' ' && text_[open] != ')' && text_[open] != '\\' &&
               text_[open] != '\n' && text_[open] != '"') {
            ++open;
        }
        if (at(open) != '(') { // not a valid raw string: lex it as an ordinary one
            return lex_quoted(start, pos_ + 1, '"', TokenKind::String);
        }
        std::string closing = ")";
        closing += text_.substr(delim_start, open - delim_start);
        closing += '"';
        const std::size_t close = text_.find(closing, open + 1);
        pos_ = close == std::string_view::npos ? text_.size() : close + closing.size();
        skip_ud_suffix();
        push(TokenKind::String, start, pos_);
    }

    void skip_ud_suffix() {
        if (pos_ < text_.size() && is_ident_start(text_[pos_])) {
            while (pos_ < text_.size() && is_ident_char(text_[pos_])) ++pos_;
        }
    }

    void lex_header_name() {
        expect_header_name_ = false;
        const std::size_t start = pos_;
        while (pos_ < text_.size() && text_[pos_] != '>' && text_[pos_] != '\n') ++pos_;
        if (at(pos_) == '>') ++pos_;
        push(TokenKind::HeaderName, start, pos_);
    }

    // '<' and '>' stay single characters: "<<<", ">>>" and nested template closers are
    // recognised by adjacency, so "A<B<C<int>>>" and "k<<<g, b>>>" need no lexer guesswork.
    void lex_punct() {
        const std::size_t start = pos_;
        const char c = text_[pos_];
        const char next = at(pos_ + 1);
        pos_ += ((c == ':' && next == ':') || (c == '#' && next == '#')) ? 2 : 1;
        push(TokenKind::Punct, start, pos_);
    }

    void push(TokenKind kind, std::size_t begin, std::size_t end) {
        Token token{kind, text_.substr(begin, end - begin), begin};
        if (in_directive()) {
            out_.directive_tokens.push_back(token);
        } else {
            out_.code.push_back(token);
        }
    }

    bool in_directive() const { return directive_.has_value(); }

    std::size_t directive_token_count() const {
        return out_.directive_tokens.size() - directive_->first;
    }

    void begin_directive() {
        directive_ = Directive{out_.directive_tokens.size(), 0, 0, false};
        push(TokenKind::Punct, pos_, pos_ + 1);
        ++pos_;
    }

    void end_directive() {
        expect_header_name_ = false;
        if (!directive_) return;
        Directive d = *directive_;
        directive_.reset();
        const auto& toks = out_.directive_tokens;
        d.end = toks.size();
        d.body = d.end;
        d.is_define = d.end - d.first >= 2 && toks[d.first + 1].text == "define";
        if (d.is_define && d.end - d.first >= 3) {
            std::size_t body = d.first + 3; // after '#', 'define' and the macro name
            const Token& name = toks[d.first + 2];
            // A '(' touching the name opens a parameter list; a spaced one starts the body.
            if (body < d.end && toks[body].text == "(" && toks[body].begin == name.end()) {
                while (body < d.end && toks[body].text != ")") ++body;
                if (body < d.end) ++body;
            }
            d.body = body;
        }
        out_.directives.push_back(d);
    }

    std::string_view text_;
    std::size_t pos_ = 0;
    bool at_line_start_ = true;
    bool expect_header_name_ = false;
    std::optional<Directive> directive_;
    Lexed out_;
};

} // namespace

Lexed lex(std::string_view text) {
    return Lexer(text).run();
}

} // namespace simt::rewrite
