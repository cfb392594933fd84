// The two programs' backend on the emulator (remote_backend.h): simt/remote_state.h.
#include "remote_backend.h"

#include <simt/provenance.h>
#include <simt/remote_state.h>
#include <simt/report.h>

#include <cstring>

namespace scanlab::remote::backend {

const bool kEmulator = true;

bool find_device_allocation(const void* ptr, Allocation* found) {
    simt::remote::Allocation allocation;
    if (!simt::remote::find_device_allocation(ptr, &allocation)) return false;
    found->base = allocation.base;
    found->bytes = allocation.bytes;
    return true;
}

// The emulator's device memory is this process's memory: read as it is.
std::vector<std::uint8_t> read_device(const void* base, std::size_t bytes) {
    const auto* first = static_cast<const std::uint8_t*>(base);
    return std::vector<std::uint8_t>(first, first + bytes);
}

std::vector<std::uint8_t> written_words(const void* base, std::size_t bytes) {
    return simt::remote::written_words(base, bytes);
}

void import_contents(void* base, const void* contents, std::size_t bytes,
                     const std::vector<std::uint8_t>& written) {
    simt::remote::import_contents(base, contents, bytes, written);
}

int last_fault_kind() {
    return simt::remote::kLastFaultKind;
}

std::vector<std::int64_t> options_numbers() {
    return simt::remote::options_numbers();
}
void adopt_options(const std::vector<std::int64_t>& numbers) {
    simt::remote::adopt_options(numbers);
}

void watch_begin() {
    simt::provenance_begin();
}
void watch_input(const void* p, std::size_t bytes) {
    simt::provenance_input(p, bytes);
}
void watch_output(const void* p, std::size_t bytes) {
    simt::provenance_output(p, bytes);
}
void watch_imported(const void* p, std::size_t bytes) {
    simt::provenance_imported(p, bytes);
}
std::string watch_end() {
    return simt::provenance_end();
}

void worker_start() {}
ErrorSnapshot error_snapshot(int) {
    return simt::remote::error_snapshot();
}
void after_call() {
    simt::reset_device(); // its errors went to the harness
}
bool must_end(const ErrorSnapshot&) {
    return false;
}

std::string adopt_errors(const ErrorSnapshot& errors) {
    simt::remote::adopt_errors(errors);
    return "";
}

} // namespace scanlab::remote::backend
