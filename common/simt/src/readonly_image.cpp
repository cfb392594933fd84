#include "readonly_image.h"

#include <vector>

#include "platform.h"

namespace simt::detail {

bool readonly_image_contains(uintptr_t address, size_t bytes) {
    static const std::vector<platform::AddressRange> ranges = platform::readonly_image_ranges();
    for (const platform::AddressRange& r : ranges)
        if (address >= r.lo && address + bytes <= r.hi) return true;
    return false;
}

} // namespace simt::detail
