// Dynamic shared memory (the launch's smem bytes), `extern __shared__ float buf[];`, becomes
//   at file/namespace scope:
//     [[maybe_unused]] static constexpr ::simt::DynamicShared<float> buf{};
//     an empty constexpr handle whose operator[] and float* conversion find the running
//     block's buffer whenever they are used;
//   inside a function:
//     [[maybe_unused]] float* const buf = ::simt::DynamicShared<float>{};
//     a real pointer, taken when the function runs (so for the running block), because the
//     common `reinterpret_cast<T*>(buf)` cannot convert a class object.
// A file-scope array used inside functions gets the in-function form as well, at the top of each
// function body that names it, so that casts of it work there too:
//     __global__ void k() { [[maybe_unused]] float* const buf = ::simt::DynamicShared<float>{};
// (not where a parameter of that name hides it; a use that is in no function body, such as a
// default member initializer, keeps the handle).
#include <string>

#include "passes.h"
#include "shared_decl.h"

namespace simt::rewrite {

void rewrite_dynamic_shared(const SourceFile& src, const ScopeMap& scopes, EditList& edits) {
    const Tokens code = src.code();
    for (std::size_t i = 0; i < code.size(); ++i) {
        if (code[i].kind != TokenKind::Identifier || code[i].text != "__shared__") continue;
        if (!is_extern_shared(code, i)) continue; // the static pass's
        const SharedDecl d = parse_shared_decl(src, i);
        const std::string handle = "::simt::DynamicShared<" + d.spec + ">";
        std::string text;
        const bool file_scope = scopes.at_file_scope(i);
        for (const SharedDeclarator& v : d.declarators) {
            if (v.dims != "[]") {
                src.fail(code[i], "extern __shared__ must be an array of unknown size, e.g. "
                                  "'extern __shared__ float buffer[];'");
            }
            if (!text.empty()) text += ' ';
            text +=
                file_scope
                    ? "[[maybe_unused]] static constexpr " + handle + " " + v.name + "{};"
                    : "[[maybe_unused]] " + d.spec + "* const " + v.name + " = " + handle + "{};";
            if (file_scope)
                declare_in_functions(src, scopes, d.semi, v.name,
                                     "[[maybe_unused]] " + d.spec + "* const " + v.name + " = " +
                                         handle + "{};",
                                     edits);
        }
        edits.replace(src, code[d.first].begin, code[d.semi].end(), std::move(text), false);
        i = d.semi;
    }
}

} // namespace simt::rewrite
