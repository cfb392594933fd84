#include "shared_decl.h"

namespace simt::rewrite {
namespace {

bool is_dropped_specifier(std::string_view t) {
    return t == "__shared__" || t == "static" || t == "extern" || t == "__device__";
}

bool is_align_keyword(std::string_view t) {
    return t == "__align__" || t == "alignas";
}

// Keywords that end a statement's head: what comes after them is not a declaration's specifier
// list that started before them.
bool is_statement_keyword(std::string_view t) {
    return t == "return" || t == "else" || t == "do" || t == "case" || t == "default" ||
           t == "goto" || t == "throw" || t == "co_return" || t == "co_yield" || t == "co_await";
}

// The specifiers before __shared__ may include the type, as CUDA allows
// (`extern double __shared__ sdata[];`, `unsigned int __shared__ count;`).
bool is_kept_prefix(std::string_view t) {
    return !is_statement_keyword(t);
}

// code[close] is a '>' that may close template arguments: the index of its '<', or npos.
std::size_t template_open_before(Tokens code, std::size_t close) {
    int depth = 0;
    for (std::size_t j = close + 1; j-- > 0;) {
        const std::string_view t = code[j].text;
        if (t == ">")
            ++depth;
        else if (t == "<" && --depth == 0)
            return j;
        else if (t == ";" || t == "{" || t == "}")
            return npos;
    }
    return npos;
}

bool starts_attribute(Tokens toks, std::size_t i) {
    return is(toks, i, "[") && is(toks, i + 1, "[") && touching(toks[i], toks[i + 1]);
}

// Walks back from __shared__ over the specifiers that may precede it.
std::size_t walk_back_specifiers(Tokens code, std::size_t at) {
    std::size_t first = at;
    while (first > 0) {
        const std::size_t prev = first - 1;
        const std::string_view t = code[prev].text;
        if (code[prev].kind == TokenKind::Identifier && is_kept_prefix(t)) {
            first = prev;
            continue;
        }
        if (t == "::") { // a qualified type name
            first = prev;
            continue;
        }
        if (t == ">") {
            const std::size_t open = template_open_before(code, prev);
            if (open != npos && open > 0 && is_identifier(code, open - 1)) {
                first = open;
                continue;
            }
        }
        if (t == ")" || (t == "]" && is(code, prev - 1, "]"))) {
            const std::size_t open = match_backward(code, prev);
            const bool align =
                t == ")" && open != npos && open > 0 && is_align_keyword(code[open - 1].text);
            const bool attribute = t == "]" && open != npos && starts_attribute(code, open);
            if (align || attribute) {
                first = align ? open - 1 : open;
                continue;
            }
        }
        break;
    }
    return first;
}

std::size_t find_declaration_start(const SourceFile& src, Tokens code, std::size_t at) {
    const std::size_t first = walk_back_specifiers(code, at);
    if (first > 0) {
        const std::string_view before = code[first - 1].text;
        if (before != ";" && before != "{" && before != "}" && before != ":" && before != ")") {
            src.fail(code[at], "unsupported __shared__ declaration: write it as a statement of "
                               "its own that starts with the qualifiers, e.g. "
                               "'__shared__ int name[32];'");
        }
    }
    return first;
}

// The ';' ending the declaration, rejecting initializers on the way; the ','s that separate
// its declarators go to `commas`.
std::size_t find_declaration_end(const SourceFile& src, Tokens code, std::size_t at,
                                 std::vector<std::size_t>& commas) {
    int depth = 0;
    int angle = 0; // before any initializer, '<' can only open template arguments
    for (std::size_t j = at + 1; j < code.size(); ++j) {
        const std::string_view t = code[j].text;
        if (depth == 0 && angle == 0) {
            if (t == ";") return j;
            if (t == "=" || t == "{") {
                src.fail(code[j], "__shared__ variables cannot be initialized in their "
                                  "declaration (as in CUDA); assign them in the kernel, then "
                                  "__syncthreads()");
            }
            if (t == ",") commas.push_back(j);
        }
        if (t == "(" || t == "[" || t == "{") {
            ++depth;
        } else if (t == ")" || t == "]" || t == "}") {
            if (--depth < 0) break;
        } else if (depth == 0 && t == "<") {
            ++angle;
        } else if (depth == 0 && t == ">" && angle > 0) {
            --angle;
        } else if (t == ";") {
            break; // a ';' inside brackets or template arguments: not a declaration we know
        }
    }
    src.fail(code[at], "expected ';' at the end of this __shared__ declaration");
}

// The declarator that ends just before `end` (a ',' or the ';'): NAME followed by [..] groups.
// Returns the index of NAME; errors are reported at code[at].
std::size_t parse_declarator(const SourceFile& src, Tokens code, std::size_t first, std::size_t end,
                             std::size_t at, SharedDeclarator& out) {
    std::size_t name = end;
    while (name > first && is(code, name - 1, "]")) {
        const std::size_t open = match_backward(code, name - 1);
        if (open == npos || open <= first) break;
        name = open;
    }
    out.dims = join(code, name, end);
    if (name == first || !is_identifier(code, name - 1)) {
        src.fail(code[at], "unsupported __shared__ declarator: the simt emulator takes "
                           "'__shared__ TYPE NAME[DIMS], NAME2[DIMS2];'");
    }
    --name;
    out.name = code[name].text;
    return name;
}

} // namespace

bool is_extern_shared(Tokens code, std::size_t at) {
    for (std::size_t j = walk_back_specifiers(code, at); j < at; ++j) {
        if (code[j].text == "extern") return true;
    }
    return false;
}

SharedDecl parse_shared_decl(const SourceFile& src, std::size_t at) {
    const Tokens code = src.code();
    SharedDecl decl;
    decl.first = find_declaration_start(src, code, at);
    std::vector<std::size_t> commas;
    decl.semi = find_declaration_end(src, code, at, commas);
    if (src.has_directive_in(code[decl.first].begin, code[decl.semi].begin)) {
        src.fail(code[at], "a preprocessor directive inside a __shared__ declaration is not "
                           "supported by the simt emulator");
    }

    // The first declarator ends at the first ',' (or the ';'); the tokens before its name are
    // the specifiers and the type, which every declarator shares. The others are NAME[DIMS].
    commas.push_back(decl.semi);
    decl.declarators.resize(commas.size());
    const std::size_t name =
        parse_declarator(src, code, decl.first, commas[0], at, decl.declarators[0]);
    for (std::size_t k = 1; k < commas.size(); ++k) {
        const std::size_t after = commas[k - 1] + 1;
        const std::size_t other =
            parse_declarator(src, code, after, commas[k], after, decl.declarators[k]);
        if (other != after) {
            src.fail(code[after],
                     "unsupported __shared__ declarator: after a ',' the simt emulator takes "
                     "only NAME[DIMS] (no '*', '&' or qualifiers)");
        }
    }

    // Sort the tokens before the name into attributes, dropped specifiers, alignment, type.
    decl.align = "0";
    const Token* prev_kept = nullptr;
    for (std::size_t j = decl.first; j < name; ++j) {
        const std::string_view t = code[j].text;
        if (is_align_keyword(t) && is(code, j + 1, "(")) {
            const std::size_t close = match_forward(code, j + 1);
            decl.align = join(code, j + 2, close);
            j = close;
        } else if (starts_attribute(code, j)) {
            const std::size_t close = match_forward(code, j);
            if (!decl.attributes.empty()) decl.attributes += ' ';
            decl.attributes += join(code, j, close + 1);
            j = close;
        } else if (code[j].kind == TokenKind::Identifier && is_dropped_specifier(t)) {
            decl.is_extern = decl.is_extern || t == "extern";
        } else {
            if (prev_kept && !touching(*prev_kept, code[j])) decl.spec += ' ';
            decl.spec += t;
            prev_kept = &code[j];
        }
    }
    if (decl.spec.empty()) {
        src.fail(code[name], "this __shared__ declaration has no type");
    }
    return decl;
}

} // namespace simt::rewrite
