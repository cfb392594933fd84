// assert() in device code: glibc's assert calls __assert_fail, which this definition replaces.
// In a kernel it becomes a device-side assert (cudaErrorAssert, sticky); elsewhere it behaves as
// glibc's does.
#include <cstdio>
#include <cstdlib>
#include <string>

#include "engine.h"

extern "C" [[noreturn]] void __assert_fail(const char* expr, const char* file, unsigned line,
                                           const char* function) noexcept {
    simt::detail::Engine* e = simt::detail::active_engine();
    if (e && e->current()) {
        simt::detail::RuntimeScope scope(e->current());
        std::string what = std::string("assertion `") + expr + "` failed at " + file + ":" +
                           std::to_string(line) + " in " + function;
        try {
            e->fault(simt::FaultKind::assertion, cudaErrorAssert, what,
                     __builtin_return_address(0));
        } catch (...) {
        }
    }
    std::fprintf(stderr, "%s:%u: %s: Assertion `%s' failed.\n", file, line, function, expr);
    std::abort();
}
