#include "simt/remote_state.h"

#include <cstring>

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
        written[w] = detail::global_shadow().initialized(first + 4 * w) ? 1 : 0;
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
        size_t end = w;
        while (end < written.size() && written[end]) ++end;
        detail::global_shadow().host_wrote(first + 4 * w, 4 * (end - w));
        w = end;
    }
}

const int kLastFaultKind = static_cast<int>(FaultKind::stale_read);

ErrorSnapshot error_snapshot() {
    const detail::ErrorState& state = detail::error_state();
    return {static_cast<int>(state.last), static_cast<int>(state.sticky),
            static_cast<int>(state.fault.kind), static_cast<int>(state.fault.error),
            state.fault.message};
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
    }
}

} // namespace simt::remote
