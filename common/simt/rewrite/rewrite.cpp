#include "rewrite.h"

#include "edits.h"
#include "passes.h"
#include "scope.h"
#include "source_file.h"

namespace simt::rewrite {

RewriteError::RewriteError(int line, int col, std::string message)
    : std::runtime_error(message), line_(line), col_(col), message_(std::move(message)) {}

std::string format_error(const RewriteError& error, std::string_view file) {
    return std::string(file) + ":" + std::to_string(error.line()) + ":" +
           std::to_string(error.col()) + ": error: " + error.message();
}

namespace {

// A string literal for #line: backslashes (Windows paths) and quotes escaped.
std::string quoted(std::string_view s) {
    std::string out = "\"";
    for (char c : s) {
        if (c == '\\' || c == '"') out += '\\';
        out += c;
    }
    return out + '"';
}

} // namespace

std::string rewrite_source(std::string_view text, std::string_view display_name,
                           const IncludeRedirect& redirect) {
    // A UTF-8 byte order mark would land after our #line and be a stray character there.
    if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);

    const SourceFile src(text);
    const ScopeMap scopes(src.code());
    reject_in_macros(src);
    reject_unsupported_apis(src);
    EditList edits;
    rewrite_device_heap(src, edits);
    register_device_symbols(src, scopes, edits);
    rewrite_dynamic_shared(src, scopes, edits);
    rewrite_carved_shared(src, scopes, edits);
    rewrite_static_shared(src, scopes, edits);
    rewrite_launches(src, edits);
    rewrite_cuda_keywords(src, edits);
    strip_launch_api_casts(src, edits);
    register_void_casts(src, edits);
    insert_loop_ticks(src, edits);
    rewrite_inline_ptx(src, edits);
    redirect_quoted_includes(src, redirect, edits);
    read_cuda_arch_comparisons(src, edits);
    return "#line 1 " + quoted(display_name) + "\n" + edits.apply(src);
}

} // namespace simt::rewrite
