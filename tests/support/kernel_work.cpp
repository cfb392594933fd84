#include "kernel_work.h"

#ifdef SCANLAB_BACKEND_SIMT
#include "simt/provenance.h"
#endif

namespace scanlab::test {
namespace {

// The watch in force (at most one, as in the emulator): its ranges, and the first verdict of a
// call that ran in a worker process.
struct WatchInForce {
    bool on = false;
    std::vector<WatchedRange> ranges;
    std::string remote_seen;
};

WatchInForce& in_force() {
    static WatchInForce watch;
    return watch;
}

[[maybe_unused]] void start_watch() {
    in_force() = WatchInForce{};
    in_force().on = true;
}

// What the watch in force saw in worker processes; ends it.
[[maybe_unused]] std::string end_watch() {
    std::string seen = std::move(in_force().remote_seen);
    in_force() = WatchInForce{};
    return seen;
}

} // namespace

const std::vector<WatchedRange>* active_kernel_work_watch() {
    return in_force().on ? &in_force().ranges : nullptr;
}

void note_remote_kernel_work(const std::string& seen) {
    if (in_force().on && in_force().remote_seen.empty()) in_force().remote_seen = seen;
}

const char* const kKernelWorkRule =
    "the scan must be done by kernels: host code may launch kernels, allocate memory, check "
    "sizes and copy small control values, but every output element must be written by a kernel "
    "from data that came from the input, and the input must not be copied to the host "
    "(docs/how-you-are-graded.md)";

#ifdef SCANLAB_BACKEND_SIMT

KernelWorkWatch::KernelWorkWatch() {
    simt::provenance_begin();
    start_watch();
}
KernelWorkWatch::~KernelWorkWatch() {
    if (!open_) return;
    simt::provenance_end();
    end_watch();
}
void KernelWorkWatch::watch_input(const void* device_ptr, std::size_t bytes) {
    simt::provenance_input(device_ptr, bytes);
    in_force().ranges.push_back({false, device_ptr, bytes});
}
void KernelWorkWatch::watch_output(const void* device_ptr, std::size_t bytes) {
    simt::provenance_output(device_ptr, bytes);
    in_force().ranges.push_back({true, device_ptr, bytes});
}
void watch_copy_of_input_bytes(const void* device_ptr, std::size_t bytes) {
    if (!in_force().on) return;
    simt::provenance_input(device_ptr, bytes);
    in_force().ranges.push_back({false, device_ptr, bytes});
}
std::string KernelWorkWatch::verdict(std::string_view what) {
    if (!open_) return "";
    open_ = false;
    std::string seen = simt::provenance_end();
    // A call that ran in a worker process (tools/worker) was watched there.
    if (std::string remote = end_watch(); seen.empty()) seen = std::move(remote);
    if (seen.empty()) return "";
    return std::string(what) + ": " + seen + "\n  " + kKernelWorkRule;
}

#else // a GPU: where results come from is not observed

KernelWorkWatch::KernelWorkWatch() = default;
KernelWorkWatch::~KernelWorkWatch() = default;
void KernelWorkWatch::watch_input(const void*, std::size_t) {}
void KernelWorkWatch::watch_output(const void*, std::size_t) {}
void watch_copy_of_input_bytes(const void*, std::size_t) {}
std::string KernelWorkWatch::verdict(std::string_view) {
    open_ = false;
    return "";
}

#endif

} // namespace scanlab::test
