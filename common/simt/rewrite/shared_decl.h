// Parsing of one __shared__ declaration statement, shared by the static and dynamic rewrites.
#pragma once

#include <string>
#include <vector>

#include "source_file.h"

namespace simt::rewrite {

// One variable of the statement: `a[4][33]` in `__shared__ float a[4][33], b;`.
struct SharedDeclarator {
    std::string name;
    std::string dims; // "[a][b]", "[]" or ""
};

struct SharedDecl {
    std::size_t first = 0; // first token of the declaration (static, volatile... included)
    std::size_t semi = 0;  // its terminating ';'
    bool is_extern = false;
    std::string attributes; // [[...]] groups, re-emitted in front
    std::string spec;       // the type: cv-qualifiers kept; static, extern, __shared__,
                            // __device__ and __align__(n) dropped
    std::vector<SharedDeclarator> declarators; // in source order, at least one
    std::string align; // the __align__/alignas argument, "0" when there is none
};

// code[at] is a __shared__ token: is `extern` among the specifiers before it?
bool is_extern_shared(Tokens code, std::size_t at);

// code[at] is a __shared__ token. Throws (through src.fail) for what is not a plain variable
// declaration: initializers, a directive in the middle, declarators other than NAME[DIMS].
SharedDecl parse_shared_decl(const SourceFile& src, std::size_t at);

// A file-scope __shared__ variable `name`, declared up to code[declared]: `declaration` (of a
// variable of that name) goes at the top of every function body after it that uses the name
// (file_scope_shared.cpp).
class ScopeMap;
class EditList;
void declare_in_functions(const SourceFile& src, const ScopeMap& scopes, std::size_t declared,
                          const std::string& name, const std::string& declaration, EditList& edits);

} // namespace simt::rewrite
