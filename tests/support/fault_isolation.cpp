// Keeps one faulting test case from failing every case after it. A kernel fault (an access out
// of bounds, a race the emulator reports, a deadlock, ...) leaves the device's error sticky, as
// on a GPU: every later CUDA call of the program returns it, so each later case would fail with
// the first case's error as if it were its own. A doctest listener resets the device after each
// case that left a sticky error: the emulator clears its error state; a GPU gets
// cudaDeviceReset(), after which the process can usually use it again. Where it cannot (a GPU
// after a trap), the run stops after that case: the cases after it are not run, and the summary
// says so and how to run them in a fresh process (doctest's --first). The first fault of a failed
// case is remembered for the run's summary (test_main.cpp prints it).
#include <doctest/doctest.h>

#include <cuda_runtime.h>

#include <string>

#include "scan_test_support.h"

#ifdef SCANLAB_BACKEND_SIMT
#include "simt/report.h"
#endif

namespace scanlab::test {
namespace {

std::string& running_case() {
    static std::string name;
    return name;
}

struct FirstFault {
    std::string test_case;
    std::string error;
    int faulted_cases = 0;
    std::string lost_after; // the case after which a GPU could not be reset: the run stops there
    int lost_index = 0;     // its position among the cases the run selected, from 1
};

FirstFault& first_fault() {
    static FirstFault fault;
    return fault;
}

// The first line of the emulator's report ("simt: shared memory race in kernel ..."), if any.
std::string report_headline() {
#ifdef SCANLAB_BACKEND_SIMT
    const std::string& message = simt::last_fault().message;
    return message.substr(0, message.find('\n'));
#else
    return "";
#endif
}

class FaultIsolation : public doctest::IReporter {
  public:
    explicit FaultIsolation(const doctest::ContextOptions&) {}

    void test_case_start(const doctest::TestCaseData& data) override {
        running_case() = data.m_name;
        ++started_;
    }
    void test_case_end(const doctest::CurrentTestCaseStats& stats) override {
        FirstFault& fault = first_fault();
        if (!fault.lost_after.empty()) return; // nothing to reset any more
        // A non-sticky error of this case (a rejected launch) is not the next case's either.
        (void)cudaGetLastError();
        cudaError_t error = cudaDeviceSynchronize();
        if (error == cudaSuccess) error = cudaGetLastError();
        if (error == cudaSuccess) return;
        if (!stats.testCaseSuccess) { // a case that expects its fault and passes is not news
            if (fault.faulted_cases++ == 0) {
                fault.test_case = running_case();
                const std::string headline = report_headline();
                fault.error = headline.empty() ? cudaGetErrorString(error) : headline;
            }
        }
#ifdef SCANLAB_BACKEND_SIMT
        simt::reset_device();
#else
        (void)cudaDeviceReset();
        if (cudaFree(nullptr) != cudaSuccess || cudaGetLastError() != cudaSuccess) {
            fault.lost_after = running_case();
            fault.lost_index = started_;
            // Every later case would fail with this fault: stop the run after this case (doctest
            // checks abort_after right after the listeners' test_case_end). A faulted case that
            // passed has no failed assertion to count; its successors then fail as before.
            auto* options = const_cast<doctest::ContextOptions*>(doctest::getContextOptions());
            if (!stats.testCaseSuccess) options->abort_after = 1;
        }
#endif
    }

    void report_query(const doctest::QueryData&) override {}
    void test_run_start() override {}
    void test_run_end(const doctest::TestRunStats&) override {}
    void test_case_reenter(const doctest::TestCaseData&) override {}
    void test_case_exception(const doctest::TestCaseException&) override {}
    void subcase_start(const doctest::SubcaseSignature&) override {}
    void subcase_end() override {}
    void log_assert(const doctest::AssertData&) override {}
    void log_message(const doctest::MessageData&) override {}
    void test_case_skipped(const doctest::TestCaseData&) override {}

  private:
    int started_ = 0;
};

REGISTER_LISTENER("scanlab_fault_isolation", 1, FaultIsolation);

} // namespace

std::string current_test_case() {
    return running_case();
}

std::string first_fault_summary() {
    const FirstFault& fault = first_fault();
    if (fault.faulted_cases == 0) return "";
    std::string text = "scanlab: the first kernel fault was in test case \"" + fault.test_case +
                       "\": " + fault.error;
    if (!fault.lost_after.empty())
        return text + "\nscanlab: the GPU could not be reset after test case \"" +
               fault.lost_after +
               "\" (cudaDeviceReset failed after its fault), so the cases after it were NOT RUN: "
               "fix that one first, or run the others in a fresh process by adding --first=" +
               std::to_string(fault.lost_index + 1) + " to the same command";
    return text + " (" + std::to_string(fault.faulted_cases) +
           " failed case(s) faulted; the device was reset after each, so no case failed with " +
           "another case's fault)";
}

} // namespace scanlab::test
