#include "error_state.h"

#include <cstdio>
#include <set>
#include <string>

#include "simt/options.h"
#include "simt/runtime_api.h"

namespace simt::detail {

ErrorState& error_state() {
    static ErrorState state;
    return state;
}

cudaError_t api_error(cudaError_t error, const std::string& call, const std::string& why) {
    error_state().last = error;
    if (options().report_to_stderr) {
        std::fflush(stdout); // what the program printed before comes before
        std::fprintf(stderr, "simt: %s failed with %s: %s\n", call.c_str(), cudaGetErrorName(error),
                     why.c_str());
    }
    return error;
}

void record_fault(const FaultReport& report) {
    ErrorState& s = error_state();
    s.fault = report;
    s.last = report.error;
    if (report.kind != FaultKind::invalid_launch) s.sticky = report.error;
    if (!options().report_to_stderr) return;
    std::fflush(stdout); // what the program printed before the fault comes before its report
    // A program that meets the same fault again (a test suite running one faulty kernel in
    // every case) gets the whole report once and a line for each repeat, so the first report
    // is not buried. The set outlives reset_device(): it is about what the reader has seen.
    static std::set<std::string> printed;
    const std::string site = report.site.to_string();
    const std::string key = to_string(report.kind) + " at " + site;
    if (site.empty() || printed.insert(key).second)
        std::fputs(report.message.c_str(), stderr);
    else
        std::fprintf(stderr, "simt: %s again (the full report is above)\n", key.c_str());
}

} // namespace simt::detail

namespace simt {

std::string to_string(FaultKind kind) {
    switch (kind) {
    case FaultKind::none:
        return "no fault";
    case FaultKind::illegal_address:
        return "illegal address";
    case FaultKind::misaligned_address:
        return "misaligned address";
    case FaultKind::barrier_divergence:
        return "barrier divergence";
    case FaultKind::warp_mask:
        return "warp intrinsic error";
    case FaultKind::deadlock:
        return "deadlock";
    case FaultKind::assertion:
        return "device assertion";
    case FaultKind::trap:
        return "trap";
    case FaultKind::unsupported:
        return "unsupported feature";
    case FaultKind::stack_overflow:
        return "stack overflow";
    case FaultKind::exception:
        return "C++ exception";
    case FaultKind::invalid_launch:
        return "invalid launch";
    case FaultKind::shared_race:
        return "shared memory race";
    case FaultKind::uninitialized_read:
        return "uninitialized shared memory read";
    case FaultKind::uninitialized_global_read:
        return "uninitialized global memory read";
    case FaultKind::global_race:
        return "global memory race";
    case FaultKind::memory_ordering:
        return "memory ordering";
    case FaultKind::plain_load_spin:
        return "spin on a plain load";
    case FaultKind::stale_read:
        return "stale value from an earlier launch";
    }
    return "fault";
}

std::string SourceSite::to_string() const {
    if (line <= 0) return "";
    const std::size_t slash = file.rfind('/');
    return (slash == std::string::npos ? file : file.substr(slash + 1)) + ":" +
           std::to_string(line);
}

const FaultReport& last_fault() {
    return detail::error_state().fault;
}

void reset_device() {
    detail::error_state() = detail::ErrorState{};
}

} // namespace simt
