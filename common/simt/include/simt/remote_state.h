// What a lab call run in another process (tools/worker: the graded tests in a trusted harness,
// the student's code in a sandboxed worker) needs from the emulator on either side: the device
// allocation a pointer lies in, which of its words were ever written, copying contents in
// without counting as a host write of the call, and the error state a call leaves behind.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace simt::remote {

struct Allocation {
    void* base = nullptr;
    size_t bytes = 0;
};

// The device or managed allocation that contains `ptr` (false if none does).
bool find_device_allocation(const void* ptr, Allocation* found);

// One byte per 4-byte word of [base, base + bytes): kUnwritten where reading it would be an
// uninitialized read, kWritten where the host wrote it last, kWrittenByKernel where a kernel
// of an earlier launch did (a strong read of it before a write is then a stale read).
inline constexpr uint8_t kUnwritten = 0;
inline constexpr uint8_t kWritten = 1;
inline constexpr uint8_t kWrittenByKernel = 2;
std::vector<uint8_t> written_words(const void* base, size_t bytes);

// Copies `bytes` bytes into device memory at `base` and marks the words `written` names as
// written (by the host, or left by an earlier kernel, as written_words says) before the call: no
// provenance record (that is the harness's business, not a host write of the lab's code), no
// uninitialized read later.
void import_contents(void* base, const void* contents, size_t bytes,
                     const std::vector<uint8_t>& written);

// A finding of the fault report, without the threads' accesses (no test reads those).
struct FindingSnapshot {
    int kind = 0;
    std::string message;
    std::string file;
    int line = 0;
    bool ends_launch = false;
};
// The error state a call left: the last (non-sticky) and sticky errors, and the fault report's
// kind, error, text, site and findings.
struct ErrorSnapshot {
    int last = 0;
    int sticky = 0;
    int fault_kind = 0;
    int fault_error = 0;
    std::string fault_message;
    std::string site_file;
    int site_line = 0;
    std::vector<FindingSnapshot> findings;
};
ErrorSnapshot error_snapshot();
// The largest value of simt::FaultKind (a received kind beyond it is not one).
extern const int kLastFaultKind;
// Makes this process's error state what `snapshot` says (where it names an error), as if the
// call had failed here; prints nothing (the process that ran the call printed its report).
void adopt_errors(const ErrorSnapshot& snapshot);

// The emulator's settings (simt::options()) as numbers, and back: a call run in another process
// runs under the settings of the one that makes it (tests change them: lab 07's schedules).
std::vector<int64_t> options_numbers();
// Throws std::invalid_argument for a list that is not options_numbers()'s.
void adopt_options(const std::vector<int64_t>& numbers);

} // namespace simt::remote
