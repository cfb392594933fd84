// One call of a lab's function as the harness ships it to the worker and the worker answers it
// (tools/worker/README.md): the memory the call can touch, its arguments, the kernel-work watch
// in force, and, back, the memory's new contents, what the call threw and the error state and
// watch verdict it left.
#pragma once

#include "wire.h"

#include <simt/remote_state.h>

#include <cstdint>
#include <string>
#include <vector>

namespace scanlab::remote {

enum class Memory : std::uint8_t { host = 0, device = 1 };

/// A block of memory the call may touch, at the harness's address `base`: a whole device
/// allocation, or `contents.size()` bytes of host memory. `written`: one byte per 4-byte word of
/// device memory, 1 where it was ever written (empty for host memory).
struct Region {
    std::uint64_t base = 0;
    Memory memory = Memory::device;
    std::vector<std::uint8_t> contents;
    std::vector<std::uint8_t> written;
};

/// A host object a call uses through a pointer (a Workspace: remote_argument.h, Described): the
/// numbers of its host-side state and the device memory it owns, each block shipped whole (base
/// unused). `present` is false for a null pointer.
struct ObjectState {
    bool present = false;
    std::vector<std::int64_t> numbers;
    std::vector<Region> blocks;
};

/// The most device memory an object may hold when it comes back (it may grow in a call).
inline constexpr std::uint64_t kMaxObjectBytes = std::uint64_t{256} << 20;

enum class WatchRole : std::uint8_t { input = 0, output = 1 };
struct Watched {
    WatchRole role = WatchRole::input;
    std::uint64_t address = 0; // harness address
    std::uint64_t bytes = 0;
};

struct Request {
    std::string function; // "lab01::naive_scan"
    std::string op;       // "sum int32"
    std::vector<Region> regions;
    std::vector<std::uint64_t> pointers; // harness addresses (or anything: passed as they are)
    std::vector<std::int64_t> scalars;
    std::vector<ObjectState> objects;
    std::vector<std::int64_t> simt_options; // the harness's emulator settings (remote_state.h)
    bool watching = false;                  // a kernel-work watch is on (KernelWorkWatch)
    std::vector<Watched> watched;
    // The harness records launches (simt::start_tracing): the worker records the call's with
    // the same settings and sends them back.
    bool tracing = false;
    std::vector<std::uint32_t> trace_blocks;
    std::uint64_t trace_max_instructions = 0;
};

/// What the call threw, as the harness throws it again.
enum class Thrown : std::uint8_t {
    nothing = 0,
    invalid_argument,
    out_of_range,
    length_error,
    logic_error,
    bad_alloc,
    runtime_error, // any other std::exception
    unknown,       // not a std::exception
};

struct Response {
    Thrown thrown = Thrown::nothing;
    std::string message;
    std::vector<Region> regions; // the request's regions after the call, same order and sizes
    // The request's objects after the call (their memory may grow).
    std::vector<ObjectState> objects;
    std::vector<std::uint8_t> returned; // the bytes of the function's return value (if any)
    simt::remote::ErrorSnapshot errors;
    std::string provenance; // the watch's verdict: empty when kernels did the work
    // Device memory the call allocated and did not free (a leak), in bytes: the harness holds
    // as much, so that the tests' cudaMemGetInfo sees it.
    std::uint64_t leaked_bytes = 0;
    // The launches the call recorded (when the request was tracing), each a trace document
    // (docs/trace-format.md), read back and checked by the harness.
    std::vector<std::string> traces;
};

std::vector<std::uint8_t> encode(const Request& request);
Request decode_request(const std::vector<std::uint8_t>& bytes);
std::vector<std::uint8_t> encode(const Response& response);
/// Checks the answer against the request it answers: same regions, same sizes, the same objects
/// (each within kMaxObjectBytes). Throws
/// WireError otherwise.
Response decode_response(const std::vector<std::uint8_t>& bytes, const Request& request);

} // namespace scanlab::remote
