#pragma once

// The spelling of each enum in trace documents, shared by the writer, the reader and viewers.

#include <array>
#include <cstddef>
#include <optional>
#include <string_view>

#include "scanlab/trace/trace.h"
#include "scanlab/trace/value.h"

namespace scanlab::trace {

template <class E>
struct EnumNames;

template <>
struct EnumNames<EmulatorMode> {
    static constexpr std::array<std::string_view, 3> names{"lockstep", "its", "pre_volta"};
};
template <>
struct EnumNames<DispatchOrder> {
    static constexpr std::array<std::string_view, 2> names{"in_order", "shuffled"};
};
template <>
struct EnumNames<MemorySpace> {
    static constexpr std::array<std::string_view, 2> names{"shared", "global"};
};
template <>
struct EnumNames<AccessKind> {
    static constexpr std::array<std::string_view, 3> names{"load", "store", "atomic"};
};
template <>
struct EnumNames<ShuffleKind> {
    static constexpr std::array<std::string_view, 4> names{"idx", "up", "down", "xor"};
};
template <>
struct EnumNames<TileFlag> {
    static constexpr std::array<std::string_view, 3> names{"X", "A", "P"};
};
template <>
struct EnumNames<MbarrierOp> {
    static constexpr std::array<std::string_view, 8> names{"init", "arrive",   "expect_tx", "copy",
                                                           "land", "complete", "wait",      "poll"};
};
template <>
struct EnumNames<TruncationLimit> {
    static constexpr std::array<std::string_view, 5> names{"max_instructions", "max_blocks",
                                                           "max_steps", "max_time", "other"};
};
template <>
struct EnumNames<FindingKind> {
    static constexpr std::array<std::string_view, 18> names{"shared_race",
                                                            "global_race",
                                                            "uninitialized_shared_read",
                                                            "uninitialized_global_read",
                                                            "illegal_address",
                                                            "misaligned_address",
                                                            "barrier_divergence",
                                                            "warp_mask",
                                                            "deadlock",
                                                            "memory_ordering",
                                                            "plain_load_spin",
                                                            "stale_read",
                                                            "assertion",
                                                            "trap",
                                                            "stack_overflow",
                                                            "exception",
                                                            "unsupported",
                                                            "other"};
};
template <>
struct EnumNames<FindingRole> {
    static constexpr std::array<std::string_view, 5> names{"load", "store", "atomic", "wait",
                                                           "execute"};
};
// `none` is written as JSON null; the name is for messages and viewers.
template <>
struct EnumNames<ValueType> {
    static constexpr std::array<std::string_view, 11> names{
        "none", "i8", "u8", "i16", "u16", "i32", "u32", "i64", "u64", "f32", "f64"};
};

template <class E>
constexpr std::string_view to_string(E value) {
    const auto index = static_cast<std::size_t>(value);
    return index < EnumNames<E>::names.size() ? EnumNames<E>::names[index] : "?";
}

template <class E>
constexpr std::optional<E> enum_from_string(std::string_view name) {
    for (std::size_t i = 0; i < EnumNames<E>::names.size(); ++i)
        if (EnumNames<E>::names[i] == name) return static_cast<E>(i);
    return std::nullopt;
}

} // namespace scanlab::trace
