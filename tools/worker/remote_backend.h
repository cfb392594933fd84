// What the two programs need from the backend they run on (README.md), behind one interface:
// remote_backend_simt.cpp (the emulator: simt/remote_state.h) or remote_backend_cuda.cpp (a GPU:
// the CUDA runtime and driver API), chosen at build time (worker_targets.cmake). Everything
// else in tools/worker is the same on both backends.
#pragma once

#include "remote_call.h"

#include <simt/remote_state.h> // the error snapshot's types (plain structs, on both backends)

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace scanlab::remote::backend {

using simt::remote::ErrorSnapshot;
using simt::remote::FindingSnapshot;

/// simt: a device region carries its written-word map (one byte per 4-byte word), and the
/// kernel-work watch, the emulator's settings and traces travel with a call; cuda: none of them
/// exists (a device region's map is empty, and the wire format accepts only an empty one).
extern const bool kEmulator;

struct Allocation {
    void* base = nullptr;
    std::size_t bytes = 0;
};
/// The device (or managed) allocation that contains `ptr` (false if none does).
bool find_device_allocation(const void* ptr, Allocation* found);
/// The contents of `bytes` bytes of device memory at `base`.
std::vector<std::uint8_t> read_device(const void* base, std::size_t bytes);
/// Their written-word map (simt/remote_state.h; empty on cuda).
std::vector<std::uint8_t> written_words(const void* base, std::size_t bytes);
/// A device block of `bytes` bytes at `base` as a call ships it: its contents and (on the
/// emulator) its written words.
inline Region device_block(const void* base, std::size_t bytes) {
    Region block;
    block.memory = Memory::device;
    block.contents = read_device(base, bytes);
    block.written = written_words(base, bytes);
    return block;
}
/// Copies `bytes` bytes into device memory at `base` (with the written-word map on simt), not
/// as a host write of the call.
void import_contents(void* base, const void* contents, std::size_t bytes,
                     const std::vector<std::uint8_t>& written);

/// The largest fault kind an answer may name (0 on cuda: no fault report).
int last_fault_kind();

/// The emulator's settings as numbers (empty on cuda), and back (on cuda: only an empty list).
std::vector<std::int64_t> options_numbers();
void adopt_options(const std::vector<std::int64_t>& numbers);

/// Worker: the kernel-work watch around the call (nothing on cuda).
void watch_begin();
void watch_input(const void* p, std::size_t bytes);
void watch_output(const void* p, std::size_t bytes);
std::string watch_end();
/// Harness: [p, p + bytes) now holds what the worker's call left there, which the worker's own
/// watch judged: not a change by the harness's host code (nothing on cuda).
void watch_imported(const void* p, std::size_t bytes);

/// Worker, once before it says it is ready (cuda: the CUDA context, created now).
void worker_start();
/// Worker, after the call and its cudaDeviceSynchronize (which returned `synchronized`): the
/// error state the call left.
ErrorSnapshot error_snapshot(int synchronized);
/// Worker, after the answer is made: the next call starts clean (simt: reset_device).
void after_call();
/// Worker: the call left the device unusable (cuda: a sticky error), so the worker ends after
/// answering and the harness starts a fresh one for the next call.
bool must_end(const ErrorSnapshot& errors);

/// Harness: takes the worker's error state. simt: as its own (its next cudaDeviceSynchronize
/// returns the fault); returns "". cuda: a harness cannot take a CUDA error into its own
/// context: returns what went wrong ("" for nothing), which the proxy throws.
std::string adopt_errors(const ErrorSnapshot& errors);

} // namespace scanlab::remote::backend
