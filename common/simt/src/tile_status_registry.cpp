// The tile status areas that look-back lab code announces (simt::trace_tile_status); the trace
// recorder reads them, and every build has them.
#include "tile_status_registry.h"

namespace simt {

namespace detail {

std::vector<TileStatusArea>& tile_status_areas() {
    static std::vector<TileStatusArea> areas;
    return areas;
}

} // namespace detail

void trace_tile_status(const void* descriptors, size_t tiles, TileStatusLayout layout,
                       int value_code) {
    auto& list = detail::tile_status_areas();
    const auto base = reinterpret_cast<uintptr_t>(descriptors);
    std::erase_if(list, [base](const auto& t) { return t.base == base; });
    list.push_back({base, tiles, layout, value_code});
}

void clear_tile_status() {
    detail::tile_status_areas().clear();
}

} // namespace simt
