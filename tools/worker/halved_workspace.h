// How lab 07's Workspace travels between the harness and the worker (remote_argument.h,
// Described), for the description at the end of tools/lab_descriptors/lab07.cpp (README.md).
//
// It keeps state from one call to the next: the descriptor memory (which the last call left
// half cleared for the next) and, on the host, the memory's layout and which half the next call
// uses. All of it travels with each call, so that a reused workspace behaves as in one process.
// The header (which must not change) gives no access to the host state, so it is read and
// written through the one rule of the language that allows naming private members: an explicit
// instantiation (PrivateMember below).
#pragma once

#include "lookback_scan.h"
#include "remote_workspace.h"

#include <cstddef>
#include <cstdint>
#include <stdexcept>

namespace scanlab::remote {
namespace lab07_workspace {

// PrivateMember<&C::m, Tag> makes member(Tag{}) return &C::m: names in an explicit
// instantiation are not access checked.
template <auto Member, class Tag>
struct PrivateMember {
    friend constexpr auto member(Tag) { return Member; }
};
struct MemoryTag {
    friend constexpr auto member(MemoryTag);
};
struct LayoutTag {
    friend constexpr auto member(LayoutTag);
};
struct NextHalfTag {
    friend constexpr auto member(NextHalfTag);
};

} // namespace lab07_workspace

// Explicit instantiations: this header belongs in one file of a program (lab07.cpp).
template struct lab07_workspace::PrivateMember<&lab07::Workspace::memory_,
                                               lab07_workspace::MemoryTag>;
template struct lab07_workspace::PrivateMember<&lab07::Workspace::layout_,
                                               lab07_workspace::LayoutTag>;
template struct lab07_workspace::PrivateMember<&lab07::Workspace::next_half_,
                                               lab07_workspace::NextHalfTag>;

using lab07_workspace::LayoutTag;
using lab07_workspace::MemoryTag;
using lab07_workspace::NextHalfTag;

template <>
struct Described<lab07::Workspace> {
    static ObjectState save(lab07::Workspace& workspace) {
        ObjectState state = Described<scanlab::Workspace>::save(workspace.*member(MemoryTag{}));
        state.numbers = {static_cast<std::int64_t>(workspace.*member(LayoutTag{})),
                         workspace.*member(NextHalfTag{})};
        return state;
    }
    static void restore(lab07::Workspace& workspace, const ObjectState& state) {
        if (state.numbers.size() != 2 || state.blocks.size() > 1 || state.numbers[0] < 0 ||
            (state.numbers[1] != 0 && state.numbers[1] != 1))
            throw std::invalid_argument("a lab 07 Workspace is one block of device memory, a "
                                        "layout and a half (0 or 1)");
        ObjectState memory = state;
        memory.numbers.clear();
        Described<scanlab::Workspace>::restore(workspace.*member(MemoryTag{}), memory);
        workspace.*member(LayoutTag{}) = static_cast<std::size_t>(state.numbers[0]);
        workspace.*member(NextHalfTag{}) = static_cast<int>(state.numbers[1]);
    }
};

} // namespace scanlab::remote
