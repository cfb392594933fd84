#include "value_json.h"

#include <bit>
#include <charconv>
#include <cmath>
#include <limits>
#include <type_traits>

#include "text.h"

namespace scanlab::trace::detail {
namespace {

template <class T>
using Bits = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;

template <class T>
void write_float(JsonWriter& out, T value) {
    if (std::isnan(value)) {
        const auto bits = std::bit_cast<Bits<T>>(value);
        if (bits == std::bit_cast<Bits<T>>(std::numeric_limits<T>::quiet_NaN()))
            return out.string("nan");
        char hex[20];
        const auto end = std::to_chars(hex, hex + sizeof hex, bits, 16).ptr;
        return out.string(cat("nan:0x", std::string_view(hex, end)));
    }
    if (std::isinf(value)) return out.string(value < 0 ? "-inf" : "inf");
    // "-0" would read back as the integer 0 and lose the sign.
    if (value == 0 && std::signbit(value)) return out.raw_number("-0.0");
    out.raw_number(shortest_text(value));
}

void write_element(JsonWriter& out, ValueType type, const ValueBytes& value, std::size_t i) {
    with_element_type(
        type,
        [&]<class T>() {
            const T element = value.as<T>(i);
            if constexpr (std::is_floating_point_v<T>)
                write_float(out, element);
            else if constexpr (sizeof(T) == 8)
                out.exact(element); // above 2^53 as a decimal string
            else if constexpr (std::is_signed_v<T>)
                out.number(std::int64_t{element});
            else
                out.number(std::uint64_t{element});
        },
        [&] { out.null(); });
}

template <class T>
T read_int(const Json& json, const Path& path, ValueType type) {
    constexpr bool kWide = sizeof(T) == 8;
    if (json.is_number_unsigned()) {
        const auto value = json.get<std::uint64_t>();
        if (value > static_cast<std::uint64_t>(std::numeric_limits<T>::max()))
            fail(path, cat(value, " is out of range for ", to_string(type)));
        return static_cast<T>(value);
    }
    if (json.is_number_integer()) {
        const auto value = json.get<std::int64_t>();
        if constexpr (std::is_unsigned_v<T>) {
            fail(path, cat(value, " is out of range for ", to_string(type)));
        } else {
            if (value < std::numeric_limits<T>::min())
                fail(path, cat(value, " is out of range for ", to_string(type)));
            return static_cast<T>(value);
        }
    }
    if (kWide && json.is_string()) {
        const auto& text = json.get_ref<const std::string&>();
        T value{};
        const auto result = std::from_chars(text.data(), text.data() + text.size(), value);
        if (text.empty() || result.ec != std::errc() || result.ptr != text.data() + text.size())
            fail(path, cat(describe(json), " is not a decimal ", to_string(type)));
        return value;
    }
    fail(path, cat("expected an integer (", to_string(type), "), got ", describe(json)));
}

template <class T>
T read_float(const Json& json, const Path& path, ValueType type) {
    if (json.is_number()) {
        const double value = json.get<double>();
        // Only doubles that round to a finite float convert: below the midpoint between FLT_MAX
        // and 2^128 (FLT_MAX's own shortest text, 3.4028235e+38, lies above FLT_MAX).
        if constexpr (sizeof(T) == 4) {
            constexpr double kFirstOverflow = 0x1.ffffffp+127;
            if (!(std::fabs(value) < kFirstOverflow))
                fail(path, cat(describe(json), " is out of range for f32"));
        }
        return static_cast<T>(value);
    }
    if (json.is_string()) {
        const auto& text = json.get_ref<const std::string&>();
        if (text == "nan") return std::numeric_limits<T>::quiet_NaN();
        if (text == "inf") return std::numeric_limits<T>::infinity();
        if (text == "-inf") return -std::numeric_limits<T>::infinity();
        if (text.starts_with("nan:0x")) {
            Bits<T> bits = 0;
            const char* first = text.data() + 6;
            const char* last = text.data() + text.size();
            const auto result = std::from_chars(first, last, bits, 16);
            if (first != last && result.ec == std::errc() && result.ptr == last &&
                std::isnan(std::bit_cast<T>(bits)))
                return std::bit_cast<T>(bits);
            fail(path,
                 cat(describe(json), " is not the bit pattern of a ", to_string(type), " NaN"));
        }
    }
    fail(path, cat("expected a number, \"nan\", \"inf\" or \"-inf\" (", to_string(type), "), got ",
                   describe(json)));
}

template <class T>
void store(ValueBytes& out, std::size_t i, T value) {
    std::memcpy(out.bytes.data() + i * sizeof(T), &value, sizeof(T));
}

void read_element(const Json& json, ValueType type, ValueBytes& out, std::size_t i,
                  const Path& path) {
    with_element_type(
        type,
        [&]<class T>() {
            if constexpr (std::is_floating_point_v<T>)
                store(out, i, read_float<T>(json, path, type));
            else
                store(out, i, read_int<T>(json, path, type));
        },
        [] {});
}

} // namespace

void write_value(JsonWriter& out, ValueType type, std::uint32_t width, const ValueBytes& value) {
    const std::uint32_t count = width / value_type_size(type);
    if (count == 1) return write_element(out, type, value, 0);
    out.begin_array();
    for (std::uint32_t i = 0; i < count; ++i) write_element(out, type, value, i);
    out.end_array();
}

ValueBytes read_value(const Json& json, ValueType type, std::uint32_t width, const Path& path) {
    ValueBytes out;
    const std::uint32_t count = width / value_type_size(type);
    if (count == 1) {
        read_element(json, type, out, 0, path);
        return out;
    }
    if (!json.is_array() || json.size() != count)
        fail(path, cat("expected an array of ", count, ' ', to_string(type), " values (a ", width,
                       "-byte access), got ", describe(json)));
    for (std::uint32_t i = 0; i < count; ++i) read_element(json[i], type, out, i, path[i]);
    return out;
}

} // namespace scanlab::trace::detail
