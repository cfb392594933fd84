// Byte offsets to the line and column a compiler diagnostic would show.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

namespace simt::rewrite {

struct SourcePosition {
    int line;
    int col;
};

class LineMap {
  public:
    explicit LineMap(std::string_view text);
    // Columns follow gcc's default (-fdiagnostics-column-unit=display): a tab advances to the
    // next multiple of 8, a multi-byte UTF-8 character counts once.
    SourcePosition position(std::size_t offset) const;

  private:
    std::string_view text_;
    std::vector<std::size_t> line_starts_;
};

} // namespace simt::rewrite
