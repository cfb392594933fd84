// Arrays carved out of the dynamic shared memory:
//   extern __shared__ float smem[];
//   float* a = smem;              ->  float* a = ::simt::carve(smem, "a");
//   float* b = smem + n;          ->  float* b = ::simt::carve(smem + n, "b");
//   a[i] = ...;                   ->  a[::simt::carved_index(a, (i), "a")] = ...;
// so that the runtime knows where each carved array starts and can tell `a[n]` (which a GPU
// silently takes from b[0]) for what it is. A declaration counts as a carve only when its
// initializer is the same for every thread: made of the extern array, pointers carved before,
// the function's parameters, literals, casts, sizeof, blockDim and gridDim, and ALL_CAPS names
// (template parameters and macros). `int* mine = smem + threadIdx.x;` is not a carve. The
// runtime also counts a start only when every lane of a warp carved the same one
// (Engine::carve). Subscripts are wrapped from the declaration to the end of its block, except
// under `&` (an address, not an access).
#include <set>
#include <string>
#include <vector>

#include "passes.h"
#include "shared_decl.h"

namespace simt::rewrite {
namespace {

const std::set<std::string_view> kTypeWords = {"const",
                                               "volatile",
                                               "unsigned",
                                               "signed",
                                               "char",
                                               "short",
                                               "int",
                                               "long",
                                               "float",
                                               "double",
                                               "bool",
                                               "void",
                                               "auto",
                                               "size_t",
                                               "int8_t",
                                               "int16_t",
                                               "int32_t",
                                               "int64_t",
                                               "uint8_t",
                                               "uint16_t",
                                               "uint32_t",
                                               "uint64_t",
                                               "float2",
                                               "float4",
                                               "int2",
                                               "int4",
                                               "uint2",
                                               "uint4",
                                               "double2",
                                               "std",
                                               "sizeof",
                                               "alignof",
                                               "reinterpret_cast",
                                               "static_cast",
                                               "const_cast",
                                               "blockDim",
                                               "gridDim",
                                               "x",
                                               "y",
                                               "z"};
// Words that can stand before `*` without making a declaration (`return *p = 1;`).
const std::set<std::string_view> kNotTypes = {"return", "else", "do",     "case",
                                              "throw",  "goto", "delete", "co_return"};

bool all_caps(std::string_view word) {
    bool letter = false;
    for (const char c : word) {
        if (c >= 'a' && c <= 'z') return false;
        letter = letter || (c >= 'A' && c <= 'Z');
    }
    return letter;
}

// The '{' of the innermost block around code[i], and of the function body around it (the
// outermost brace that does not open at file scope).
struct Enclosing {
    std::size_t block = npos;
    std::size_t function = npos;
};
Enclosing enclosing(Tokens code, const ScopeMap& scopes, std::size_t i) {
    Enclosing e;
    std::size_t depth = 0;
    for (std::size_t k = i; k-- > 0;) {
        if (code[k].text == "}") {
            ++depth;
        } else if (code[k].text == "{") {
            if (depth > 0) {
                --depth;
                continue;
            }
            if (e.block == npos) e.block = k;
            e.function = k;
            if (scopes.at_file_scope(k)) break;
        }
    }
    return e;
}

// The names of the parameters of the function whose body opens at code[body].
std::set<std::string_view> parameters(Tokens code, std::size_t body) {
    std::set<std::string_view> names;
    std::size_t close = body;
    while (close > 0 && (is(code, close - 1, "const") || is(code, close - 1, "noexcept") ||
                         is(code, close - 1, "mutable")))
        --close;
    if (close == 0 || !is(code, close - 1, ")")) return names;
    const std::size_t open = match_backward(code, close - 1);
    if (open == npos) return names;
    for (std::size_t k = open + 1; k + 1 < close; ++k) {
        if (!is_identifier(code, k)) continue;
        const std::string_view next = code[k + 1].text;
        if (next == "," || next == ")" || next == "=" || next == "[") names.insert(code[k].text);
    }
    return names;
}

// code[name] is an identifier followed by '=': is it the declarator of a pointer variable?
// `previous_comma_ok`: a ',' before it continues a declaration already taken.
bool declares_pointer(Tokens code, std::size_t name, bool previous_comma_ok) {
    std::size_t k = name;
    while (k > 0 && (is(code, k - 1, "const") || is(code, k - 1, "volatile") ||
                     is(code, k - 1, "__restrict__") || is(code, k - 1, "__restrict")))
        --k;
    if (k < 2 || !is(code, k - 1, "*")) return false;
    std::size_t before = k - 2;
    while (before > 0 && is(code, before, "*")) --before; // T** p
    const Token& t = code[before];
    if (t.text == ",") return previous_comma_ok;
    if (t.text == ">") return true;
    return t.kind == TokenKind::Identifier && !kNotTypes.contains(t.text);
}

// One past the initializer that starts at code[first]: the ',' or ';' that ends it outside
// every bracket, or npos. Each opener waits for its own closer: a '<' counts only where a cast
// opens one (`static_cast<`), so a comparison such as `(n > 4 ? a : b)` closes nothing, and a
// ')' also closes a cast's '<' left open inside it.
std::size_t initializer_end(Tokens code, std::size_t first) {
    std::vector<char> open;
    for (std::size_t k = first; k < code.size(); ++k) {
        const std::string_view t = code[k].text;
        if (t == "(" || t == "[" || t == "{") {
            open.push_back(t[0]);
        } else if (t == ")" || t == "]" || t == "}") {
            while (!open.empty() && open.back() == '<') open.pop_back();
            const char opener = t == ")" ? '(' : t == "]" ? '[' : '{';
            if (open.empty() || open.back() != opener) return npos;
            open.pop_back();
        } else if (t == "<" && k > 0 && code[k - 1].text.ends_with("_cast")) {
            open.push_back('<');
        } else if (t == ">" && !open.empty() && open.back() == '<') {
            open.pop_back();
        } else if (open.empty() && (t == "," || t == ";")) {
            return k;
        }
    }
    return npos;
}

struct Carve {
    std::string_view name;
    std::size_t first, end; // the initializer: [first, end)
    std::size_t block_end;  // the '}' closing the declaration's block
};

} // namespace

void rewrite_carved_shared(const SourceFile& src, const ScopeMap& scopes, EditList& edits) {
    const Tokens code = src.code();
    std::set<std::string> extern_arrays;
    for (std::size_t i = 0; i < code.size(); ++i) {
        if (code[i].kind != TokenKind::Identifier || code[i].text != "__shared__") continue;
        if (!is_extern_shared(code, i)) continue;
        for (const SharedDeclarator& v : parse_shared_decl(src, i).declarators)
            extern_arrays.insert(v.name);
    }
    if (extern_arrays.empty()) return;
    // What a carve's initializer may start from: the extern arrays, then the carved pointers
    // (views of the code's tokens: equal text compares equal).
    std::set<std::string_view> sources;
    for (const Token& t : code)
        if (t.kind == TokenKind::Identifier && extern_arrays.contains(std::string(t.text)))
            sources.insert(t.text);

    std::vector<Carve> carves;
    std::size_t last_end = npos; // the ',' that ended the last carve's initializer
    for (std::size_t j = 1; j + 2 < code.size(); ++j) {
        if (!is_identifier(code, j) || !is(code, j + 1, "=") || scopes.at_file_scope(j)) continue;
        if (!declares_pointer(
                code, j, last_end != npos && j >= 2 && is(code, j - 2, ",") && j - 2 == last_end))
            continue;
        const std::size_t first = j + 2, end = initializer_end(code, first);
        if (end == npos || end == first) continue;
        const Enclosing around = enclosing(code, scopes, j);
        if (around.block == npos) continue;
        const std::set<std::string_view> params = parameters(code, around.function);
        bool uses_source = false, uniform = true;
        for (std::size_t k = first; k < end && uniform; ++k) {
            if (code[k].kind != TokenKind::Identifier) continue;
            const std::string_view w = code[k].text;
            const bool member = k > first && (is(code, k - 1, ".") || is(code, k - 1, "->"));
            if (sources.contains(w) && !member) {
                uses_source = true;
            } else if (kTypeWords.contains(w) || params.contains(w) || all_caps(w)) {
                // the same in every thread
            } else if (k + 2 < end && is(code, k + 1, "*") &&
                       (is(code, k + 2, ")") || is(code, k + 2, ">") || is(code, k + 2, "*"))) {
                // a type in a cast: (T*), reinterpret_cast<T*>
            } else {
                uniform = false;
            }
        }
        if (!uses_source || !uniform) continue;
        const std::size_t block_end = match_forward(code, around.block);
        if (block_end == npos) continue;
        carves.push_back({code[j].text, first, end, block_end});
        sources.insert(code[j].text);
        last_end = is(code, end, ",") ? end : npos;
    }

    for (const Carve& c : carves) {
        const std::string name(c.name);
        edits.insert(code[c.first].begin, "::simt::carve(");
        edits.insert(code[c.end - 1].end(), ", \"" + name + "\")");
        for (std::size_t k = c.end; k < c.block_end; ++k) {
            if (code[k].text != c.name || !is(code, k + 1, "[")) continue;
            if (is(code, k - 1, ".") || is(code, k - 1, "->") || is(code, k - 1, "::") ||
                is(code, k - 1, "&"))
                continue;
            const std::size_t close = match_forward(code, k + 1);
            if (close == npos || close == k + 2) continue;
            edits.insert(code[k + 1].end(), "::simt::carved_index(" + name + ", (");
            edits.insert(code[close].begin, "), \"" + name + "\")");
        }
    }
}

} // namespace simt::rewrite
