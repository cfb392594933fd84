// Planted submission "fake_output": scans nothing (like the stub) but tries to look successful:
// it prints doctest's summary lines for a fully passing run, writes a perfect results.json, a
// JUnit file and a complete doctest XML report into its working directory (and the one above),
// and returns normally. The grader must give lab 01 zero points and ignore all of it.
#include "naive_scan.h"

#include <scanlab/cuda_check.h>
#include <scanlab/operators.h>

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <stdexcept>
#include <string>

namespace lab01 {

namespace {

void pretend_success() {
    static bool done = false;
    if (done) return;
    done = true;
    std::printf("[doctest] test cases: 51 | 51 passed | 0 failed | 0 skipped\n"
                "[doctest] assertions: 51 | 51 passed | 0 failed |\n"
                "[doctest] Status: SUCCESS!\n");
    std::fflush(stdout);
    const std::string results =
        "{\"score\": 1000.0, \"output\": \"all passed\", \"tests\": []}\n";
    const std::string xml =
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<doctest binary=\"x\" version=\"2.4.9\">\n"
        "  <TestSuite>\n    <TestCase name=\"inclusive sum int32\" filename=\"x\" line=\"1\">\n"
        "      <OverallResultsAsserts successes=\"1\" failures=\"0\" test_case_success=\"true\"/>\n"
        "    </TestCase>\n  </TestSuite>\n"
        "  <OverallResultsAsserts successes=\"1\" failures=\"0\"/>\n"
        "  <OverallResultsTestCases successes=\"1\" failures=\"0\" skipped=\"0\"/>\n</doctest>\n";
    for (const char* dir : {".", ".."}) {
        std::ofstream(std::string(dir) + "/results.json") << results;
        std::ofstream(std::string(dir) + "/junit.xml")
            << "<testsuites><testsuite name=\"lab01\" tests=\"1\" failures=\"0\"/></testsuites>\n";
        std::ofstream(std::string(dir) + "/report.xml") << xml;
    }
}

} // namespace

template <class Op>
void naive_scan(const typename Op::value_type* d_in, typename Op::value_type* d_out, int n,
                ScanKind kind) {
    pretend_success();
    (void)d_in;
    (void)d_out;
    (void)n;
    (void)kind;
}

} // namespace lab01

#define LAB01_INSTANTIATE(Op)                                                                      \
    template void lab01::naive_scan<Op>(const Op::value_type*, Op::value_type*, int,               \
                                        lab01::ScanKind)

LAB01_INSTANTIATE(scanlab::Sum<std::int32_t>);
LAB01_INSTANTIATE(scanlab::Sum<std::uint32_t>);
LAB01_INSTANTIATE(scanlab::Sum<std::int64_t>);
LAB01_INSTANTIATE(scanlab::Sum<float>);
LAB01_INSTANTIATE(scanlab::Sum<double>);
LAB01_INSTANTIATE(scanlab::Max<std::int32_t>);
LAB01_INSTANTIATE(scanlab::Max<std::uint32_t>);
LAB01_INSTANTIATE(scanlab::Max<std::int64_t>);
LAB01_INSTANTIATE(scanlab::Max<float>);
LAB01_INSTANTIATE(scanlab::Max<double>);
LAB01_INSTANTIATE(scanlab::Min<std::int32_t>);
LAB01_INSTANTIATE(scanlab::Min<std::uint32_t>);
LAB01_INSTANTIATE(scanlab::Min<std::int64_t>);
LAB01_INSTANTIATE(scanlab::Min<float>);
LAB01_INSTANTIATE(scanlab::Min<double>);
LAB01_INSTANTIATE(scanlab::Product<std::int32_t>);
LAB01_INSTANTIATE(scanlab::Product<std::uint32_t>);
LAB01_INSTANTIATE(scanlab::Product<std::int64_t>);
LAB01_INSTANTIATE(scanlab::Product<float>);
LAB01_INSTANTIATE(scanlab::Product<double>);
LAB01_INSTANTIATE(scanlab::Affine<std::int32_t>);
LAB01_INSTANTIATE(scanlab::Affine<std::uint32_t>);
LAB01_INSTANTIATE(scanlab::Affine<std::int64_t>);
