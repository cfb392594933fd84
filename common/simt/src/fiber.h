// Fiber switches for the engine. On x86-64 ELF a minimal switch of our own: it saves only the
// callee-saved registers (the emulator never changes the floating-point control words, so the
// MXCSR/x87 save and restore of Boost's jump_fcontext is pure cost: about half of each switch)
// and returns with `ret`, which keeps the CPU's return-stack predictor in step. Elsewhere (and
// with shadow stacks) Boost.Context's jump_fcontext/make_fcontext.
#pragma once

#include <cstddef>

// Not with shadow stacks (-fcf-protection=return): a switch must then switch those too, which
// Boost.Context does.
#if defined(__x86_64__) && defined(__ELF__) && !(defined(__CET__) && (__CET__ & 2))
#define SIMT_OWN_FIBER_SWITCH 1
#else
#define SIMT_OWN_FIBER_SWITCH 0
#endif

namespace simt::detail {

using FiberContext = void*; // where a suspended fiber resumes

// What a switch hands over: the context of the fiber that left (to resume it later) and data.
struct FiberTransfer {
    FiberContext from;
    void* data;
};

using FiberEntry = void (*)(FiberTransfer);

// Suspends the running fiber and resumes `to`, passing `data`; returns when something resumes
// this fiber again, with what that one passed.
FiberTransfer fiber_jump(FiberContext to, void* data);
// A fiber on the stack whose top is `stack_top` (growing down, `size` bytes) that starts in
// `entry` when first resumed. `entry` must never return.
FiberContext fiber_make(void* stack_top, std::size_t size, FiberEntry entry);

} // namespace simt::detail

#if SIMT_OWN_FIBER_SWITCH
extern "C" simt::detail::FiberTransfer simt_fiber_jump(void* to, void* data);
inline simt::detail::FiberTransfer simt::detail::fiber_jump(FiberContext to, void* data) {
    return simt_fiber_jump(to, data);
}
#endif
