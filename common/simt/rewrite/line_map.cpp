#include "line_map.h"

#include <algorithm>

namespace simt::rewrite {

LineMap::LineMap(std::string_view text) : text_(text) {
    line_starts_.push_back(0);
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '\n') line_starts_.push_back(i + 1);
    }
}

SourcePosition LineMap::position(std::size_t offset) const {
    offset = std::min(offset, text_.size());
    auto next_line = std::upper_bound(line_starts_.begin(), line_starts_.end(), offset);
    const std::size_t line_index = static_cast<std::size_t>(next_line - line_starts_.begin()) - 1;
    int col = 1;
    for (std::size_t i = line_starts_[line_index]; i < offset; ++i) {
        const auto byte = static_cast<unsigned char>(text_[i]);
        if (byte == '\t') {
            col = ((col - 1) / 8 + 1) * 8 + 1;
        } else if ((byte & 0xC0) !=
                   0x80) { // UTF-8 continuation bytes share their character's column
            ++col;
        }
    }
    return {static_cast<int>(line_index) + 1, col};
}

} // namespace simt::rewrite
