#include "stack_guard.h"

#include <signal.h>
#include <sys/mman.h>
#include <ucontext.h>

#include <cstdint>

#include "engine.h"
#include "stack_pool.h"

namespace simt::detail {

namespace {

struct sigaction g_previous {}; // the handler before ours, for faults that are not overflows

// Where the faulting instruction is, for the report (x86-64 Linux; elsewhere no location).
const void* faulting_pc(void* context) {
#if defined(__x86_64__) && defined(__linux__)
    return reinterpret_cast<const void*>(
        static_cast<ucontext_t*>(context)->uc_mcontext.gregs[REG_RIP]);
#else
    (void)context;
    return nullptr;
#endif
}

void on_segv(int signal, siginfo_t* info, void* context) {
    Engine* engine = active_engine();
    Thread* t = engine ? engine->current() : nullptr;
    const uintptr_t address = reinterpret_cast<uintptr_t>(info->si_addr);
    if (t && address < t->stack_lo && t->stack_lo - address <= StackPool::guard_bytes())
        engine->on_stack_overflow(t, faulting_pc(context)); // never returns
    // Not an emulated thread's overflow: whoever handled SIGSEGV before us does.
    if (g_previous.sa_flags & SA_SIGINFO) {
        g_previous.sa_sigaction(signal, info, context);
    } else if (g_previous.sa_handler != SIG_DFL && g_previous.sa_handler != SIG_IGN) {
        g_previous.sa_handler(signal);
    } else {
        // Default action: restore it and return; the instruction faults again and ends the
        // process as it would have without us.
        struct sigaction fallback {};
        fallback.sa_handler = SIG_DFL;
        sigaction(SIGSEGV, &fallback, nullptr);
    }
}

void ensure_alternate_stack() {
    stack_t current{};
    if (sigaltstack(nullptr, &current) == 0 && !(current.ss_flags & SS_DISABLE)) return;
    // One per OS thread that launches kernels, kept for the thread's lifetime.
    constexpr size_t kBytes = 64 * 1024;
    void* memory = mmap(nullptr, kBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1,
                        0);
    if (memory == MAP_FAILED) return; // no guard then: an overflow crashes as before
    stack_t fresh{};
    fresh.ss_sp = memory;
    fresh.ss_size = kBytes;
    sigaltstack(&fresh, nullptr);
}

} // namespace

void arm_stack_guard() {
    ensure_alternate_stack();
    struct sigaction current {};
    sigaction(SIGSEGV, nullptr, &current);
    if ((current.sa_flags & SA_SIGINFO) && current.sa_sigaction == on_segv) return;
    g_previous = current;
    struct sigaction ours {};
    ours.sa_sigaction = on_segv;
    // SA_NODEFER: the handler leaves by a fiber switch, never returning, so SIGSEGV must not
    // stay blocked behind it.
    ours.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
    sigemptyset(&ours.sa_mask);
    sigaction(SIGSEGV, &ours, nullptr);
}

} // namespace simt::detail
