// Loop heads. Every loop condition in the .cu file gets a call to ::simt::detail::loop_tick(E)
// (simt/device.h) in front of it, on the same line:
//   while (cond)             ->  while (::simt::detail::loop_tick(E) && (cond))
//   do ... while (cond);     ->  do ... while (::simt::detail::loop_tick(E) && (cond));
//   for (init; cond; inc)    ->  for (init; ::simt::detail::loop_tick(E) && (cond); inc)
//   for (init; ; inc)        ->  for (init; ; ::simt::detail::loop_tick(E), inc)
//   while (true) {           ->  while (true) {::simt::detail::loop_tick(E);
// where E, `__LINE__ + lines, column * 8 + k`, says where the loop's body ends (for do-while: the
// condition's ';'): the lockstep scheduler places the condition there, after the body, where a
// compiled loop tests it (common/simt/src/code_order.h). __LINE__ plus a distance keeps the
// line right under the file's own #line directives.
//     (an endless loop stays visibly endless to the compiler: a function that ends in `for (;;)`
//     with returns inside needs no return after it)
// It is a compiler barrier, so a loop that polls a plain (non-volatile) load reloads it
// every iteration and the emulator sees the spin (and can report it); nvcc may keep such a value
// in a register. loop_tick() is constexpr and does nothing in a constant expression, so a
// constexpr function with a loop still evaluates at compile time.
// The name resolves in every rewritten file, whatever it includes: the compile flags force
// `-include cuda_runtime.h`, which includes simt/device.h (docs/simtcc.md, The compile flags).
// Left alone:
//   - range-based for (the header has no two top-level ';': `for (x : v)`, `for (init; x : v)`);
//   - a condition that declares a variable (`while (T x = f())`): nothing can go in front of it;
//   - a header with a preprocessor directive inside: the inserted parentheses could land in
//     different branches of an #if;
//   - a for right after `#pragma omp ...` or `#pragma acc ...`, and the loops perfectly nested in
//     it (collapse(n)): OpenMP wants `i < n` as the condition (host code built with -fopenmp);
//   - #define bodies (only code tokens are scanned; a macro's loops are the user's to see), and
//     comments, literals and #if 0 blocks (which hold no code tokens).
#include <algorithm>
#include <iterator>
#include <string>
#include <string_view>

#include "passes.h"

