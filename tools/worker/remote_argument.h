// How a lab function's arguments travel between the harness and the worker, by type: a pointer
// is device memory (the whole allocation it lies in is shipped, and it is translated into the
// worker's copy); a number, an enum or a small trivially copyable struct (an options struct of
// enums) is copied bit for bit, also when passed by const reference; a pointer to a host object
// whose type is Described (a Workspace: remote_workspace.h) ships the object's state and is
// rebuilt in the worker, and the harness's object becomes what the call left. Any other type is
// a compile error on both sides, so a lab function that needs more cannot be described by
// accident.
#pragma once

#include "remote_call.h"

#include <concepts>
#include <cstdint>
#include <cstring>
#include <memory>
#include <tuple>
#include <type_traits>

namespace scanlab::remote {

/// How a host object travels, for the types a lab function takes a pointer to (a Workspace):
///   static ObjectState save(T&)                        its host numbers and device memory
///   static void restore(T&, const ObjectState&)        make a T (a fresh one in the worker,
///                                                      the harness's after the call) that state
/// Not defined for any other type.
template <class T>
struct Described;

template <class T>
concept DescribedObject = requires(T& object, const ObjectState& state) {
    { Described<T>::save(object) } -> std::same_as<ObjectState>;
    Described<T>::restore(object, state);
};

template <class T>
concept ObjectPointer =
    std::is_pointer_v<std::decay_t<T>> && DescribedObject<std::remove_pointer_t<std::decay_t<T>>>;

template <class T>
concept ShippedPointer = std::is_pointer_v<std::decay_t<T>> && !ObjectPointer<T>;

template <class T>
concept CopiedValue =
    !std::is_pointer_v<std::decay_t<T>> && std::is_trivially_copyable_v<std::decay_t<T>> &&
    sizeof(std::decay_t<T>) <= sizeof(std::int64_t);

template <class T>
concept RemoteArgument = ShippedPointer<T> || CopiedValue<T> || ObjectPointer<T>;

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

/// How many of the arguments are pointers, objects and copied values.
template <class... Args>
inline constexpr std::size_t kPointerCount = (std::size_t{0} + ... +
                                              (ShippedPointer<Args> ? 1 : 0));
template <class... Args>
inline constexpr std::size_t kObjectCount = (std::size_t{0} + ... + (ObjectPointer<Args> ? 1 : 0));
template <class... Args>
inline constexpr std::size_t
    kValueCount = sizeof...(Args) - kPointerCount<Args...> - kObjectCount<Args...>;

} // namespace scanlab::remote

#ifdef SCANLAB_REMOTE_HARNESS

#include "harness_client.h"

#include <string>

namespace scanlab::remote {

/// The proxy's body: ships a call of `function`<Op> with these arguments to the worker.
template <class Op>
struct Proxy {
    std::string function;

    template <RemoteArgument... Args>
    void operator()(const Args&... args) const {
        Call call(function, operator_key<Op>());
        (add(call, args), ...);
        call.run();
    }

  private:
    template <class T>
    static void add(Call& call, const T& arg) {
        if constexpr (ObjectPointer<T>) {
            using Object = std::remove_pointer_t<std::decay_t<T>>;
            Object* object = arg;
            if (!object) return call.object({}, nullptr);
            call.object(Described<Object>::save(*object), [object](const ObjectState& state) {
                Described<Object>::restore(*object, state);
            });
        } else if constexpr (ShippedPointer<T>) {
            call.pointer(arg, Memory::device, 0);
        } else {
            call.scalar(value_bits(arg));
        }
    }
};

} // namespace scanlab::remote

#else

#include "worker_registry.h"

#include <stdexcept>
#include <string>

namespace scanlab::remote {

/// Registers fn as function<Op> (a name from function_name): the worker's server calls it
/// with the call's pointers (translated), objects (rebuilt) and values in the order of its
/// parameters.
template <class Op, RemoteArgument... Args>
void register_typed(const std::string& function, void (*fn)(Args...)) {
    register_function(operator_key_of(function, operator_key<Op>()), [fn](Arguments& call) {
        if (call.pointers.size() != kPointerCount<Args...> ||
            call.objects.size() != kObjectCount<Args...> ||
            call.scalars.size() != kValueCount<Args...>)
            throw std::invalid_argument("the call has " + std::to_string(call.pointers.size()) +
                                        " pointers, " + std::to_string(call.objects.size()) +
                                        " objects and " + std::to_string(call.scalars.size()) +
                                        " values, the function " +
                                        std::to_string(kPointerCount<Args...>) + ", " +
                                        std::to_string(kObjectCount<Args...>) + " and " +
                                        std::to_string(kValueCount<Args...>));
        std::size_t pointer = 0, object = 0, value = 0;
        const auto take = [&]<class T>() -> std::decay_t<T> {
            using D = std::decay_t<T>;
            if constexpr (ObjectPointer<T>) {
                using Object = std::remove_pointer_t<D>;
                const ObjectState& state = call.objects[object++];
                if (!state.present) {
                    call.saves.push_back([] { return ObjectState{}; });
                    return nullptr;
                }
                auto rebuilt = std::make_shared<Object>();
                Described<Object>::restore(*rebuilt, state);
                call.held.push_back(rebuilt);
                call.saves.push_back([rebuilt] { return Described<Object>::save(*rebuilt); });
                return rebuilt.get();
            } else if constexpr (ShippedPointer<T>) {
                return static_cast<D>(call.pointers[pointer++]);
            } else {
                return from_value_bits<D>(call.scalars[value++]);
            }
        };
        // A braced list is evaluated left to right: the arguments are taken in order.
        std::tuple<std::decay_t<Args>...> arguments{take.template operator()<Args>()...};
        return std::function<void()>([fn, arguments] { std::apply(fn, arguments); });
    });
}

} // namespace scanlab::remote

#endif
