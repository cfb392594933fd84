#include "json_path.h"

#include "text.h"

namespace scanlab::trace::detail {

std::string Path::str() const {
    std::string out = parent_ ? parent_->str() : std::string();
    if (is_index_) {
        append(out, '[');
        append(out, index_);
        append(out, ']');
    } else if (!key_.empty()) {
        if (!out.empty()) append(out, '.');
        append(out, clipped(key_));
    }
    return out;
}

} // namespace scanlab::trace::detail
