#include "readonly_image.h"

#include <link.h>

#include <vector>

namespace simt::detail {

namespace {
struct Range {
    uintptr_t lo, hi;
};
int collect(dl_phdr_info* info, size_t, void* data) {
    auto* ranges = static_cast<std::vector<Range>*>(data);
    for (int i = 0; i < info->dlpi_phnum; ++i) {
        const auto& ph = info->dlpi_phdr[i];
        if (ph.p_type == PT_LOAD && !(ph.p_flags & PF_W)) {
            uintptr_t lo = info->dlpi_addr + ph.p_vaddr;
            ranges->push_back(Range{lo, lo + ph.p_memsz});
        }
    }
    return 0;
}
} // namespace

bool readonly_image_contains(uintptr_t address, size_t bytes) {
    static const std::vector<Range> ranges = [] {
        std::vector<Range> r;
        dl_iterate_phdr(collect, &r);
        return r;
    }();
    for (const Range& r : ranges)
        if (address >= r.lo && address + bytes <= r.hi) return true;
    return false;
}

} // namespace simt::detail
