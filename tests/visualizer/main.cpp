// The visualizer's tests: models (no window), the app in a real window, the headless mode. The
// window and headless tests need a display: CTest runs them under Xvfb (run_under_xvfb.sh).
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <system_error>

#include "test_paths.h"

int main(int argc, char** argv) {
    const int result = doctest::Context(argc, argv).run();
    // The pictures and files the tests wrote, unless they are to be kept.
    const char* keep = std::getenv("SCANLAB_VIEW_TEST_OUT");
    if (!keep || !*keep) {
        std::error_code error;
        std::filesystem::remove_all(scanlab::view::test::scratch("").parent_path(), error);
    }
    return result;
}
