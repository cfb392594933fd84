// How a lab function's arguments travel between the harness and the worker, by type: a pointer
// is device memory (the whole allocation it lies in is shipped, and it is translated into the
// worker's copy); a number, an enum or a small trivially copyable struct (an options struct of
// enums) is copied bit for bit, also when passed by const reference; a pointer to a host object
// whose type is Described (a Workspace: remote_workspace.h) ships the object's state and is
// rebuilt in the worker, and the harness's object becomes what the call left. A description
// that says host_range(p, n) for a pointer (lab 00's host functions) ships n elements of host
// memory at p instead (HostRange). Any other type is a compile error on both sides, so a lab
// function that needs more cannot be described by accident.
#pragma once

#include "remote_call.h"

#include <concepts>
#include <cstdint>
#include <cstring>
#include <memory>
#include <tuple>
#include <type_traits>
#include <vector>

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

/// The largest value copied bit for bit (a (flag, value) pair of 8-byte values, an options
/// struct): it travels as 8-byte words.
inline constexpr std::size_t kMaxCopiedBytes = 64;

/// `count` elements of host memory at `first`, as a description's arguments name a host
/// function's pointer: host_range(in, n) (remote_function.h). The harness ships those bytes
/// (none for a count of zero or less); the host ranges of one call that overlap travel as one,
/// so that an in-place call (out == in) stays in place in the worker, and a non-null pointer to
/// no elements becomes an inaccessible page there (harness_client.h, worker_main.cpp). The
/// worker's function takes the plain pointer.
template <class T>
struct HostRange {
    T* first = nullptr;
    std::int64_t count = 0;

    std::size_t bytes() const {
        return count > 0 ? static_cast<std::size_t>(count) * sizeof(T) : 0;
    }
};

template <class T>
HostRange<T> host_range(T* first, std::int64_t count) {
    return {first, count};
}

template <class T>
inline constexpr bool kIsHostRange = false;
template <class T>
inline constexpr bool kIsHostRange<HostRange<T>> = true;

template <class T>
concept HostRangeArgument = kIsHostRange<std::decay_t<T>>;

template <class T>
concept CopiedValue =
    !std::is_pointer_v<std::decay_t<T>> && !HostRangeArgument<T> &&
    std::is_trivially_copyable_v<std::decay_t<T>> && sizeof(std::decay_t<T>) <= kMaxCopiedBytes;

/// A parameter of a lab function as the worker calls it.
template <class T>
concept RemoteArgument = ShippedPointer<T> || CopiedValue<T> || ObjectPointer<T>;

/// An argument as a proxy ships it: a parameter, or a host range of one.
template <class T>
concept ProxyArgument = RemoteArgument<T> || HostRangeArgument<T>;

/// What a lab function may return: nothing, or a value copied bit for bit.
template <class R>
concept RemoteResult = std::is_void_v<R> ||(CopiedValue<R>&& std::is_default_constructible_v<R>);

/// How many 8-byte words a copied value takes.
template <class T>
inline constexpr std::size_t kValueWords = (sizeof(std::decay_t<T>) + 7) / 8;

template <CopiedValue T>
void append_value_words(std::vector<std::int64_t>& words, const T& value) {
    std::int64_t bits[kValueWords<T>] = {};
    std::memcpy(bits, &value, sizeof(T));
    words.insert(words.end(), bits, bits + kValueWords<T>);
}

/// The value in words[at, at + kValueWords<T>) (the caller checked that they are there).
template <CopiedValue T>
T value_from_words(const std::vector<std::int64_t>& words, std::size_t at) {
    T value;
    std::memcpy(static_cast<void*>(&value), words.data() + at, sizeof(T));
    return value;
}

/// How many of the arguments are pointers and objects, and how many words the copied values
/// take.
template <class... Args>
inline constexpr std::size_t kPointerCount = (std::size_t{0} + ... +
                                              (ShippedPointer<Args> ? 1 : 0));
template <class... Args>
inline constexpr std::size_t kObjectCount = (std::size_t{0} + ... + (ObjectPointer<Args> ? 1 : 0));
template <class T>
constexpr std::size_t value_words_of() {
    if constexpr (CopiedValue<T>)
        return kValueWords<T>;
    else
        return 0;
}
template <class... Args>
inline constexpr std::size_t kValueWordCount = (std::size_t{0} + ... + value_words_of<Args>());

} // namespace scanlab::remote

#ifdef SCANLAB_REMOTE_HARNESS

#include "harness_client.h"

#include <stdexcept>
#include <string>

namespace scanlab::remote {

/// The proxy's body: ships a call of `function` for the operator (or element type) `key` to
/// the worker, and returns what the function returned there.
template <RemoteResult R = void>
struct Proxy {
    std::string function;
    std::string key;

    template <ProxyArgument... Args>
    R operator()(const Args&... args) const {
        Call call(function, key);
        (add(call, args), ...);
        const std::vector<std::uint8_t> returned = call.run();
        if constexpr (!std::is_void_v<R>) {
            if (returned.size() != sizeof(R))
                throw std::runtime_error(function + "<" + key +
                                         ">: the worker process answered without the value the "
                                         "function returns");
            R value;
            std::memcpy(&value, returned.data(), sizeof(R));
            return value;
        }
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
        } else if constexpr (HostRangeArgument<T>) {
            call.pointer(arg.first, Memory::host, arg.bytes());
        } else if constexpr (ShippedPointer<T>) {
            call.pointer(arg, Memory::device, 0);
        } else {
            append_value_words(call.scalars(), arg);
        }
    }
};

} // namespace scanlab::remote

#else

#include "worker_registry.h"

#include <stdexcept>
#include <string>

namespace scanlab::remote {

/// Registers fn as `function` for the operator (or element type) `key`: the worker's server
/// calls it with the call's pointers (translated), objects (rebuilt) and values in the order of
/// its parameters, and sends back what it returns.
template <RemoteResult R, RemoteArgument... Args>
void register_typed(const std::string& function, const std::string& key, R (*fn)(Args...)) {
    register_function(operator_key_of(function, key), [fn](Arguments& call) {
        if (call.pointers.size() != kPointerCount<Args...> ||
            call.objects.size() != kObjectCount<Args...> ||
            call.scalars.size() != kValueWordCount<Args...>)
            throw std::invalid_argument("the call has " + std::to_string(call.pointers.size()) +
                                        " pointers, " + std::to_string(call.objects.size()) +
                                        " objects and " + std::to_string(call.scalars.size()) +
                                        " words of values, the function " +
                                        std::to_string(kPointerCount<Args...>) + ", " +
                                        std::to_string(kObjectCount<Args...>) + " and " +
                                        std::to_string(kValueWordCount<Args...>));
        [[maybe_unused]] std::size_t pointer = 0, object = 0, word = 0;
        [[maybe_unused]] const auto take = [&]<class T>() -> std::decay_t<T> {
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
                word += kValueWords<T>;
                return value_from_words<D>(call.scalars, word - kValueWords<T>);
            }
        };
        // A braced list is evaluated left to right: the arguments are taken in order.
        std::tuple<std::decay_t<Args>...> arguments{take.template operator()<Args>()...};
        return std::function<void()>([fn, arguments, &returned = call.returned] {
            if constexpr (std::is_void_v<R>) {
                std::apply(fn, arguments);
                (void)returned; // nothing to return (clang's -Wunused-lambda-capture)
            } else {
                const R value = std::apply(fn, arguments);
                const auto* bytes = reinterpret_cast<const std::uint8_t*>(&value);
                returned.assign(bytes, bytes + sizeof(R));
            }
        });
    });
}

} // namespace scanlab::remote

#endif
