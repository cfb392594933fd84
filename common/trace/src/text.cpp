#include "text.h"

#include <bit>
#include <cstdlib>
#include <version>

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
#if defined(__cpp_lib_to_chars)
    std::from_chars(buffer, result.ptr, parsed);
#else
    // libc++ before 20 has no floating-point from_chars. strtod reads the same text; under a
    // locale with another decimal point it reads less, and the double's text is used: still exact.
    *result.ptr = '\0'; // the shortest text of a float is far shorter than the buffer
    parsed = std::strtod(buffer, nullptr);
#endif
    if (std::bit_cast<std::uint32_t>(static_cast<float>(parsed)) ==
        std::bit_cast<std::uint32_t>(value))
        return std::string(buffer, result.ptr);
    return shortest_text(static_cast<double>(value));
}

} // namespace scanlab::trace::detail
