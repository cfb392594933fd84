#include "provenance.h"

#include <algorithm>
#include <cstring>

#include "data_flow.h"
#include "memory_registry.h"
#include "simt/provenance.h"
#include "source_lines.h"

namespace simt::detail {

namespace {

constexpr uintptr_t kWord = 4;
// An output's first 16 bytes (one element) may hold what no input decides: an exclusive scan's
// identity at out[0], which a thread may store without reading anything (lab 01's thread 0).
constexpr uintptr_t kUndecidedPrefix = 16;

std::string describe(const std::string& call, const void* caller) {
    if (!caller) return call;
    const SourceLocation where = resolve_source(caller);
    return where.file.empty() ? call : call + " at " + where.to_string();
}

} // namespace

void Provenance::begin() {
    untrack_all();
    data_flow().begin();
    armed_ = true;
    outputs_.clear();
    inputs_.clear();
    calls_.clear();
    input_read_ = false;
    input_reader_ = {};
}

void Provenance::watch_input(uintptr_t base, size_t bytes) {
    if (!armed_ || bytes == 0) return;
    inputs_.push_back({base, base + bytes});
    data_flow().mark_input(base, bytes); // what the kernels compute from
}

void Provenance::watch_output(uintptr_t base, size_t bytes) {
    if (!armed_ || bytes == 0) return;
    const uintptr_t first = base & ~(kWord - 1);
    const size_t words = (base + bytes - first + kWord - 1) / kWord;
    Output out{first, words * kWord, std::vector<uint32_t>(words, 0),
               std::vector<uint8_t>(words, 0), std::vector<uint32_t>()};
    // Only an output inside one live allocation is compared with its first contents (a range
    // that is not, such as one a call in another process does not have, is never read).
    if (memory_registry().find_range(first, words * kWord) != nullptr) {
        out.before.resize(words);
        std::memcpy(out.before.data(), reinterpret_cast<const void*>(first), words * kWord);
        // Every kernel store to the output is seen (memory_registry.h, kernel_writes_tracked),
        // so that a word changed without one is known to be host code's.
        memory_registry().track_kernel_writes(first, true);
    }
    outputs_.push_back(std::move(out));
}

uint32_t Provenance::remember(const char* call, const void* caller) {
    if (calls_.empty() || calls_.back().call != call || calls_.back().caller != caller)
        calls_.push_back({call, caller});
    return static_cast<uint32_t>(calls_.size());
}

void Provenance::host_wrote(uintptr_t dst, size_t bytes, const char* call, const void* caller) {
    if (!armed_ || bytes == 0) return;
    data_flow().mark(dst, bytes, false); // host data, not computed from the input by a kernel
    for (Output& out : outputs_) {
        const uintptr_t lo = std::max(dst, out.base);
        const uintptr_t hi = std::min(dst + bytes, out.base + out.bytes);
        if (lo >= hi) continue;
        const uint32_t writer = remember(call, caller);
        std::fill(out.host_writer.begin() + static_cast<std::ptrdiff_t>((lo - out.base) / kWord),
                  out.host_writer.begin() +
                      static_cast<std::ptrdiff_t>((hi - out.base + kWord - 1) / kWord),
                  writer);
        // From now on every kernel store to this allocation takes the general path, which
        // reports it here (memory_registry.h, kernel_writes_tracked).
        memory_registry().track_kernel_writes(out.base, true);
    }
}

bool Provenance::overlaps_input(uintptr_t first, uintptr_t last) const {
    for (const auto& [lo, hi] : inputs_)
        if (first < hi && lo < last) return true;
    return false;
}

void Provenance::host_read(uintptr_t src, size_t bytes, const char* call, const void* caller) {
    if (!armed_ || bytes == 0 || input_read_ || !overlaps_input(src, src + bytes)) return;
    input_read_ = true;
    input_reader_ = {call, caller};
}

void Provenance::host_copied(uintptr_t dst, uintptr_t src, size_t bytes, const char* call,
                             const void* caller) {
    if (!armed_ || bytes == 0) return;
    // The copy is a host write of the destination in any case; a copy of an input is an input
    // too, so that copying it to the host from there is seen.
    host_wrote(dst, bytes, call, caller);
    data_flow().copy(dst, src, bytes);
    if (overlaps_input(src, src + bytes)) inputs_.push_back({dst, dst + bytes});
}

void Provenance::kernel_wrote(uintptr_t address, size_t bytes) {
    for (Output& out : outputs_) {
        const uintptr_t lo = std::max(address, out.base);
        const uintptr_t hi = std::min(address + bytes, out.base + out.bytes);
        if (lo >= hi) continue;
        for (uintptr_t w = (lo - out.base) / kWord; w < (hi - out.base + kWord - 1) / kWord; ++w) {
            out.host_writer[w] = 0;
            out.kernel_stored[w] = 1;
        }
    }
}

void Provenance::untrack_all() {
    for (const Output& out : outputs_) memory_registry().track_kernel_writes(out.base, false);
}

std::string Provenance::end() {
    if (!armed_) return "";
    armed_ = false;
    untrack_all();
    std::string message;
    if (input_read_)
        message = "the input was copied to the host (" +
                  describe(input_reader_.call, input_reader_.caller) + ") during the call";
    size_t host_words = 0, words = 0, changed_by_host = 0, not_derived = 0;
    const bool followed = data_flow().on(); // an input was watched: the kernels computed from it
    uint32_t first_writer = 0;
    for (const Output& out : outputs_) {
        words += out.host_writer.size();
        const bool still_there = memory_registry().find_range(out.base, out.bytes) != nullptr;
        for (size_t w = 0; w < out.host_writer.size(); ++w) {
            const uint32_t writer = out.host_writer[w];
            if (writer == 0) {
                if (out.kernel_stored[w] && followed && w * kWord >= kUndecidedPrefix &&
                    !data_flow().all(out.base + w * kWord, kWord))
                    ++not_derived;
                if (out.before.empty() || !still_there) continue; // not compared
                uint32_t now = 0;
                std::memcpy(&now, reinterpret_cast<const void*>(out.base + w * kWord), kWord);
                if (!out.kernel_stored[w] && now != out.before[w]) ++changed_by_host;
                continue;
            }
            ++host_words;
            if (first_writer == 0) first_writer = writer;
        }
    }
    if (changed_by_host > 0) {
        if (!message.empty()) message += "; ";
        message += "the output was changed by host code through the device pointer, not by a "
                   "kernel: " +
                   std::to_string(changed_by_host) + " of its " + std::to_string(words) +
                   " 4-byte words changed with no kernel storing there";
    }
    if (not_derived > 0) {
        if (!message.empty()) message += "; ";
        message += "the output was not computed from the input: " + std::to_string(not_derived) +
                   " of its " + std::to_string(words) +
                   " 4-byte words were stored by kernel threads that had read nothing that came "
                   "from the input (the input itself, a device copy of it, or what such threads "
                   "stored)";
    }
    if (host_words > 0) {
        const HostCall& c = calls_[first_writer - 1];
        if (!message.empty()) message += "; ";
        message += "the output was written by host code (" + describe(c.call, c.caller) +
                   "), not by a kernel: " + std::to_string(host_words) + " of its " +
                   std::to_string(words) + " 4-byte words were last written by host code";
    }
    outputs_.clear();
    inputs_.clear();
    calls_.clear();
    data_flow().end();
    return message;
}

Provenance& provenance() {
    static Provenance watch;
    return watch;
}

} // namespace simt::detail

void simt::provenance_begin() {
    detail::provenance().begin();
}
void simt::provenance_input(const void* device_ptr, size_t bytes) {
    detail::provenance().watch_input(reinterpret_cast<uintptr_t>(device_ptr), bytes);
}
void simt::provenance_output(const void* device_ptr, size_t bytes) {
    detail::provenance().watch_output(reinterpret_cast<uintptr_t>(device_ptr), bytes);
}
void simt::provenance_imported(const void* device_ptr, size_t bytes) {
    detail::provenance().kernel_wrote(reinterpret_cast<uintptr_t>(device_ptr), bytes);
    // The other process's watch followed its data: what it sent counts as computed there.
    if (detail::provenance().armed())
        detail::data_flow().mark(reinterpret_cast<uintptr_t>(device_ptr), bytes, true);
}
std::string simt::provenance_end() {
    return detail::provenance().end();
}
