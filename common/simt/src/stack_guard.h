// Stack overflows of emulated threads become launch faults instead of a crashed process. Each
// fiber stack has guard pages below it (stack_pool.cpp), as many as the compiler's stack probes
// may skip, and kernel code is compiled with -fstack-clash-protection, so a thread that runs out
// of stack touches its guard first, even with a local array larger than the whole stack. A
// handler of the signals such a touch raises (SIGSEGV; on macOS SIGBUS too: platform.h), running
// on an alternate signal stack, recognises that touch, leaves the thread for good and lets the
// scheduler report the fault at the faulting instruction's line; any other such signal goes on
// to the handler that was there before.
#pragma once

namespace simt::detail {

// Makes sure this OS thread has an alternate signal stack and that the handler is installed.
// Called at every launch: test frameworks install (and later restore) their own SIGSEGV
// handlers, and the emulator's is put back in front of whatever is there.
void arm_stack_guard();

} // namespace simt::detail
