#include "fiber.h"

#include <cstdint>

#if SIMT_OWN_FIBER_SWITCH

// A suspended fiber's stack holds, from its context upwards: r12, r13, r14, r15, rbx, rbp and
// the address it resumes at. A new fiber resumes in simt_fiber_start with its entry in r12.
asm(R"(
    .text
    .globl simt_fiber_jump
    .hidden simt_fiber_jump
    .type simt_fiber_jump, @function
    .p2align 4
simt_fiber_jump:
    .cfi_startproc
    pushq %rbp
    pushq %rbx
    pushq %r15
    pushq %r14
    pushq %r13
    pushq %r12
    movq %rsp, %rax
    movq %rdi, %rsp
    popq %r12
    popq %r13
    popq %r14
    popq %r15
    popq %rbx
    popq %rbp
    movq %rsi, %rdx
    ret
    .cfi_endproc
    .size simt_fiber_jump, .-simt_fiber_jump

    .type simt_fiber_start, @function
    .p2align 4
simt_fiber_start:
    .cfi_startproc
    .cfi_undefined rip
    movq %rax, %rdi
    movq %rdx, %rsi
    callq *%r12
    ud2
    .cfi_endproc
    .size simt_fiber_start, .-simt_fiber_start
)");

extern "C" void simt_fiber_start();

namespace simt::detail {

FiberContext fiber_make(void* stack_top, std::size_t, FiberEntry entry) {
    // After the six pops and the ret, rsp must be 16-byte aligned: the call in
    // simt_fiber_start then enters `entry` as the ABI requires.
    const uintptr_t top = reinterpret_cast<uintptr_t>(stack_top) & ~uintptr_t{15};
    void** frame = reinterpret_cast<void**>(top - 72);
    frame[0] = reinterpret_cast<void*>(entry); // r12
    for (int i = 1; i < 6; ++i) frame[i] = nullptr;
    frame[6] = reinterpret_cast<void*>(&simt_fiber_start);
    return frame;
}

} // namespace simt::detail

#else

#include <boost/context/detail/fcontext.hpp>

namespace simt::detail {

namespace {
FiberEntry g_entry = nullptr; // the engine has one entry function

void boost_entry(boost::context::detail::transfer_t t) {
    g_entry(FiberTransfer{t.fctx, t.data});
}
} // namespace

FiberTransfer fiber_jump(FiberContext to, void* data) {
    auto t = boost::context::detail::jump_fcontext(to, data);
    return FiberTransfer{t.fctx, t.data};
}

FiberContext fiber_make(void* stack_top, std::size_t size, FiberEntry entry) {
    g_entry = entry;
    return boost::context::detail::make_fcontext(stack_top, size, &boost_entry);
}

} // namespace simt::detail

#endif
