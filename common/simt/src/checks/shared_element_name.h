// How reports name a place in a __shared__ variable: the element the kernel indexed ("s[32][0]",
// "s[-1]"), and what the variable is ("'s' (4224 bytes: float[32][33])"). Dynamic shared memory
// has no name the runtime knows; it is named as such, with the element type of its first view.
#pragma once

#include <cstddef>
#include <string>

namespace simt::detail {

struct SharedAllocation;

// The element at `byte` bytes from the start of `v` (negative: before it), as the kernel would
// index it: "s[256]", "s[32][0]", "element [1025] (float)" (of the dynamic shared memory, in
// the element type of its first view); or "byte 5 of 's'" where the byte does not start an
// element, or the type is not known.
std::string shared_element_name(const SharedAllocation& v, std::ptrdiff_t byte);

// "'s' (1024 bytes: float[256])", "the dynamic shared memory (8192 bytes given at launch)".
std::string shared_variable_summary(const SharedAllocation& v);

} // namespace simt::detail
