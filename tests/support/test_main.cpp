// doctest main for the graded lab tests: prints the seed (so any failure can be reproduced),
// on the cuda backend skips cleanly when the machine has no GPU, and ends a failing run with a
// summary (failure_summary.h; --verbose prints every failing case's report in full). doctest's
// implementation is doctest_implementation.cpp, compiled with this file.
#include <doctest/doctest.h>

#include "failure_summary.h"
#include "scan_test_support.h"

#include <scanlab/program_start.h>

#include <cstdio>
#include <cstring>
#include <exception>
#include <string>

namespace {

// Takes --verbose out of argv (doctest would ignore it silently); true if it was there.
bool take_verbose_flag(int& argc, char** argv) {
    bool found = false;
    int kept = 1;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--verbose") == 0)
            found = true;
        else
            argv[kept++] = argv[i];
    }
    argc = kept;
    return found;
}

} // namespace

int main(int argc, char** argv) {
    // Whole lines on both streams, whatever they are connected to: the emulator's reports go to
    // stderr, the tests' to stdout, and a pipe would otherwise get stdout in 4 KiB pieces with
    // stderr's lines spliced into the middle of its lines.
    std::setvbuf(stdout, nullptr, _IOLBF, 1 << 16);
    std::setvbuf(stderr, nullptr, _IOLBF, 1 << 16);
    if (!scanlab::take_emulator_flags(argc, argv)) return 2; // --simt-mode=..., docs/emulator.md
    scanlab::test::set_verbose_failures(take_verbose_flag(argc, argv));
    if (const std::string why = scanlab::missing_gpu(); !why.empty()) {
        std::printf("SKIPPED: no CUDA device (%s); these tests need a GPU on the cuda backend. "
                    "The simt backend runs them on the CPU.\n",
                    why.c_str());
        return 77; // ctest: SKIP_RETURN_CODE
    }

    unsigned long long seed = 0;
    try {
        seed = scanlab::test::seed();
    } catch (const std::exception& error) {
        std::fprintf(stderr, "%s\n", error.what());
        return 2;
    }
    std::printf("scanlab test seed: %llu (set SCANLAB_SEED=%llu to rerun with the same inputs)\n",
                seed, seed);
    std::fflush(stdout);

    doctest::Context context(argc, argv);
    const int result = context.run();
    if (context.shouldExit()) return result; // --help, --list-test-cases, ...
    std::fflush(stderr);
    if (const std::string fault = scanlab::test::first_fault_summary(); !fault.empty())
        std::printf("%s\n", fault.c_str());
    const std::string reproduce =
        "scanlab: some tests failed; to reproduce: SCANLAB_SEED=" + std::to_string(seed);
    if (const std::string summary = scanlab::test::failure_summary(reproduce); !summary.empty())
        std::printf("%s\n", summary.c_str());
    else if (result != 0)
        std::printf("%s\n", reproduce.c_str());
    return result;
}
