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

// Integers, but not characters or booleans, which read as text.
template <class T>
concept Integer = std::integral<T> && !std::same_as<T, char> && !std::same_as<T, bool>;

template <Integer T>
void append(std::string& out, T value) {
    char buffer[24];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
    out.append(buffer, result.ptr);
}

// At most `limit` characters of `text`, marked with "..." when cut: names from a document may be
// huge, messages should not be.
inline std::string clipped(std::string_view text, std::size_t limit = 40) {
    return text.size() <= limit ? std::string(text) : std::string(text.substr(0, limit)) + "...";
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
