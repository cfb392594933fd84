// Stack overflows of emulated threads become launch faults instead of a crashed process. Each
// fiber stack has a guard page below it (stack_pool.cpp) and kernel code is compiled with
// -fstack-clash-protection, so a thread that runs out of stack touches its guard page first,
// even with a local array larger than the whole stack. A SIGSEGV handler, running on an
// alternate signal stack, recognises that touch, leaves the thread for good and lets the
// scheduler report the fault; any other SIGSEGV goes on to the handler that was there before.
#pragma once

namespace simt::detail {

// Makes sure this OS thread has an alternate signal stack and that the handler is installed.
// Called at every launch: test frameworks install (and later restore) their own SIGSEGV
// handlers, and the emulator's is put back in front of whatever is there.
void arm_stack_guard();

} // namespace simt::detail
