// The harness's side of a lab call (README.md): the proxy of a lab function gathers what the
// call can touch, ships it to the worker process that runs the student's code, waits for the
// answer, and makes this process look as if the call had run here: the memory's new contents,
// the exception the call threw, the emulator's error state and fault report, and the kernel-work
// watch's verdict. A worker that crashes, exits or hangs fails the call with an exception that
// says so; the next call starts a fresh worker.
#pragma once

#include "remote_call.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

namespace scanlab::remote {

/// One call being put together.
class Call {
  public:
    Call(std::string function, std::string op);
    /// A pointer argument. Device memory: the whole allocation it lies in is shipped; host
    /// memory: `host_bytes` bytes from it (overlapping host ranges are shipped as one).
    void pointer(const void* p, Memory memory, std::size_t host_bytes);
    std::vector<std::int64_t>& scalars() { return request_.scalars; }
    /// A host object (remote_argument.h, Described): its state now, and how to make the
    /// harness's object what the call left (not called for a null object).
    void object(ObjectState state, std::function<void(const ObjectState&)> restore) {
        request_.objects.push_back(std::move(state));
        restores_.push_back(std::move(restore));
    }
    /// Runs the call in the worker and applies its answer here (or throws what it threw);
    /// returns the bytes of what the function returned (none for void).
    std::vector<std::uint8_t> run();

  private:
    struct HostSpan {
        std::uintptr_t first, last;
    };
    Request request_;
    std::vector<HostSpan> host_ranges_;
    std::vector<std::function<void(const ObjectState&)>> restores_;
};

} // namespace scanlab::remote