namespace simt::rewrite {
namespace {

constexpr std::string_view kTick = "::simt::detail::loop_tick(";

// The statement starting at code[i]: the index of its last token (the ';' or '}'), or npos.
std::size_t statement_end(Tokens code, std::size_t i) {
    if (i >= code.size()) return npos;
    const std::string_view t = code[i].text;
    if (t == "{") return match_forward(code, i);
    if (t == "if") {
        std::size_t open = i + 1;
        if (is(code, open, "constexpr") || is(code, open, "!")) ++open;
        if (is(code, open, "consteval")) return statement_end(code, open + 1);
        if (!is(code, open, "(")) return npos;
        const std::size_t close = match_forward(code, open);
        if (close == npos) return npos;
        const std::size_t then_end = statement_end(code, close + 1);
        if (then_end == npos || !is(code, then_end + 1, "else")) return then_end;
        return statement_end(code, then_end + 2);
    }
    if (t == "for" || t == "while" || t == "switch") {
        if (!is(code, i + 1, "(")) return npos;
        const std::size_t close = match_forward(code, i + 1);
        return close == npos ? npos : statement_end(code, close + 1);
    }
    if (t == "do") {
        const std::size_t body_end = statement_end(code, i + 1);
        if (body_end == npos || !is(code, body_end + 1, "while") || !is(code, body_end + 2, "("))
            return npos;
        const std::size_t close = match_forward(code, body_end + 2);
        return close != npos && is(code, close + 1, ";") ? close + 1 : npos;
    }
    if ((t == "case" || t == "default" || code[i].kind == TokenKind::Identifier) && t != "return") {
        // A label: `name:` or `case x:` / `default:` labels the statement after it.
        std::size_t colon = i + 1;
        if (t == "case")
            while (colon < code.size() && !is(code, colon, ":") && !is(code, colon, ";")) ++colon;
        if (is(code, colon, ":") && !is(code, colon + 1, ":") &&
            (colon == 0 || !is(code, colon - 1, ":")))
            return statement_end(code, colon + 1);
    }
    // An expression or declaration: up to its ';' (brackets, lambdas and braced
    // initializers skipped whole).
    for (std::size_t j = i; j < code.size(); ++j) {
        const std::string_view u = code[j].text;
        if (u == "(" || u == "[" || u == "{") {
            j = match_forward(code, j);
            if (j == npos) return npos;
        } else if (u == ";") {
            return j;
        } else if (u == "}" || u == ")" || u == "]") {
            return npos;
        }
    }
    return npos;
}

// How many loops inside code(from, end) end with code[end] too (`for (..) for (..) x;`): the
// outer loop's test comes after the inner one's, though both loops end at one token.
int loops_ending_inside(Tokens code, std::size_t from, std::size_t end) {
    int count = 0;
    for (std::size_t j = from + 1; j < end; ++j) {
        const std::string_view t = code[j].text;
        if ((t == "for" || t == "while") && is(code, j + 1, "(") && statement_end(code, j) == end)
            ++count;
    }
    return count;
}

// The call for the loop starting at code[loop], whose condition starts at code[at] and whose
// body (or, for do-while, condition) ends with code[end]:
// `::simt::detail::loop_tick(__LINE__ + 2, 41)`, the second number the column times 8 plus
// the loops inside that end at the same token.
std::string tick_call(const SourceFile& src, Tokens code, std::size_t loop, std::size_t at,
                      std::size_t end) {
    if (end == npos) return std::string(kTick) + ")"; // not found: ordered as a plain position
    const SourcePosition from = src.lines().position(code[at].begin);
    const SourcePosition to = src.lines().position(code[end].begin);
    const int order = to.col * 8 + std::min(7, loops_ending_inside(code, loop, end));
    return std::string(kTick) + "__LINE__ + " + std::to_string(to.line - from.line) + ", " +
           std::to_string(order) + ")";
}

// Characters that, right before a '=', make it part of another operator (==, <=, +=, ...).
bool joins_equals(std::string_view t) {
    return t.size() == 1 && std::string_view("=!<>+-*/%&|^").find(t[0]) != std::string_view::npos;
}

// code[j] is '=': a lone assignment (or initializer) sign, not part of ==, !=, <=, <=>, +=, ...
bool is_lone_equals(Tokens code, std::size_t j) {
    if (j > 0 && joins_equals(code[j - 1].text) && touching(code[j - 1], code[j])) return false;
    if (is(code, j + 1, "=") && touching(code[j], code[j + 1])) return false;
    return true;
}

bool is_ptr_operator(std::string_view t) {
    return t == "*" || t == "&" || t == "const" || t == "volatile" || t == "__restrict__" ||
           t == "__restrict";
}

bool is_typeof(std::string_view t) {
    return t == "decltype" || t == "__typeof__" || t == "__typeof" || t == "typeof";
}

// Does the declarator name code[name] (>= first) follow a type, as in `T x`, `A<B> x`,
// `T* const x`, `decltype(e) x`? With `ptr_ops`, '*', '&' and cv-qualifiers may come between.
// A chain that reaches the start of the condition (`*p = v`) is an expression.
bool follows_type(Tokens code, std::size_t first, std::size_t name, bool ptr_ops) {
    std::size_t k = name;
    while (ptr_ops && k > first && is_ptr_operator(code[k - 1].text)) --k;
    if (k == first) return false;
    const Token& before = code[k - 1];
    if (before.kind == TokenKind::Identifier) return true;
    if (before.text == ">") return k - 1 == first || !is(code, k - 2, "-"); // not `p->x = v`
    if (before.text == ")") {
        const std::size_t open = match_backward(code, k - 1);
        return open != npos && open > first && is_typeof(code[open - 1].text);
    }
    return false;
}

// code[close] is ']': is it `auto [a, b]` / `const auto& [a, b]`, a structured binding (and
// not a lambda's captures, `ok && [&] {...}()`)?
bool is_binding_list(Tokens code, std::size_t first, std::size_t close) {
    std::size_t k = match_backward(code, close);
    if (k == npos) return false;
    while (k > first && is(code, k - 1, "&")) --k;
    return k > first && is(code, k - 1, "auto");
}

// Is the condition [first, last) a declaration, `T x = e`, `T x{e}` or `auto [a, b] = e`?
// The first top-level '=' or '{' decides. For '=' the reading is generous (`a * b = c` is a
// declaration; as an expression it would assign to a temporary); for '{' it is strict, since
// `a && T{b}` is a valid expression. A misread declaration is left alone, not broken.
bool is_declaration(Tokens code, std::size_t first, std::size_t last) {
    for (std::size_t j = first; j < last; ++j) {
        const std::string_view t = code[j].text;
        const bool brace = t == "{";
        if (t == "(" || t == "[") {
            j = match_forward(code, j);
            if (j == npos || j >= last) return false;
            continue;
        }
        if (!brace && !(t == "=" && is_lone_equals(code, j))) continue;
        if (j == first) return false;
        const std::size_t name = j - 1;
        if (is(code, name, "]")) return is_binding_list(code, first, name);
        return is_identifier(code, name) && follows_type(code, first, name, !brace);
    }
    return false;
}

// The condition of the loop at code[loop] is code[first, last); code[last] is the ')' or ';'
// that ends it; the loop ends with code[end].
void tick(const SourceFile& src, Tokens code, std::size_t loop, std::size_t first, std::size_t last,
          std::size_t end, EditList& edits) {
    if (src.has_directive_in(code[first - 1].begin, code[last].end())) return;
    if (first == last) {
        // for (init; ; inc): the tick goes before the increment, so that the condition stays
        // empty and the compiler still sees an endless loop (no "control reaches end" after it).
        edits.insert(code[last].end(),
                     tick_call(src, code, loop, last, end) + (is(code, last + 1, ")") ? "" : ","));
        return;
    }
    if (is_declaration(code, first, last)) return;
    edits.insert(code[first].begin, tick_call(src, code, loop, first, end) + " && (");
    edits.insert(code[last - 1].end(), ")");
}

// The two top-level ';' of the for header code[open, close], or false when there are not
// exactly two (a range-based for).
bool for_semicolons(Tokens code, std::size_t open, std::size_t close, std::size_t& first_semi,
                    std::size_t& second_semi) {
    int count = 0;
    for (std::size_t j = open + 1; j < close; ++j) {
        const std::string_view t = code[j].text;
        if (t == "(" || t == "[" || t == "{") {
            j = match_forward(code, j);
            if (j == npos || j >= close) return false;
        } else if (t == ";") {
            (count == 0 ? first_semi : second_semi) = j;
            if (++count > 2) return false;
        }
    }
    return count == 2;
}

// Is the line right before code[i] (no code between) `#pragma omp ...` or `#pragma acc ...`?
bool after_loop_pragma(const SourceFile& src, Tokens code, std::size_t i) {
    const auto& dirs = src.lexed().directives;
    const auto& toks = src.lexed().directive_tokens;
    auto it = std::lower_bound(
        dirs.begin(), dirs.end(), code[i].begin,
        [&](const Directive& d, std::size_t at) { return toks[d.first].begin < at; });
    if (it == dirs.begin()) return false;
    const Tokens line = src.directive_tokens(*std::prev(it));
    if (i > 0 && code[i - 1].begin > line[0].begin) return false;
    return is(line, 1, "pragma") && (is(line, 2, "omp") || is(line, 2, "acc"));
}

} // namespace

void insert_loop_ticks(const SourceFile& src, EditList& edits) {
    const Tokens code = src.code();
    std::size_t nested_in_pragma = npos; // a for perfectly nested in an OpenMP loop
    for (std::size_t i = 0; i + 1 < code.size(); ++i) {
        const std::string_view t = code[i].text;
        if (code[i].kind != TokenKind::Identifier || (t != "while" && t != "for")) continue;
        if (!is(code, i + 1, "(")) continue;
        const std::size_t close = match_forward(code, i + 1);
        if (close == npos) continue;
        if (t == "while") {
            // `while (true) {` keeps its constant condition (an endless loop to the compiler);
            // the tick opens the body instead.
            const bool endless =
                close == i + 3 && (is(code, i + 2, "true") || is(code, i + 2, "1"));
            // The body's end; a do-while's `while (...)` (or an empty body) ends at its ';'.
            const std::size_t end = statement_end(code, close + 1);
            if (endless && is(code, close + 1, "{") &&
                !src.has_directive_in(code[i].begin, code[close + 1].end()))
                edits.insert(code[close + 1].end(), tick_call(src, code, i, close + 1, end) + ";");
            else if (close > i + 2)
                tick(src, code, i, i + 2, close, end, edits);
            continue;
        }
        if (i == nested_in_pragma || after_loop_pragma(src, code, i)) {
            const std::size_t next = is(code, close + 1, "{") ? close + 2 : close + 1;
            if (is(code, next, "for")) nested_in_pragma = next;
            continue;
        }
        std::size_t first_semi = 0;
        std::size_t second_semi = 0;
        if (for_semicolons(code, i + 1, close, first_semi, second_semi)) {
            tick(src, code, i, first_semi + 1, second_semi, statement_end(code, close + 1), edits);
        }
    }
}

} // namespace simt::rewrite
