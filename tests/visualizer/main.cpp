// The visualizer's tests: models (no window), the app in a real window, the headless mode. The
// window and headless tests need a display: CTest runs them under Xvfb (run_under_xvfb.sh).
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
