#pragma once

// Message and number text without iostreams or locales, so output never depends on them.

#include <charconv>
#include <concepts>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>

namespace scanlab::trace::detail {

inline void append(std::string& out, std::string_view text) {
    out += text;
}
inline void append(std::string& out, char c) {
    out += c;
}

template <class T>
requires std::integral<T> &&
    (!std::same_as<T, char>)&&(!std::same_as<T, bool>)void append(std::string& out, T value) {
    char buffer[24];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
    out.append(buffer, result.ptr);
}

template <class... Parts>
std::string cat(const Parts&... parts) {
    std::string out;
    (append(out, parts), ...);
    return out;
}

// Shortest text that reads back as exactly `value` (std::to_chars); only for finite values.
std::string shortest_text(double value);
// The same for a float, checked to read back exactly through a double parser (JSON readers
// parse every number as a double); falls back to the double's text where it would not.
std::string shortest_text(float value);

} // namespace scanlab::trace::detail
