// Lab 07's graded functions, for the harness (proxies) and the worker (tools/worker/README.md):
// the instances its graded tests call, the same as the lab's .cu file instantiates.
//
// Its Workspace keeps state from one call to the next: the descriptor memory (which the last
// call left half cleared for the next) and, on the host, the memory's layout and which half the
// next call uses. All of it travels with each call (Described<lab07::Workspace> below), so that
// a reused workspace behaves as in one process. The header (which must not change) gives no
// access to the host state, so it is read and written through the one rule of the language that
// allows naming private members: an explicit instantiation (PrivateMember below).
#include "lookback_scan.h"

#include "remote_function.h"
#include "remote_workspace.h"

using lab07::LookbackOptions;
using lab07::Workspace;
using scanlab::ScanKind;
using scanlab::remote::Value;

namespace scanlab::remote {
namespace {

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

} // namespace

template struct PrivateMember<&lab07::Workspace::memory_, MemoryTag>;
template struct PrivateMember<&lab07::Workspace::layout_, LayoutTag>;
template struct PrivateMember<&lab07::Workspace::next_half_, NextHalfTag>;

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

SCANLAB_REMOTE_TILED_FUNCTION(lab07, scan,
                              (const Value<Op>* d_in, Value<Op>* d_out, std::int64_t n,
                               ScanKind kind, const LookbackOptions& options, Workspace* workspace),
                              (d_in, d_out, n, kind, options, workspace));
SCANLAB_REMOTE_TILES(lab07, scan, lab07::kDefaultBlockThreads<Value<Op>>,
                     lab07::kDefaultItemsPerThread<Value<Op>>);
SCANLAB_REMOTE_TILES(lab07, scan, 64, 3);

// select_greater is templated over the element type: `Op` is that type here.
SCANLAB_REMOTE_TILED_FUNCTION(lab07, select_greater,
                              (const Op* d_in, Op* d_out, int* d_count, std::int64_t n,
                               Op threshold, const LookbackOptions& options, Workspace* workspace),
                              (d_in, d_out, d_count, n, threshold, options, workspace));
#define LAB07_REMOTE_SELECT(T)                                                                     \
    SCANLAB_REMOTE_TILES_OF(lab07, select_greater, T, lab07::kDefaultBlockThreads<Op>,             \
                            lab07::kDefaultItemsPerThread<Op>);                                    \
    SCANLAB_REMOTE_TILES_OF(lab07, select_greater, T, 64, 3)
LAB07_REMOTE_SELECT(std::int32_t);
LAB07_REMOTE_SELECT(std::uint32_t);
LAB07_REMOTE_SELECT(std::int64_t);
LAB07_REMOTE_SELECT(float);
LAB07_REMOTE_SELECT(double);
