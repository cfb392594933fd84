#include "error_state.h"

#include <cstdio>

#include "simt/options.h"
#include "simt/runtime_api.h"

namespace simt::detail {

ErrorState& error_state() {
    static ErrorState state;
    return state;
}

cudaError_t api_error(cudaError_t error, const std::string& call, const std::string& why) {
    error_state().last = error;
    if (options().report_to_stderr)
        std::fprintf(stderr, "simt: %s failed with %s: %s\n", call.c_str(), cudaGetErrorName(error),
                     why.c_str());
    return error;
}

void record_fault(const FaultReport& report) {
    ErrorState& s = error_state();
    s.fault = report;
    s.last = report.error;
    if (report.kind != FaultKind::invalid_launch) s.sticky = report.error;
    if (options().report_to_stderr) std::fputs(report.message.c_str(), stderr);
}

} // namespace simt::detail

namespace simt {

std::string to_string(FaultKind kind) {
    switch (kind) {
    case FaultKind::none: return "no fault";
    case FaultKind::illegal_address: return "illegal address";
    case FaultKind::misaligned_address: return "misaligned address";
    case FaultKind::barrier_divergence: return "barrier divergence";
    case FaultKind::warp_mask: return "warp intrinsic error";
    case FaultKind::deadlock: return "deadlock";
    case FaultKind::assertion: return "device assertion";
    case FaultKind::trap: return "trap";
    case FaultKind::unsupported: return "unsupported feature";
    case FaultKind::stack_overflow: return "stack overflow";
    case FaultKind::exception: return "exception in kernel";
    case FaultKind::invalid_launch: return "invalid launch";
    case FaultKind::shared_race: return "shared memory race";
    case FaultKind::uninitialized_read: return "uninitialized shared memory read";
    case FaultKind::uninitialized_global_read: return "uninitialized global memory read";
    case FaultKind::global_race: return "global memory race";
    case FaultKind::memory_ordering: return "memory ordering";
    case FaultKind::plain_load_spin: return "spin on a plain load";
    case FaultKind::stale_read: return "stale value from an earlier launch";
    }
    return "fault";
}

const FaultReport& last_fault() { return detail::error_state().fault; }

void reset_device() { detail::error_state() = detail::ErrorState{}; }

} // namespace simt
