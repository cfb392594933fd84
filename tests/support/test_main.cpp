// doctest main for the graded lab tests: prints the seed (so any failure can be reproduced),
// and on the cuda backend skips cleanly when the machine has no GPU. doctest's implementation is
// doctest_implementation.cpp, compiled with this file.
#include <doctest/doctest.h>

#include "scan_test_support.h"

#include <scanlab/program_start.h>

#include <cstdio>
#include <exception>
#include <string>

int main(int argc, char** argv) {
    if (!scanlab::take_emulator_flags(argc, argv)) return 2; // --simt-mode=..., docs/emulator.md
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
    if (const std::string fault = scanlab::test::first_fault_summary(); !fault.empty())
        std::printf("%s\n", fault.c_str());
    if (result != 0)
        std::printf("scanlab: some tests failed; to reproduce: SCANLAB_SEED=%llu\n", seed);
    return result;
}
