// Kernel launches. The kernel expression is found by scanning back from "<<<" over what a
// kernel name can be (identifiers, "::", "template", one template argument list, and "##" in
// macros); anything else, e.g. (*fp)<<<...>>>, is an error rather than a guess.
#include <algorithm>
#include <string>

#include "passes.h"

namespace simt::rewrite {
namespace {

bool is_triple(Tokens toks, std::size_t i, std::string_view c) {
    return is(toks, i, c) && is(toks, i + 1, c) && is(toks, i + 2, c) &&
           touching(toks[i], toks[i + 1]) && touching(toks[i + 1], toks[i + 2]);
}

// toks[close] is '>': the index of its '<', skipping nested <...> and bracketed groups.
std::size_t match_angle_backward(Tokens toks, std::size_t close) {
    int depth = 0;
    for (std::size_t j = close + 1; j-- > 0;) {
        const std::string_view t = toks[j].text;
        if (t == ")" || t == "]") {
            j = match_backward(toks, j);
            if (j == npos) return npos;
        } else if (t == ">") {
            ++depth;
        } else if (t == "<" && --depth == 0) {
            return j;
        } else if (t == ";" || t == "{" || t == "}") {
            return npos;
        }
    }
    return npos;
}

// `return ::k<<<...>>>()` must not pull `return` into the kernel name.
bool is_statement_keyword(const Token& t) {
    return t.text == "return" || t.text == "else" || t.text == "do" || t.text == "case";
}

// The first token of the kernel expression that ends just before toks[launch] ("<<<"), or
// npos. Never goes below `floor` (the start of a #define body).
std::size_t find_kernel_start(Tokens toks, std::size_t launch, std::size_t floor) {
    if (launch <= floor) return npos;
    std::size_t i = launch - 1;
    if (is(toks, i, ">")) {
        const std::size_t open = match_angle_backward(toks, i);
        if (open == npos || open <= floor) return npos;
        i = open - 1;
    }
    if (!is_identifier(toks, i)) return npos;
    // Extend over "a::b", "::template k", "prefix##name".
    while (i > floor) {
        const std::string_view before = toks[i - 1].text;
        if (before == "template" && i - 1 > floor && is(toks, i - 2, "::")) {
            i -= 1;
        } else if (before == "::") {
            i -= 1;
            if (i > floor && is_identifier(toks, i - 1) && !is_statement_keyword(toks[i - 1]))
                i -= 1;
        } else if (before == "##" && i - 1 > floor && is_identifier(toks, i - 2)) {
            i -= 2;
        } else {
            break;
        }
    }
    return i;
}

// The index of the first '>' of the ">>>" closing the configuration that starts at `first`,
// or npos. Stops at a ';' or '{' '}' outside brackets: the launch was never closed.
std::size_t find_config_end(Tokens toks, std::size_t first) {
    BracketDepth brackets;
    for (std::size_t j = first; j < toks.size(); ++j) {
        if (!brackets.count(toks[j].text)) return npos;
        if (!brackets.outside()) continue;
        if (toks[j].text == ";") return npos;
        if (is_triple(toks, j, ">")) return j;
    }
    return npos;
}

// The launch as the student wrote it, for messages: from the start of its statement (at most a
// few tokens back) to ">>>", or a few tokens past "<<<" when there is no ">>>".
std::string launch_excerpt(Tokens toks, std::size_t launch, std::size_t floor,
                           std::size_t config_end) {
    std::size_t first = launch;
    while (first > floor && launch - first < 8) {
        const std::string_view t = toks[first - 1].text;
        if (t == ";" || t == "{" || t == "}") break;
        --first;
    }
    std::size_t last = config_end == npos ? launch + 3 : config_end + 3;
    if (config_end == npos) {
        while (last < toks.size() && last < launch + 11 && toks[last].text != ";") ++last;
    }
    std::string text = join(toks, first, std::min(last, toks.size()));
    if (text.size() > 60) text = text.substr(0, 57) + "...";
    return text;
}

void rewrite_launches_in(const SourceFile& src, Tokens toks, std::size_t floor, bool in_directive,
                         EditList& edits) {
    for (std::size_t i = floor; i + 2 < toks.size(); ++i) {
        if (!is_triple(toks, i, "<")) continue;
        if (i > 0 && is(toks, i - 1, "operator")) { // operator<< <T>, not a launch
            i += 2;
            continue;
        }
        const std::size_t config_end = find_config_end(toks, i + 3);
        if (config_end == npos) {
            src.fail(toks[i], "kernel launch '" + launch_excerpt(toks, i, floor, npos) +
                                  "' has no matching '>>>'");
        }
        if (config_end == i + 3) {
            src.fail(toks[i], "kernel launch '" + launch_excerpt(toks, i, floor, config_end) +
                                  "' has an empty configuration; give at least <<<grid, block>>>");
        }
        const std::size_t start = find_kernel_start(toks, i, floor);
        if (start == npos) {
            src.fail(toks[i], "cannot find the kernel in launch '" +
                                  launch_excerpt(toks, i, floor, config_end) +
                                  "': the simt emulator needs a kernel name before '<<<', "
                                  "e.g. kernel<<<...>>> or ns::kernel<T><<<...>>>");
        }
        const std::size_t begin = toks[start].begin;
        const std::size_t end = toks[config_end + 2].end();
        if (!in_directive && src.has_directive_in(begin, end)) {
            src.fail(toks[i], "a preprocessor directive inside a kernel launch is not supported "
                              "by the simt emulator");
        }
        // The kernel may be a template whose arguments (all, or the last ones) are left to
        // deduction from the launch arguments, as in a call: `scan<<<g, b>>>(data, n)` with
        // `template <class T> __global__ void scan(T*, int)`. A template name cannot be passed
        // to a function, so the kernel goes in a generic lambda that picks the function once the
        // argument types are known (simt/launch.h); a plain function is picked as it is. The
        // capture default lets the name be a local function pointer.
        const std::string kernel = join(toks, start, i);
        const std::string config = join(toks, i + 3, config_end);
        // The second lambda calls the kernel by name, for a launch that leaves parameters to
        // their default arguments (a function pointer has none).
        std::string text = "::simt::launch_template([&](auto simt_pick) -> decltype(simt_pick(" +
                           kernel + ")) { return simt_pick(" + kernel +
                           "); }, [&](auto&... simt_a) -> decltype(" + kernel + "(simt_a...)) { " +
                           kernel + "(simt_a...); }, " + config + ")";
        edits.replace(src, begin, end, std::move(text), in_directive);
        i = config_end + 2;
    }
}

} // namespace

void rewrite_launches(const SourceFile& src, EditList& edits) {
    rewrite_launches_in(src, src.code(), 0, false, edits);
    for (const Directive& d : src.lexed().directives) {
        const Tokens line = src.directive_tokens(d);
        // Only a #define body can hold a launch; the floor keeps the macro name out of it.
        const std::size_t floor = d.is_define ? d.body - d.first : line.size();
        rewrite_launches_in(src, line, floor, true, edits);
    }
}

} // namespace simt::rewrite
