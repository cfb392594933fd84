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
    return with_element_type(
        type,
        [&]<class T>() {
            if constexpr (std::is_floating_point_v<T>)
                return float_text(value.as<T>(i));
            else
                return detail::cat(value.as<T>(i));
        },
        [] { return std::string("?"); });
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
