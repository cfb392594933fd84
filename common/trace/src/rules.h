#pragma once

// Rules that both the reader (before it can decode values) and validate_trace() apply. Each
// returns what is wrong, or an empty string.

#include <cstdint>
#include <string>

#include "scanlab/trace/names.h"
#include "scanlab/trace/value.h"
#include "text.h"

namespace scanlab::trace::detail {

inline std::string access_width_problem(std::uint32_t width) {
    if (width == 1 || width == 2 || width == 4 || width == 8 || width == 16) return {};
    return cat(width, " is not an access width (1, 2, 4, 8 or 16 bytes)");
}

// A value type fits an access when the access holds a whole number of its elements.
inline std::string value_type_problem(ValueType type, std::uint32_t width) {
    const std::uint32_t size = value_type_size(type);
    if (type == ValueType::none || (size <= width && width % size == 0)) return {};
    return cat(to_string(type), " (", size, " bytes) does not divide a ", width, "-byte access");
}

// A shuffle moves one 4- or 8-byte value per lane (CUDA's __shfl*_sync types).
inline std::string shuffle_width_problem(std::uint32_t width) {
    if (width == 4 || width == 8) return {};
    return cat(width, " is not a shuffle width (4 or 8 bytes)");
}

inline std::string shuffle_value_type_problem(ValueType type, std::uint32_t width) {
    if (type == ValueType::none || value_type_size(type) == width) return {};
    return cat(to_string(type), " is not ", width, " bytes wide (a shuffle moves one value)");
}

} // namespace scanlab::trace::detail
