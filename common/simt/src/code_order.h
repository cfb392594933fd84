// Code positions in source order, for the lockstep scheduler. A pre-Volta GPU runs a warp's lanes
// as one instruction stream: lanes that take different sides of a branch run one side after the
// other and meet again where the branches join. SIMT stacks get this effect by always running
// the lanes at the earliest code position first; the lockstep mode does the same, with the
// position of a waiting lane given by the access (or loop condition) it stands at.
//
// The order is the source's: the lines of the frames a position sits in, outermost first (the
// kernel's line of a call, then the line inside the called function, through inlined and real
// calls alike), then the code address for positions on one line. A loop's condition (the rewriter's
// loop tick, which passes the line where the loop's body ends) is placed after the whole body,
// where a compiled loop tests it, so lanes that skipped part of an iteration wait there for the
// others instead of running into the next iteration.
#pragma once

#include <cstdint>

namespace simt::detail {

struct CodePosition {
    // Orders positions: lower runs first. Ranks are renumbered when a new position is found (the
    // relative order never changes), so compare ranks, and compare positions by address.
    uint64_t rank = 0;
};

// The call sites a thread is inside (the return addresses of the non-inlined calls it made,
// outermost first, from the kernel's own entry on), as __tsan_func_entry reports them.
struct CallPath {
    const void* const* sites = nullptr;
    unsigned depth = 0;
};

// The deepest call path a position keeps (Thread::kCallSites: deeper calls are counted, not kept).
constexpr unsigned kMaxCallPath = 8;

// Where a loop's condition is placed: after everything up to `end_order` (the column times 8,
// plus the loops inside that end at the same token) of `end_line`, where the loop's body ends,
// packed in one key; 0 (an access) when end_line is not positive.
inline uint64_t loop_end_key(int end_line, int end_order) {
    return end_line > 0 ? static_cast<uint64_t>(end_line) << 32 |
                              static_cast<uint32_t>(end_order > 0 ? end_order : 0)
                        : 0;
}

// The position of an access, barrier or other call at code address `pc` (a return address in
// kernel code), inside the calls `calls`, or with `end` (loop_end_key) of the loop condition
// there. Looks lines up the first time (addr2line); afterwards a table lookup.
const CodePosition* code_position(const void* pc, CallPath calls, uint64_t end = 0);

// The last position looked up, with its key, compared whole (no hashing): lanes step through
// the same positions one after the other, so most lookups match the last one. Inline and calling
// nothing, for the callers' fast paths.
struct PositionMemo {
    const void* pc = nullptr;
    uint64_t end = 0;
    unsigned depth = 0;
    const void* sites[kMaxCallPath] = {};
    const CodePosition* position = nullptr;

    // The position if the key is the memo's, else null. (A loop, not std::equal's call of
    // memcmp: the call paths are short, depth 0 or 1 for most positions.)
    const CodePosition* find(const void* at, CallPath calls, uint64_t loop_end) const {
        if (!position || pc != at || end != loop_end || depth != calls.depth) return nullptr;
        for (unsigned i = 0; i < calls.depth; ++i)
            if (sites[i] != calls.sites[i]) return nullptr;
        return position;
    }
    void remember(const void* at, CallPath calls, uint64_t loop_end, const CodePosition* found) {
        if (calls.depth > kMaxCallPath) return;
        pc = at;
        end = loop_end;
        depth = calls.depth;
        for (unsigned i = 0; i < calls.depth; ++i) sites[i] = calls.sites[i];
        position = found;
    }
};

} // namespace simt::detail
