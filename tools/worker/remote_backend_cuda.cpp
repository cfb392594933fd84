// The two programs' backend on a GPU (remote_backend.h): the harness finds the allocation a
// pointer lies in with the driver API (cuMemGetAddressRange, from the driver the CUDA runtime
// loads: not linked, so that a harness on a machine without a driver still starts and says
// "no GPU" as the test programs do) and copies it with cudaMemcpy; there is no written-word
// map, no emulator setting, no kernel-work watch and no trace (as in one test program on cuda).
// A CUDA error of the worker's call comes back as the call's error: the harness cannot take it
// into its own context, so its proxy throws it; after a sticky error the worker ends and the
// harness starts a fresh one for the next call.
#include "remote_backend.h"

#include <cuda.h> // the driver API's types only
#include <cuda_runtime.h>

#include <dlfcn.h>

#include <cstdlib>
#include <stdexcept>
#include <string>

namespace scanlab::remote::backend {
namespace {

std::string error_words(int code) {
    const auto error = static_cast<cudaError_t>(code);
    const char* name = cudaGetErrorName(error);
    const char* text = cudaGetErrorString(error);
    return std::string(name ? name : "an unknown CUDA error") + " (" + (text ? text : "?") + ")";
}

// The driver's cuMemGetAddressRange (cuda.h names the function it means by it
// cuMemGetAddressRange_v2), from libcuda.so.1, which the runtime has loaded by now; nullptr
// where there is none.
using AddressRange = CUresult (*)(CUdeviceptr*, std::size_t*, CUdeviceptr);
AddressRange address_range() {
    static const AddressRange function = [] {
        void* driver = ::dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
        return driver ? reinterpret_cast<AddressRange>(::dlsym(driver, "cuMemGetAddressRange_v2"))
                      : nullptr;
    }();
    return function;
}

void check(cudaError_t error, const char* what) {
    if (error != cudaSuccess) {
        (void)cudaGetLastError();
        throw std::runtime_error(std::string(what) + " failed: " + error_words(error));
    }
}

} // namespace

const bool kEmulator = false;

bool find_device_allocation(const void* ptr, Allocation* found) {
    if (!ptr) return false;
    (void)cudaFree(nullptr); // the runtime's context is current (the driver API needs one)
    cudaPointerAttributes attributes{};
    if (cudaPointerGetAttributes(&attributes, ptr) != cudaSuccess) {
        (void)cudaGetLastError(); // not memory CUDA knows: not an error of the call
        return false;
    }
    if (attributes.type != cudaMemoryTypeDevice && attributes.type != cudaMemoryTypeManaged)
        return false;
    const AddressRange range = address_range();
    if (!range)
        throw std::runtime_error("the CUDA driver (libcuda.so.1) has no cuMemGetAddressRange_v2: "
                                 "the harness cannot find the device memory of a call");
    CUdeviceptr base = 0;
    std::size_t bytes = 0;
    if (range(&base, &bytes, reinterpret_cast<CUdeviceptr>(ptr)) != CUDA_SUCCESS) return false;
    found->base = reinterpret_cast<void*>(base);
    found->bytes = bytes;
    return true;
}

std::vector<std::uint8_t> read_device(const void* base, std::size_t bytes) {
    std::vector<std::uint8_t> contents(bytes);
    if (bytes > 0)
        check(cudaMemcpy(contents.data(), base, bytes, cudaMemcpyDeviceToHost),
              "copying a call's device memory to the host");
    return contents;
}

std::vector<std::uint8_t> written_words(const void*, std::size_t) {
    return {};
}

void import_contents(void* base, const void* contents, std::size_t bytes,
                     const std::vector<std::uint8_t>&) {
    if (bytes > 0)
        check(cudaMemcpy(base, contents, bytes, cudaMemcpyHostToDevice),
              "copying a call's memory to the device");
}

int last_fault_kind() {
    return 0;
}

std::vector<std::int64_t> options_numbers() {
    return {};
}
void adopt_options(const std::vector<std::int64_t>& numbers) {
    if (!numbers.empty())
        throw std::invalid_argument("emulator settings sent to a worker that runs on a GPU");
}

void watch_begin() {}
void watch_input(const void*, std::size_t) {}
void watch_output(const void*, std::size_t) {}
void watch_imported(const void*, std::size_t) {}
std::string watch_end() {
    return "";
}

void worker_start() {
    // Every kernel is loaded with the context, now: a module loaded lazily by the first launch
    // of a call would count as device memory the call left allocated (a leak).
    ::setenv("CUDA_MODULE_LOADING", "EAGER", 1);
    (void)cudaFree(nullptr);
    (void)cudaGetLastError();
}

ErrorSnapshot error_snapshot(int synchronized) {
    ErrorSnapshot errors;
    const cudaError_t last = cudaGetLastError(); // and clears a launch error for the next call
    if (synchronized != cudaSuccess) {
        errors.sticky = synchronized; // the context is gone: the worker ends after answering
        errors.fault_error = synchronized;
    }
    errors.last = last != cudaSuccess ? static_cast<int>(last) : synchronized;
    if (errors.last != 0) errors.fault_message = error_words(errors.last);
    return errors;
}

void after_call() {}

bool must_end(const ErrorSnapshot& errors) {
    return errors.sticky != 0;
}

std::string adopt_errors(const ErrorSnapshot& errors) {
    // The harness names the error from the code (the worker's text is not needed).
    if (errors.sticky != 0)
        return "a kernel of the lab's code failed: " + error_words(errors.sticky) +
               ", returned by cudaDeviceSynchronize() after the call (it ran in the worker "
               "process, which ends with it; the next call gets a fresh one)";
    if (errors.last != 0)
        return "a CUDA call or launch of the lab's code failed: " + error_words(errors.last) +
               " (cudaGetLastError() after the call, in the worker process)";
    return "";
}

} // namespace scanlab::remote::backend
