// How the emulator names the element type of a shared variable or a kernel's pointer argument,
// for traces: a code that matches scanlab::trace::ValueType and a label as CUDA code spells it.
#pragma once

#include <cstdint>
#include <type_traits>

namespace simt::detail {

struct ElementInfo {
    int code;          // scanlab::trace::ValueType numbering: 0 none, 1 i8 ... 10 f64
    uint32_t size;     // bytes of one element
    const char* label; // "int", "double", "struct"
};

template <class T>
constexpr ElementInfo element_info() {
    using E = std::remove_cv_t<std::remove_all_extents_t<std::remove_cv_t<T>>>;
    if constexpr (std::is_same_v<E, signed char> || (std::is_same_v<E, char> && std::is_signed_v<char>))
        return {1, 1, "char"};
    else if constexpr (std::is_same_v<E, unsigned char> || std::is_same_v<E, char> || std::is_same_v<E, bool>)
        return {2, 1, std::is_same_v<E, bool> ? "bool" : "unsigned char"};
    else if constexpr (std::is_same_v<E, short>)
        return {3, 2, "short"};
    else if constexpr (std::is_same_v<E, unsigned short>)
        return {4, 2, "unsigned short"};
    else if constexpr (std::is_same_v<E, int>)
        return {5, 4, "int"};
    else if constexpr (std::is_same_v<E, unsigned>)
        return {6, 4, "unsigned"};
    else if constexpr (std::is_integral_v<E> && std::is_signed_v<E> && sizeof(E) == 8)
        return {7, 8, "long long"};
    else if constexpr (std::is_integral_v<E> && std::is_unsigned_v<E> && sizeof(E) == 8)
        return {8, 8, "unsigned long long"};
    else if constexpr (std::is_same_v<E, float>)
        return {9, 4, "float"};
    else if constexpr (std::is_same_v<E, double>)
        return {10, 8, "double"};
    else
        return {0, static_cast<uint32_t>(sizeof(E)), "struct"};
}

} // namespace simt::detail
