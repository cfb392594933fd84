#include "kernel_work.h"

#ifdef SCANLAB_BACKEND_SIMT
#include "simt/provenance.h"
#endif

namespace scanlab::test {

const char* const kKernelWorkRule =
    "the scan must be done by kernels: host code may launch kernels, allocate memory, check "
    "sizes and copy small control values, but every output element must be written by a kernel "
    "and the input must not be copied to the host (docs/how-you-are-graded.md)";

#ifdef SCANLAB_BACKEND_SIMT

KernelWorkWatch::KernelWorkWatch() {
    simt::provenance_begin();
}
KernelWorkWatch::~KernelWorkWatch() {
    if (open_) simt::provenance_end();
}
void KernelWorkWatch::watch_input(const void* device_ptr, std::size_t bytes) {
    simt::provenance_input(device_ptr, bytes);
}
void KernelWorkWatch::watch_output(const void* device_ptr, std::size_t bytes) {
    simt::provenance_output(device_ptr, bytes);
}
std::string KernelWorkWatch::verdict(std::string_view what) {
    if (!open_) return "";
    open_ = false;
    const std::string seen = simt::provenance_end();
    if (seen.empty()) return "";
    return std::string(what) + ": " + seen + "\n  " + kKernelWorkRule;
}

#else // a GPU: where results come from is not observed

KernelWorkWatch::KernelWorkWatch() = default;
KernelWorkWatch::~KernelWorkWatch() = default;
void KernelWorkWatch::watch_input(const void*, std::size_t) {}
void KernelWorkWatch::watch_output(const void*, std::size_t) {}
std::string KernelWorkWatch::verdict(std::string_view) {
    open_ = false;
    return "";
}

#endif

} // namespace scanlab::test
