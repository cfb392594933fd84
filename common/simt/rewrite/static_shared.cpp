// Static __shared__ variables become references into the runtime's per-block arena:
//   __shared__ float a[4][33];
//   auto& a = ::simt::shared_variable<float[4][33]>(::simt::SharedSite{...});
// (a scalar becomes `T& x = ...`; `__shared__ int a, b[4];` becomes two such declarations)
// so every later use of `a` in the kernel compiles unchanged and all threads of a block see
// the same storage. The site (name, file, line) lets the runtime name it in reports. A
// file-scope declaration becomes such a reference at the top of each function body that uses
// it, all with the declaration's site, so they share one variable per block.
#include "passes.h"
#include "shared_decl.h"

namespace simt::rewrite {
void rewrite_static_shared(const SourceFile& src, const ScopeMap& scopes, EditList& edits) {
    const Tokens code = src.code();
    for (std::size_t i = 0; i < code.size(); ++i) {
        if (code[i].kind != TokenKind::Identifier || code[i].text != "__shared__") continue;
        if (is_extern_shared(code, i)) continue; // the dynamic pass's
        const SharedDecl d = parse_shared_decl(src, i);
        if (scopes.at_file_scope(i)) {
            // Not a variable here but in each function that uses it, bound to the block's
            // storage for this declaration (its line, not the function's, names the site).
            const int line = src.lines().position(code[i].begin).line;
            for (const SharedDeclarator& v : d.declarators) {
                std::string decl = d.attributes.empty() ? "" : d.attributes + ' ';
                decl += (v.dims.empty() ? d.spec : std::string("auto")) + "& " + v.name +
                        " = ::simt::shared_variable<" + d.spec + v.dims +
                        ">(::simt::SharedSite{\"" + v.name + "\", __FILE__, " +
                        std::to_string(line) + ", " + d.align + "});";
                declare_in_functions(src, scopes, d.semi, v.name, decl, edits);
            }
            edits.replace(src, code[d.first].begin, code[d.semi].end(), "", false);
            i = d.semi;
            continue;
        }
        // One declaration per variable, all on the statement's line.
        std::string text;
        for (const SharedDeclarator& v : d.declarators) {
            if (!text.empty()) text += ' ';
            if (!d.attributes.empty()) text += d.attributes + ' ';
            // An array is `auto& x`: clang reads `T (&x)[n<T>()]` with a dependent T as an
            // expression (a cast of &x), and the type is spelled in shared_variable<> anyway.
            text += (v.dims.empty() ? d.spec : std::string("auto")) + "& " + v.name;
            text += " = ::simt::shared_variable<" + d.spec + v.dims + ">(::simt::SharedSite{\"" +
                    v.name + "\", __FILE__, __LINE__, " + d.align + "});";
        }
        edits.replace(src, code[d.first].begin, code[d.semi].end(), std::move(text), false);
        i = d.semi;
    }
}

} // namespace simt::rewrite
