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

// One byte per 4-byte word of [base, base + bytes): 1 where the word was ever written (by the
// host or a kernel), 0 where reading it would be an uninitialized read.
std::vector<uint8_t> written_words(const void* base, size_t bytes);

// Copies `bytes` bytes into device memory at `base` and marks the words `written` names as
// written by the host before the call: no provenance record (that is the harness's business,
// not a host write of the lab's code), no uninitialized read later.
void import_contents(void* base, const void* contents, size_t bytes,
                     const std::vector<uint8_t>& written);

// The error state a call left: the last (non-sticky) and sticky errors, and the fault report's
// kind, error and text.
struct ErrorSnapshot {
    int last = 0;
    int sticky = 0;
    int fault_kind = 0;
    int fault_error = 0;
    std::string fault_message;
};
ErrorSnapshot error_snapshot();
// The largest value of simt::FaultKind (a received kind beyond it is not one).
extern const int kLastFaultKind;
// Makes this process's error state what `snapshot` says (where it names an error), as if the
// call had failed here; prints nothing (the process that ran the call printed its report).
void adopt_errors(const ErrorSnapshot& snapshot);

} // namespace simt::remote
