// Which code tokens sit at file (namespace) scope. Braces opened by `namespace [name]` or
// `extern "C"` keep file scope; any other brace (function, class, enum, initializer) leaves it.
#pragma once

#include <vector>

#include "source_file.h"

namespace simt::rewrite {

class ScopeMap {
  public:
    explicit ScopeMap(Tokens code);
    bool at_file_scope(std::size_t code_index) const { return file_scope_[code_index]; }

  private:
    std::vector<bool> file_scope_;
};

} // namespace simt::rewrite
