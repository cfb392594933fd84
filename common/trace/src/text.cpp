#include "text.h"

#include <bit>

namespace scanlab::trace::detail {

std::string shortest_text(double value) {
    char buffer[32];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
    return std::string(buffer, result.ptr);
}

std::string shortest_text(float value) {
    char buffer[32];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
    double parsed = 0;
    std::from_chars(buffer, result.ptr, parsed);
    if (std::bit_cast<std::uint32_t>(static_cast<float>(parsed)) ==
        std::bit_cast<std::uint32_t>(value))
        return std::string(buffer, result.ptr);
    return shortest_text(static_cast<double>(value));
}

} // namespace scanlab::trace::detail
