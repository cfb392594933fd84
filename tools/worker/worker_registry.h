// The worker's table of the lab functions it may call, filled by the lab descriptor's
// description lines (remote_function.h, register_typed in remote_argument.h) before main()
// starts, and read by its server (worker_main.cpp).
#pragma once

#include "remote_call.h"

#include <cstdint>
#include <functional>
#include <memory>
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

} // namespace scanlab::remote
