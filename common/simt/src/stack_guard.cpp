#include "stack_guard.h"

#include <signal.h>
#include <sys/mman.h>

#include <cstdint>

#include "engine.h"
#include "platform.h"
#include "stack_pool.h"

namespace simt::detail {

namespace {

// The handlers before ours, for faults that are not overflows: one per signal that a guard page
// touch may raise (platform::guard_page_signals()), found by signal number.
constexpr int kMaxSignals = 4;
struct Previous {
    int signal = 0;
    struct sigaction action {};
};
Previous g_previous[kMaxSignals];

struct sigaction* previous_for(int signal) {
    for (Previous& p : g_previous)
        if (p.signal == signal) return &p.action;
    return nullptr;
}

// Report sites are looked up as return addresses, one byte back (source_lines.cpp); the fault PC
// is the faulting instruction itself, so its next byte keeps the lookup inside it (one byte back
// from the PC would name the instruction before, which may be another line or function).
const void* report_site(const void* pc) {
    return pc ? static_cast<const char*>(pc) + 1 : nullptr;
}

void on_guard_fault(int signal, siginfo_t* info, void* context) {
    Engine* engine = active_engine();
    Thread* t = engine ? engine->current() : nullptr;
    const uintptr_t address = reinterpret_cast<uintptr_t>(info->si_addr);
    if (t && address < t->stack_lo && t->stack_lo - address <= StackPool::guard_bytes())
        engine->on_stack_overflow(t, report_site(platform::fault_pc(context))); // never returns
    // Not an emulated thread's overflow: whoever handled the signal before us does.
    const struct sigaction* previous = previous_for(signal);
    if (previous && (previous->sa_flags & SA_SIGINFO)) {
        previous->sa_sigaction(signal, info, context);
    } else if (previous && previous->sa_handler != SIG_DFL && previous->sa_handler != SIG_IGN) {
        previous->sa_handler(signal);
    } else {
        // Default action: restore it and return; the instruction faults again and ends the
        // process as it would have without us.
        struct sigaction fallback {};
        fallback.sa_handler = SIG_DFL;
        sigaction(signal, &fallback, nullptr);
    }
}

void ensure_alternate_stack() {
    stack_t current{};
    if (sigaltstack(nullptr, &current) == 0 && !(current.ss_flags & SS_DISABLE)) return;
    // One per OS thread that launches kernels, kept for the thread's lifetime.
    constexpr size_t kBytes = 64 * 1024;
    void* memory =
        mmap(nullptr, kBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (memory == MAP_FAILED) return; // no guard then: an overflow crashes as before
    stack_t fresh{};
    fresh.ss_sp = memory;
    fresh.ss_size = kBytes;
    sigaltstack(&fresh, nullptr);
}

void install_for(int signal, size_t slot) {
    struct sigaction current {};
    sigaction(signal, nullptr, &current);
    if ((current.sa_flags & SA_SIGINFO) && current.sa_sigaction == on_guard_fault) return;
    g_previous[slot].signal = signal;
    g_previous[slot].action = current;
    struct sigaction ours {};
    ours.sa_sigaction = on_guard_fault;
    // SA_NODEFER: the handler leaves by a fiber switch, never returning, so the signal must not
    // stay blocked behind it.
    ours.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
    sigemptyset(&ours.sa_mask);
    sigaction(signal, &ours, nullptr);
}

} // namespace

void arm_stack_guard() {
    ensure_alternate_stack();
    const auto signals = platform::guard_page_signals();
    for (size_t i = 0; i < signals.size() && i < kMaxSignals; ++i) install_for(signals[i], i);
}

} // namespace simt::detail
