// The worker's table of the lab functions it may call, filled by SCANLAB_REMOTE_SCAN lines
// (remote_scan.h) before main() starts, and read by its server (worker_main.cpp).
#pragma once

#include "remote_call.h"

#include <scanlab/scan_kind.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace scanlab::remote {

/// A call's arguments with the pointers already translated into this process's memory.
struct Arguments {
    std::vector<void*> pointers;
    std::vector<std::int64_t> scalars;
    std::vector<ObjectState> objects; // as the harness sent them
    // Filled by the invoker: the objects rebuilt here (alive until the answer is made) and, one
    // for each of `objects`, how to read its state after the call.
    std::vector<std::shared_ptr<void>> held;
    std::vector<std::function<ObjectState()>> saves;
    std::vector<std::uint8_t> returned; // what the function returned (the call fills it)
};

/// Takes a call's arguments (rebuilding its objects in `held`) and returns the call itself, so
/// that what setting it up allocates is not counted as the call's own.
using Invoker = std::function<std::function<void()>(Arguments&)>;

/// Registers `invoker` as function<op> ("lab01::naive_scan<sum int32>").
void register_function(const std::string& key, Invoker invoker);
/// The invoker registered under `key`, or nullptr.
const Invoker* find_function(const std::string& key);

std::string operator_key_of(const std::string& function, const std::string& op);

template <class Op>
std::string operator_key();

/// A scan with the shape (const T* in, T* out, int n, ScanKind kind).
template <class Op>
void register_scan(const char* function, void (*scan)(const typename Op::value_type*,
                                                      typename Op::value_type*, int, ScanKind)) {
    using T = typename Op::value_type;
    register_function(operator_key_of(function, operator_key<Op>()), [scan](Arguments& call) {
        if (call.pointers.size() != 2 || call.scalars.size() != 2 || !call.objects.empty())
            throw std::invalid_argument("a scan call has 2 pointers and 2 "
                                        "numbers");
        return std::function<void()>(
            [scan, in = static_cast<const T*>(call.pointers[0]),
             out = static_cast<T*>(call.pointers[1]), n = static_cast<int>(call.scalars[0]),
             kind = static_cast<ScanKind>(call.scalars[1])] { scan(in, out, n, kind); });
    });
}

} // namespace scanlab::remote
