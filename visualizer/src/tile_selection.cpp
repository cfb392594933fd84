#include "tile_selection.h"

#include <algorithm>

namespace scanlab::view {

void select_tile(const LoadedTrace& loaded, Selection& selection, std::uint32_t tile) {
    selection.tile = tile;
    const auto owner = loaded.lookback.owner_of(tile);
    if (!owner) return;
    const int position = loaded.index.block_position(*owner);
    if (position < 0 || static_cast<std::uint32_t>(position) == selection.block) return;
    selection.block = static_cast<std::uint32_t>(position);
    selection.cursor = cursor_end(loaded.index.block(selection.block));
}

std::optional<std::uint32_t> neighbour_tile(const LoadedTrace& loaded,
                                            std::optional<std::uint32_t> current, int direction) {
    const auto& tiles = loaded.lookback.tiles();
    if (tiles.empty()) return std::nullopt;
    if (!current) return direction > 0 ? tiles.front() : tiles.back();
    if (direction > 0) {
        auto it = std::upper_bound(tiles.begin(), tiles.end(), *current);
        return it == tiles.end() ? tiles.front() : *it;
    }
    auto it = std::lower_bound(tiles.begin(), tiles.end(), *current);
    return it == tiles.begin() ? tiles.back() : *(it - 1);
}

} // namespace scanlab::view
