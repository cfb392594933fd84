// Text of fault reports, in the spirit of compute-sanitizer: what happened, where, by whom.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "simt/report.h"

namespace simt::detail {

std::string format_fault(FaultKind kind, const std::string& what, const std::string& thread,
                         const void* site, const void* kernel);
// Why a device access at `address` is illegal: null, freed, past the end of an allocation, or
// not device memory at all (typically a host pointer).
std::string explain_bad_address(uintptr_t address, size_t bytes, const char* verb);
std::string kernel_name(const void* kernel);

} // namespace simt::detail
