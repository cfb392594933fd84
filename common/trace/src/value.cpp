#include "scanlab/trace/value.h"

#include <cmath>

#include "text.h"

namespace scanlab::trace {
namespace {

template <class T>
std::string float_text(T value) {
    if (std::isnan(value)) return "nan";
    if (std::isinf(value)) return value < 0 ? "-inf" : "inf";
    return detail::shortest_text(value);
}

std::string element_text(ValueType type, const ValueBytes& value, std::size_t i) {
    using detail::cat;
    switch (type) {
    case ValueType::i8:
        return cat(value.as<std::int8_t>(i));
    case ValueType::u8:
        return cat(value.as<std::uint8_t>(i));
    case ValueType::i16:
        return cat(value.as<std::int16_t>(i));
    case ValueType::u16:
        return cat(value.as<std::uint16_t>(i));
    case ValueType::i32:
        return cat(value.as<std::int32_t>(i));
    case ValueType::u32:
        return cat(value.as<std::uint32_t>(i));
    case ValueType::i64:
        return cat(value.as<std::int64_t>(i));
    case ValueType::u64:
        return cat(value.as<std::uint64_t>(i));
    case ValueType::f32:
        return float_text(value.as<float>(i));
    case ValueType::f64:
        return float_text(value.as<double>(i));
    case ValueType::none:
        break;
    }
    return "?";
}

} // namespace

std::string format_value(ValueType type, std::uint32_t width, const ValueBytes& value) {
    const std::uint32_t size = value_type_size(type);
    if (size == 0 || width % size != 0 || width > kMaxAccessBytes || width == 0) return "?";
    const std::uint32_t count = width / size;
    if (count == 1) return element_text(type, value, 0);
    std::string out = "[";
    for (std::uint32_t i = 0; i < count; ++i) {
        if (i > 0) out += ", ";
        out += element_text(type, value, i);
    }
    return out + "]";
}

} // namespace scanlab::trace
