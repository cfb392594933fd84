// Where graded data came from during one call of a student's function: whether each word of an
// output was last written by a kernel or by host code, and whether an input went to the host.
// A graded test arms the watch around the call (tests/support/kernel_work.h), so that a scan
// computed on the host and copied in fails, even though its output is right.
#pragma once

#include <cstddef>
#include <string>

namespace simt {

// Starts a watch (ending any earlier one). While it is on, the runtime records host writes of
// device memory (cudaMemcpy / cudaMemcpyAsync to the device or device to device, cudaMemset /
// cudaMemsetAsync) with the line of the call, and kernel stores and atomics clear the record of
// the words they write.
void provenance_begin();

// [device_ptr, device_ptr + bytes) is a graded input: a device-to-host copy that reads any of
// it during the watch, or reads memory that a device-to-device copy filled from it, is recorded.
void provenance_input(const void* device_ptr, size_t bytes);

// [device_ptr, device_ptr + bytes) is a graded output: each of its 4-byte words must be written
// last by a kernel if it is written during the watch at all.
void provenance_output(const void* device_ptr, size_t bytes);

// [device_ptr, device_ptr + bytes) now holds what a call run in another process left there
// (tools/worker: the harness installs the worker's results), which that process's own watch
// judged: its words count as a kernel's, not as changes by this process's host code.
void provenance_imported(const void* device_ptr, size_t bytes);
// Ends the watch. Empty when no output word was last written by host code and no input was
// copied to the host; otherwise what happened, e.g. "the output was written by host code
// (cudaMemcpy at naive_scan.cu:42), not by a kernel: 1024 of its 1024 4-byte words were
// last written by host code".
std::string provenance_end();

} // namespace simt
