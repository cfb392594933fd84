// doctest main for the emulator's own tests. On the simt backend it accepts the emulator's
// --simt-* flags; on the cuda backend it skips cleanly (exit 77) where there is no GPU.
// doctest's implementation comes from the scanlab_doctest library.
#include <doctest/doctest.h>

#include <scanlab/program_start.h>

#include <cstdio>
#include <string>

int main(int argc, char** argv) {
    if (!scanlab::take_emulator_flags(argc, argv)) return 2;
    if (const std::string why = scanlab::missing_gpu(); !why.empty()) {
        std::printf("SKIPPED: no CUDA device (%s); the cuda backend's tests need a GPU\n",
                    why.c_str());
        return 77;
    }
    doctest::Context context(argc, argv);
    return context.run();
}
