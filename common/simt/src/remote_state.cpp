#include "simt/remote_state.h"

#include <cstring>
#include <stdexcept>
#include <string>

#include "simt/options.h"
#include "simt/report.h"

#include "checks/global_shadow.h"
#include "error_state.h"
#include "memory_registry.h"

namespace simt::remote {

using detail::memory_registry;
using detail::RegionKind;

bool find_device_allocation(const void* ptr, Allocation* found) {
    const detail::Region* region = memory_registry().find(reinterpret_cast<uintptr_t>(ptr));
    if (!region || (region->kind != RegionKind::device && region->kind != RegionKind::managed))
        return false;
    found->base = reinterpret_cast<void*>(region->base);
    found->bytes = region->bytes;
    return true;
}

std::vector<uint8_t> written_words(const void* base, size_t bytes) {
    const auto first = reinterpret_cast<uintptr_t>(base);
    std::vector<uint8_t> written((bytes + 3) / 4);
    for (size_t w = 0; w < written.size(); ++w)
        written[w] = detail::global_shadow().kernel_wrote(first + 4 * w)  ? kWrittenByKernel
                     : detail::global_shadow().initialized(first + 4 * w) ? kWritten
                                                                          : kUnwritten;
    return written;
}

void import_contents(void* base, const void* contents, size_t bytes,
                     const std::vector<uint8_t>& written) {
    std::memcpy(base, contents, bytes);
    const auto first = reinterpret_cast<uintptr_t>(base);
    // One host_wrote per run of written words: a fresh allocation has none written.
    size_t w = 0;
    while (w < written.size()) {
        if (!written[w]) {
            ++w;
            continue;
        }
        // A run of words in the same state: host-written, or left by an earlier launch.
        size_t end = w;
        while (end < written.size() && written[end] == written[w]) ++end;
        if (written[w] == kWrittenByKernel)
            detail::global_shadow().kernel_left_behind(first + 4 * w, 4 * (end - w));
        else
            detail::global_shadow().host_wrote(first + 4 * w, 4 * (end - w));
        w = end;
    }
}

const int kLastFaultKind = static_cast<int>(FaultKind::stale_read);

ErrorSnapshot error_snapshot() {
    const detail::ErrorState& state = detail::error_state();
    ErrorSnapshot snapshot{static_cast<int>(state.last),
                           static_cast<int>(state.sticky),
                           static_cast<int>(state.fault.kind),
                           static_cast<int>(state.fault.error),
                           state.fault.message,
                           state.fault.site.file,
                           state.fault.site.line,
                           {}};
    for (const Finding& finding : state.fault.findings)
        snapshot.findings.push_back({static_cast<int>(finding.kind), finding.message,
                                     finding.site.file, finding.site.line, finding.ends_launch});
    return snapshot;
}

void adopt_errors(const ErrorSnapshot& snapshot) {
    detail::ErrorState& state = detail::error_state();
    if (snapshot.last != 0) state.last = static_cast<cudaError_t>(snapshot.last);
    if (snapshot.sticky != 0) state.sticky = static_cast<cudaError_t>(snapshot.sticky);
    if (snapshot.fault_kind != 0) {
        state.fault = FaultReport{};
        state.fault.kind = static_cast<FaultKind>(snapshot.fault_kind);
        state.fault.error = static_cast<cudaError_t>(snapshot.fault_error);
        state.fault.message = snapshot.fault_message;
        state.fault.site = {snapshot.site_file, snapshot.site_line};
        for (const FindingSnapshot& finding : snapshot.findings) {
            Finding adopted;
            adopted.kind = static_cast<FaultKind>(finding.kind);
            adopted.message = finding.message;
            adopted.site = {finding.file, finding.line};
            adopted.ends_launch = finding.ends_launch;
            state.fault.findings.push_back(std::move(adopted));
        }
    }
}

std::vector<int64_t> options_numbers() {
    const Options& o = options();
    return {static_cast<int64_t>(o.mode),
            static_cast<int64_t>(o.dispatch),
            static_cast<int64_t>(o.seed),
            o.multiprocessors,
            static_cast<int64_t>(o.stack_bytes),
            static_cast<int64_t>(o.spin_limit),
            o.report_to_stderr,
            o.checks,
            o.relaxed_visibility};
}

void adopt_options(const std::vector<int64_t>& numbers) {
    const auto bad = [](const char* what) {
        return std::invalid_argument(std::string("emulator settings: ") + what);
    };
    if (numbers.size() != 9) throw bad("not the list of settings this emulator has");
    Options o;
    if (numbers[0] < 0 || numbers[0] > static_cast<int64_t>(Mode::pre_volta))
        throw bad("unknown mode");
    if (numbers[1] < 0 || numbers[1] > static_cast<int64_t>(Dispatch::shuffled))
        throw bad("unknown dispatch order");
    if (numbers[3] < 1 || numbers[3] > 1024) throw bad("multiprocessors out of range");
    if (numbers[4] < 4096 || numbers[4] > (int64_t{1} << 30)) throw bad("stack size out of range");
    o.mode = static_cast<Mode>(numbers[0]);
    o.dispatch = static_cast<Dispatch>(numbers[1]);
    o.seed = static_cast<uint64_t>(numbers[2]);
    o.multiprocessors = static_cast<int>(numbers[3]);
    o.stack_bytes = static_cast<size_t>(numbers[4]);
    o.spin_limit = static_cast<uint64_t>(numbers[5]);
    o.report_to_stderr = numbers[6] != 0;
    o.checks = numbers[7] != 0;
    o.relaxed_visibility = numbers[8] != 0;
    options() = o;
}

} // namespace simt::remote
