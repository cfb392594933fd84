// How a scanlab::Workspace (labs 05 and 06: device memory a scan keeps from one call to the
// next) travels between the harness and the worker (remote_argument.h, Described): its memory,
// whole, with the words ever written. The worker's Workspace reserves as much and takes the
// contents; after the call the harness's Workspace grows to what the worker's grew to and takes
// its contents back, so that a later call (and capacity()) sees what it would have in one
// process.
#pragma once

#include "remote_argument.h"
#include "remote_backend.h"

#include <scanlab/workspace.h>

#include <cstddef>
#include <cstdint>
#include <stdexcept>

namespace scanlab::remote {

/// Reserves the block's size in `workspace` and copies the block in (as the host's writes
/// before the call, not the lab's: remote_backend.h).
inline void restore_workspace_memory(scanlab::Workspace& workspace, const Region& block) {
    void* base = workspace.reserve(block.contents.size());
    backend::import_contents(base, block.contents.data(), block.contents.size(), block.written);
}

template <>
struct Described<scanlab::Workspace> {
    static ObjectState save(scanlab::Workspace& workspace) {
        ObjectState state;
        state.present = true;
        // reserve() of its own capacity does not reallocate: it gives the memory's address.
        if (const std::size_t bytes = workspace.capacity(); bytes > 0)
            state.blocks.push_back(backend::device_block(workspace.reserve(bytes), bytes));
        return state;
    }
    static void restore(scanlab::Workspace& workspace, const ObjectState& state) {
        if (!state.numbers.empty() || state.blocks.size() > 1)
            throw std::invalid_argument("a Workspace is one block of device memory and nothing "
                                        "else");
        if (!state.blocks.empty()) restore_workspace_memory(workspace, state.blocks.front());
    }
};

} // namespace scanlab::remote
