// The worker's table of the lab functions it may call, filled by SCANLAB_REMOTE_SCAN lines
// (remote_scan.h) before main() starts, and read by its server (worker_main.cpp).
#pragma once

#include <scanlab/scan_kind.h>

#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace scanlab::remote {

/// A call's arguments with the pointers already translated into this process's memory.
struct Arguments {
    std::vector<void*> pointers;
    std::vector<std::int64_t> scalars;
};

using Invoker = std::function<void(const Arguments&)>;

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
    register_function(operator_key_of(function, operator_key<Op>()), [scan](const Arguments& call) {
        if (call.pointers.size() != 2 || call.scalars.size() != 2)
            throw std::invalid_argument("a scan call has 2 pointers and 2 "
                                        "numbers");
        scan(static_cast<const T*>(call.pointers[0]), static_cast<T*>(call.pointers[1]),
             static_cast<int>(call.scalars[0]), static_cast<ScanKind>(call.scalars[1]));
    });
}

} // namespace scanlab::remote
