// The graded tests' check that the kernels did the work: around one call of the lab's code, the
// emulator watches the graded inputs and outputs (simt/provenance.h). The call fails if an
// output was last written by host code (cudaMemcpy, cudaMemset, ...) or an input was copied to
// the host, even when the output is right. On the cuda backend nothing is checked.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace scanlab::test {

/// What host code may do during the call, in the words every failure message ends with.
extern const char* const kKernelWorkRule;

class KernelWorkWatch {
  public:
    KernelWorkWatch(); // starts watching (ending any earlier watch)
    ~KernelWorkWatch();
    KernelWorkWatch(const KernelWorkWatch&) = delete;
    KernelWorkWatch& operator=(const KernelWorkWatch&) = delete;

    /// `count` elements at `device_ptr` are a graded input (no copy of them may reach the host).
    template <class T>
    KernelWorkWatch& input(const T* device_ptr, std::size_t count) {
        watch_input(device_ptr, count * sizeof(T));
        return *this;
    }
    /// `count` elements at `device_ptr` are a graded output (a kernel must write them last).
    template <class T>
    KernelWorkWatch& output(const T* device_ptr, std::size_t count) {
        watch_output(device_ptr, count * sizeof(T));
        return *this;
    }

    /// Ends the watch (call it before reading anything back): empty when the kernels did the
    /// work, else "<what>: <what happened>" and the rule.
    std::string verdict(std::string_view what);

  private:
    void watch_input(const void* device_ptr, std::size_t bytes);
    void watch_output(const void* device_ptr, std::size_t bytes);
    bool open_ = true;
};

/// A device copy of a graded input that the test itself makes during the call (the input moved
/// to another alignment, say): the watch in force counts it as an input too, here and in a
/// worker process, which does not see the test's own copy. Nothing when no watch is on.
void watch_copy_of_input_bytes(const void* device_ptr, std::size_t bytes);
template <class T>
void watch_copy_of_input(const T* device_ptr, std::size_t count) {
    watch_copy_of_input_bytes(device_ptr, count * sizeof(T));
}

/// A range the watch in force watches, for the proxies of a harness whose lab code runs in a
/// worker process (tools/worker): the worker's emulator watches the same ranges during the call.
struct WatchedRange {
    bool output = false; // else an input
    const void* device_ptr = nullptr;
    std::size_t bytes = 0;
};
/// The ranges of the watch in force, or nullptr when no watch is on.
const std::vector<WatchedRange>* active_kernel_work_watch();
/// What the watch of a call run in a worker process saw ("the output was written by host
/// code ..."): the watch in force reports it in its verdict.
void note_remote_kernel_work(const std::string& seen);

} // namespace scanlab::test
