// Short, fixed names of the element types the labs use, for messages and file names.
#pragma once

#include <cstdint>
#include <type_traits>

namespace scanlab {

template <class T>
constexpr const char* type_name() {
    if constexpr (std::is_same_v<T, std::int32_t>)
        return "int32";
    else if constexpr (std::is_same_v<T, std::uint32_t>)
        return "uint32";
    else if constexpr (std::is_same_v<T, std::int64_t>)
        return "int64";
    else if constexpr (std::is_same_v<T, std::uint64_t>)
        return "uint64";
    else if constexpr (std::is_same_v<T, float>)
        return "float";
    else if constexpr (std::is_same_v<T, double>)
        return "double";
    else
        static_assert(sizeof(T) == 0, "add a name for this type");
}

} // namespace scanlab
