#pragma once

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>

namespace scanlab::trace {

// Values are kept as the bytes that were in memory; the emulator runs on x86-64 and ARM64 only.
static_assert(std::endian::native == std::endian::little, "traces assume a little-endian host");

// How the bytes of an access are interpreted. `none`: the values were not recorded.
enum class ValueType : std::uint8_t { none, i8, u8, i16, u16, i32, u32, i64, u64, f32, f64 };

// Bytes of one element of `type`; 0 for none.
constexpr std::uint32_t value_type_size(ValueType type) {
    switch (type) {
    case ValueType::i8:
    case ValueType::u8:
        return 1;
    case ValueType::i16:
    case ValueType::u16:
        return 2;
    case ValueType::i32:
    case ValueType::u32:
    case ValueType::f32:
        return 4;
    case ValueType::i64:
    case ValueType::u64:
    case ValueType::f64:
        return 8;
    case ValueType::none:
        break;
    }
    return 0;
}

// Calls `element.template operator()<T>()` with the C++ type T of one element of `type`
// (std::int8_t ... double) and returns its result; `none` calls `no_type()` instead. The one
// place that turns a ValueType into a type: printing, writing and reading values build on it.
template <class Element, class NoType>
decltype(auto) with_element_type(ValueType type, Element&& element, NoType&& no_type) {
    switch (type) {
    case ValueType::i8:
        return element.template operator()<std::int8_t>();
    case ValueType::u8:
        return element.template operator()<std::uint8_t>();
    case ValueType::i16:
        return element.template operator()<std::int16_t>();
    case ValueType::u16:
        return element.template operator()<std::uint16_t>();
    case ValueType::i32:
        return element.template operator()<std::int32_t>();
    case ValueType::u32:
        return element.template operator()<std::uint32_t>();
    case ValueType::i64:
        return element.template operator()<std::int64_t>();
    case ValueType::u64:
        return element.template operator()<std::uint64_t>();
    case ValueType::f32:
        return element.template operator()<float>();
    case ValueType::f64:
        return element.template operator()<double>();
    case ValueType::none:
        break;
    }
    return no_type();
}

// The widest access a warp instruction can make (int4, double2...).
inline constexpr std::size_t kMaxAccessBytes = 16;

// A type whose bytes fit one access: int, double, int4, a packed descriptor...
template <class T>
concept AccessValue = std::is_trivially_copyable_v<T> && sizeof(T) <= kMaxAccessBytes;

// The bytes one lane read or wrote, little-endian; bytes past the access width stay zero so that
// equal accesses compare equal.
struct ValueBytes {
    std::array<std::uint8_t, kMaxAccessBytes> bytes{};

    // Copies `size` (at most 16) bytes; the rest are zero.
    static ValueBytes from(const void* data, std::size_t size) {
        ValueBytes v;
        std::memcpy(v.bytes.data(), data, size < kMaxAccessBytes ? size : kMaxAccessBytes);
        return v;
    }

    template <AccessValue T>
    static ValueBytes of(const T& value) {
        return from(&value, sizeof(T));
    }

    // Element `index` of a vector access (0 for a scalar one).
    template <AccessValue T>
    T as(std::size_t index = 0) const {
        T value{};
        if ((index + 1) * sizeof(T) <= kMaxAccessBytes)
            std::memcpy(&value, bytes.data() + index * sizeof(T), sizeof(T));
        return value;
    }

    bool operator==(const ValueBytes&) const = default;
};

// The value as the viewer shows it: "5", "-1.5", "nan", "[1, 2, 3, 4]" for a 16-byte access of
// i32, "?" when values were not recorded.
std::string format_value(ValueType type, std::uint32_t width, const ValueBytes& value);

} // namespace scanlab::trace
