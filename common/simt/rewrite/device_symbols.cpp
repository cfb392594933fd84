// File-scope __device__ / __constant__ variables keep their text (the compat headers make the
// keywords harmless) and gain, after their ';' on the same line, a registration object:
//   __constant__ float coeff[16]; static const ::simt::SymbolRegistration simt_symbol_coeff_3{
//       &coeff, sizeof(coeff), "coeff", __FILE__, __LINE__};
// so that the runtime knows their address and size: cudaMemcpyToSymbol and friends can check
// them and accesses to them count as device memory.
#include <string>
#include <vector>

#include "passes.h"

namespace simt::rewrite {
namespace {

bool is_memory_space(std::string_view t) {
    return t == "__device__" || t == "__constant__";
}

// Keywords whose parenthesised argument is part of a declaration, not a parameter list.
bool takes_group(std::string_view t) {
    return t == "__align__" || t == "alignas" || t == "__attribute__" || t == "decltype" ||
           t == "__declspec";
}

// The start of the declaration holding code[at]: just after the previous ';', '{' or '}'.
std::size_t declaration_start(Tokens code, std::size_t at) {
    std::size_t i = at;
    while (i > 0 && code[i - 1].text != ";" && code[i - 1].text != "{" && code[i - 1].text != "}") {
        --i;
    }
    return i;
}

struct Declarator {
    std::size_t first; // first token of the (possibly qualified) name
    std::size_t last;  // the name's last identifier
};

// From code[from], the token that ends the declarator-id: the first '(' ';' '=' '{' '[' outside
// brackets and template arguments. npos for what is no variable we can register.
std::size_t find_declarator_end(Tokens code, std::size_t from) {
    int angle = 0;
    for (std::size_t j = from; j < code.size(); ++j) {
        const std::string_view t = code[j].text;
        if (takes_group(t) && is(code, j + 1, "(")) {
            j = match_forward(code, j + 1);
            if (j == npos) return npos;
        } else if (t == "[" && is(code, j + 1, "[") && touching(code[j], code[j + 1])) {
            j = match_forward(code, j); // [[attribute]]
            if (j == npos) return npos;
        } else if (t == "operator" || t == "__shared__" || t == "}") {
            return npos; // an operator function; a shared variable (not ours); broken input
        } else if (t == "<") {
            ++angle;
        } else if (t == ">" && angle > 0) {
            --angle;
        } else if (angle > 0 && t == "(") {
            j = match_forward(code, j); // Foo<(a > b)>
            if (j == npos) return npos;
        } else if (angle == 0 && (t == "(" || t == ";" || t == "=" || t == "{" || t == "[")) {
            return j;
        }
    }
    return npos;
}

// The qualified name ending just before code[end]: a::b::name.
Declarator name_before(Tokens code, std::size_t end) {
    if (end == 0 || !is_identifier(code, end - 1)) return {npos, npos};
    std::size_t first = end - 1;
    while (first >= 2 && is(code, first - 1, "::") && is_identifier(code, first - 2)) first -= 2;
    return {first, end - 1};
}

// A later declarator of `int a = 1, *b, c[4];`, starting after the comma: its name or npos.
Declarator next_declarator(Tokens code, std::size_t from) {
    std::size_t j = from;
    while (is(code, j, "*") || is(code, j, "&") || is(code, j, "const") ||
           is(code, j, "volatile")) {
        ++j;
    }
    std::size_t k = j;
    while (is_identifier(code, k) && is(code, k + 1, "::")) k += 2;
    if (!is_identifier(code, k)) return {npos, npos};
    const std::string_view next = k + 1 < code.size() ? code[k + 1].text : "";
    if (next != "[" && next != "=" && next != "{" && next != "," && next != ";")
        return {npos, npos};
    return {j, k};
}

std::string registration(const SourceFile& src, Tokens code, Declarator d) {
    const std::string qualified = join(code, d.first, d.last + 1);
    std::string ident;
    for (char c : qualified) {
        if (c != ' ') ident += c == ':' ? '_' : c;
    }
    const int line = src.lines().position(code[d.last].begin).line;
    return " static const ::simt::SymbolRegistration simt_symbol_" + ident + "_" +
           std::to_string(line) + "{&" + qualified + ", sizeof(" + qualified + "), \"" + qualified +
           "\", __FILE__, __LINE__};";
}

} // namespace

void register_device_symbols(const SourceFile& src, const ScopeMap& scopes, EditList& edits) {
    const Tokens code = src.code();
    std::size_t done_until = 0; // a declaration with both __device__ and __constant__ counts once
    for (std::size_t i = 0; i < code.size(); ++i) {
        const std::string_view t = code[i].text;
        if (code[i].kind != TokenKind::Identifier) continue;
        if (t == "__managed__") {
            src.fail(code[i], "__managed__ variables are not supported by the simt emulator");
        }
        if (!is_memory_space(t) || i < done_until || !scopes.at_file_scope(i)) continue;

        const std::size_t start = declaration_start(code, i);
        bool skip = false; // declarations only, templates and aliases: nothing to register
        for (std::size_t j = start; j < i; ++j) {
            const std::string_view s = code[j].text;
            skip = skip || s == "extern" || s == "template" || s == "typedef" || s == "using" ||
                   s == "friend";
        }
        const std::size_t end = find_declarator_end(code, i + 1);
        if (skip || end == npos || code[end].text == "(") continue;
        Declarator first = name_before(code, end);
        if (first.first == npos) continue;
        if (code[end].text == "{") { // `struct S {...} x;` defines a type first: leave it
            bool defines_type = false;
            for (std::size_t j = i; j < end; ++j) {
                const std::string_view s = code[j].text;
                defines_type =
                    defines_type || s == "struct" || s == "class" || s == "union" || s == "enum";
            }
            if (defines_type) continue;
        }

        // Walk to the ';', collecting the declarators after each top-level comma.
        std::vector<Declarator> names{first};
        std::size_t semi = npos;
        BracketDepth brackets;
        for (std::size_t j = end; j < code.size(); ++j) {
            const std::string_view s = code[j].text;
            if (!brackets.count(s)) break;
            if (brackets.outside() && s == ";") {
                semi = j;
                break;
            }
            if (brackets.outside() && s == ",") {
                const Declarator next = next_declarator(code, j + 1);
                if (next.first != npos) names.push_back(next);
            }
        }
        if (semi == npos) continue;
        std::string text;
        for (const Declarator& d : names) text += registration(src, code, d);
        edits.insert(code[semi].end(), std::move(text));
        done_until = semi + 1;
    }
}

} // namespace simt::rewrite
