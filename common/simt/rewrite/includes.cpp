// `#include "name"` and `#include <name>` lines whose header the caller has rewritten too: the
// header-name is replaced by the quoted path of the rewritten copy, so the compiler reads the copy
// (which starts with a #line naming the original, so diagnostics and reports still point at the
// student's header).
#include "passes.h"

namespace simt::rewrite {
namespace {

// A string for a quoted #include: characters that would end or escape it are refused upstream,
// so this only wraps the path.
std::string include_spelling(const std::string& path) {
    return '"' + path + '"';
}

} // namespace

void redirect_quoted_includes(const SourceFile& src, const IncludeRedirect& redirect,
                              EditList& edits) {
    if (!redirect) return;
    for (const Directive& d : src.lexed().directives) {
        const Tokens line = src.directive_tokens(d);
        // `#`, `include`, then a string or <header-name> token; `#include MACRO` is left alone.
        if (!is(line, 1, "include") || line.size() < 3) continue;
        const bool angled = line[2].kind == TokenKind::HeaderName;
        if (line[2].kind != TokenKind::String && !angled) continue;
        const std::string_view spelled = line[2].text;
        const char close = angled ? '>' : '"';
        if (spelled.size() < 2 || spelled.back() != close) continue;
        if (!angled && spelled.front() != '"') continue;
        const std::optional<std::string> copy =
            redirect(spelled.substr(1, spelled.size() - 2), angled,
                     src.lines().position(line[2].begin).line);
        if (!copy) continue;
        if (copy->find_first_of("\"\\\n") != std::string::npos) {
            src.fail(line[2], "cannot include the rewritten copy of this header: its path '" +
                                  *copy + "' holds a quote, backslash or line break");
        }
        edits.replace(src, line[2].begin, line[2].end(), include_spelling(*copy), true);
    }
}

} // namespace simt::rewrite
