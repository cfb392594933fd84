// How a lab function's arguments travel between the harness and the worker, by type: a pointer
// is device memory (the whole allocation it lies in is shipped, and it is translated into the
// worker's copy); a number, an enum or a small trivially copyable struct (an options struct of
// enums) is copied bit for bit. Any other type is a compile error on both sides, so a lab
// function that needs more (a workspace object) cannot be described by accident.
#pragma once

#include <cstdint>
#include <cstring>
#include <tuple>
#include <type_traits>

namespace scanlab::remote {

template <class T>
concept ShippedPointer = std::is_pointer_v<std::decay_t<T>>;

template <class T>
concept CopiedValue = !ShippedPointer<T> && std::is_trivially_copyable_v<std::decay_t<T>> &&
                      sizeof(std::decay_t<T>) <= sizeof(std::int64_t);

template <class T>
concept RemoteArgument = ShippedPointer<T> || CopiedValue<T>;

template <CopiedValue T>
std::int64_t value_bits(const T& value) {
    std::int64_t bits = 0;
    std::memcpy(&bits, &value, sizeof(T));
    return bits;
}

template <CopiedValue T>
T from_value_bits(std::int64_t bits) {
    T value;
    std::memcpy(&value, &bits, sizeof(T));
    return value;
}

/// How many of the arguments are pointers and how many are copied values.
template <class... Args>
inline constexpr std::size_t kPointerCount = (std::size_t{0} + ... +
                                              (ShippedPointer<Args> ? 1 : 0));
template <class... Args>
inline constexpr std::size_t kValueCount = sizeof...(Args) - kPointerCount<Args...>;

} // namespace scanlab::remote

#ifdef SCANLAB_REMOTE_HARNESS

#include "harness_client.h"

namespace scanlab::remote {

/// The proxy's body: ships a call of `function`<Op> with these arguments to the worker.
template <class Op>
struct Proxy {
    const char* function;

    template <RemoteArgument... Args>
    void operator()(const Args&... args) const {
        Call call(function, operator_key<Op>());
        (add(call, args), ...);
        call.run();
    }

  private:
    template <class T>
    static void add(Call& call, const T& arg) {
        if constexpr (ShippedPointer<T>)
            call.pointer(arg, Memory::device, 0);
        else
            call.scalar(value_bits(arg));
    }
};

} // namespace scanlab::remote

#else

#include "worker_registry.h"

#include <stdexcept>
#include <string>

namespace scanlab::remote {

/// Registers fn as function<Op>: the worker's server calls it with the call's pointers
/// (translated) and values in the order of its parameters.
template <class Op, RemoteArgument... Args>
void register_typed(const char* function, void (*fn)(Args...)) {
    register_function(operator_key_of(function, operator_key<Op>()), [fn](const Arguments& call) {
        if (call.pointers.size() != kPointerCount<Args...> ||
            call.scalars.size() != kValueCount<Args...>)
            throw std::invalid_argument("the call has " + std::to_string(call.pointers.size()) +
                                        " pointers and " + std::to_string(call.scalars.size()) +
                                        " values, the function " +
                                        std::to_string(kPointerCount<Args...>) + " and " +
                                        std::to_string(kValueCount<Args...>));
        std::size_t pointer = 0, value = 0;
        const auto take = [&]<class T>() -> std::decay_t<T> {
            using D = std::decay_t<T>;
            if constexpr (ShippedPointer<T>)
                return static_cast<D>(call.pointers[pointer++]);
            else
                return from_value_bits<D>(call.scalars[value++]);
        };
        // A braced list is evaluated left to right: the arguments are taken in order.
        std::tuple<std::decay_t<Args>...> arguments{take.template operator()<Args>()...};
        std::apply(fn, arguments);
    });
}

} // namespace scanlab::remote

#endif
