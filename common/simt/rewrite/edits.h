// Text edits collected by the passes and applied in one go, so passes never see each other's
// output and offsets stay those of the original text.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "source_file.h"

namespace simt::rewrite {

class EditList {
  public:
    // Replaces [begin, end) and then re-emits every line break the range held, so the lines
    // after it keep their numbers (and the rest of its last line its columns). Inside a directive a
    // break is re-emitted as a line splice, which keeps the directive going.
    void replace(const SourceFile& src, std::size_t begin, std::size_t end, std::string replacement,
                 bool in_directive);
    void insert(std::size_t at, std::string text);
    // Throws RewriteError if two passes claimed overlapping text.
    std::string apply(const SourceFile& src) const;

  private:
    struct Edit {
        std::size_t begin;
        std::size_t end;
        std::string text;
    };
    std::vector<Edit> edits_;
};

} // namespace simt::rewrite
