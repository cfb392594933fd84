// How the Workspace of labs 07 and 08 travels between the harness and the worker
// (remote_argument.h, Described), for the descriptions at the end of
// tools/lab_descriptors/lab07.cpp and lab08.cpp (README.md). Both labs' headers declare the same
// class (each lab is one self-contained header): a Workspace whose device memory is in two
// halves, the one a call uses and the one it clears for the next call.
//
// It keeps state from one call to the next: the descriptor memory (which the last call left
// half cleared for the next) and, on the host, the memory's layout and which half the next call
// uses. All of it travels with each call, so that a reused workspace behaves as in one process.
// The header (which must not change) gives no access to the host state, so it is read and
// written through the one rule of the language that allows naming private members: an explicit
// instantiation (PrivateMember below).
#pragma once

#include "remote_workspace.h"

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace scanlab::remote::halved_workspace {

// PrivateMember<&C::m, Tag> makes member(Tag{}) return &C::m: names in an explicit
// instantiation are not access checked.
template <auto Member, class Tag>
struct PrivateMember {
    friend constexpr auto member(Tag) { return Member; }
};

/// Whether `state` is one a halved Workspace can be given: one block of memory, a layout and a
/// half (0 or 1). Throws std::invalid_argument naming `lab` ("lab 07") if not.
inline void check_state(const ObjectState& state, const char* lab) {
    if (state.numbers.size() != 2 || state.blocks.size() > 1 || state.numbers[0] < 0 ||
        (state.numbers[1] != 0 && state.numbers[1] != 1))
        throw std::invalid_argument(std::string("a ") + lab +
                                    " Workspace is one block of device memory, a layout and a "
                                    "half (0 or 1)");
}

} // namespace scanlab::remote::halved_workspace

/// Described<NS::Workspace>, in one file of a program (the lab's descriptor): the tags, the
/// explicit instantiations that reach the private members, and the description. LAB names the
/// lab in errors ("lab 07").
#define SCANLAB_REMOTE_HALVED_WORKSPACE(NS, LAB)                                                   \
    namespace scanlab::remote {                                                                    \
    namespace halved_workspace { /* the tags beside PrivateMember: its friend defines theirs */    \
    struct NS##_memory {                                                                           \
        friend constexpr auto member(NS##_memory);                                                 \
    };                                                                                             \
    struct NS##_layout {                                                                           \
        friend constexpr auto member(NS##_layout);                                                 \
    };                                                                                             \
    struct NS##_next_half {                                                                        \
        friend constexpr auto member(NS##_next_half);                                              \
    };                                                                                             \
    template struct PrivateMember<&NS::Workspace::memory_, NS##_memory>;                           \
    template struct PrivateMember<&NS::Workspace::layout_, NS##_layout>;                           \
    template struct PrivateMember<&NS::Workspace::next_half_, NS##_next_half>;                     \
    }                                                                                              \
    template <>                                                                                    \
    struct Described<NS::Workspace> {                                                              \
        static ObjectState save(NS::Workspace& workspace) {                                        \
            using namespace halved_workspace;                                                      \
            ObjectState state =                                                                    \
                Described<scanlab::Workspace>::save(workspace.*member(NS##_memory{}));             \
            state.numbers = {static_cast<std::int64_t>(workspace.*member(NS##_layout{})),          \
                             workspace.*member(NS##_next_half{})};                                 \
            return state;                                                                          \
        }                                                                                          \
        static void restore(NS::Workspace& workspace, const ObjectState& state) {                  \
            using namespace halved_workspace;                                                      \
            check_state(state, LAB);                                                               \
            ObjectState memory = state;                                                            \
            memory.numbers.clear();                                                                \
            Described<scanlab::Workspace>::restore(workspace.*member(NS##_memory{}), memory);      \
            workspace.*member(NS##_layout{}) = static_cast<std::size_t>(state.numbers[0]);         \
            workspace.*member(NS##_next_half{}) = static_cast<int>(state.numbers[1]);              \
        }                                                                                          \
    };                                                                                             \
    }                                                                                              \
    static_assert(true)
