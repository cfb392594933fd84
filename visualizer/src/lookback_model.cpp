#include "lookback_model.h"

#include <algorithm>
#include <map>

#include "scanlab/trace/expected_check.h"
#include "scanlab/trace/names.h"

namespace scanlab::view {

namespace {
const std::vector<std::uint32_t> kNoTiles;

std::string value_text(trace::ValueType type, const trace::ValueBytes& value) {
    return trace::format_value(type, trace::value_type_size(type), value);
}
} // namespace

LookbackModel::LookbackModel(const trace::Trace& trace) {
    std::map<std::uint32_t, TileLookBack> by_tile;
    std::map<std::uint32_t, std::vector<std::uint32_t>> by_block;
    // Ownership first: a block's look events before its first publication belong to that tile.
    for (const auto& event : trace.block_events) {
        const auto* change = std::get_if<trace::TileFlagChange>(&event.what);
        if (!change || by_tile.count(change->tile)) continue;
        by_tile[change->tile] = TileLookBack{change->tile, event.block, {}, {}, false, {}, {}};
        by_block[event.block].push_back(change->tile);
    }
    std::map<std::uint32_t, std::uint32_t> current; // block -> the tile it works on
    for (std::size_t e = 0; e < trace.block_events.size(); ++e) {
        const auto& event = trace.block_events[e];
        if (const auto* change = std::get_if<trace::TileFlagChange>(&event.what)) {
            TileLookBack& tile = by_tile[change->tile];
            if (tile.block != event.block) continue; // another block's write: not the owner's
            current[event.block] = change->tile;
            if (change->flag == trace::TileFlag::A && !tile.own_a) tile.own_a = e;
            if (change->flag == trace::TileFlag::P && !tile.own_p) tile.own_p = e;
        } else if (const auto* look = std::get_if<trace::TileLook>(&event.what)) {
            has_reads_ = true;
            std::uint32_t reader = 0;
            if (auto it = current.find(event.block); it != current.end())
                reader = it->second;
            else if (auto owned = by_block.find(event.block); owned != by_block.end())
                reader = owned->second.front();
            else
                continue; // a block that never publishes owns no tile
            by_tile[reader].reads.push_back(LookRead{e, event.time, look->tile, *look, false});
        }
    }
    // The prefix: from the nearest predecessor back, each one's last read, until a P.
    for (auto& [tile, look_back] : by_tile) {
        std::map<std::uint32_t, std::size_t> last_read; // predecessor -> index into reads
        for (std::size_t r = 0; r < look_back.reads.size(); ++r)
            last_read[look_back.reads[r].tile] = r;
        look_back.complete = tile == 0;
        for (std::uint32_t p = tile; p-- > 0;) {
            auto it = last_read.find(p);
            if (it == last_read.end() ||
                look_back.reads[it->second].look.flag == trace::TileFlag::X)
                break;
            look_back.terms.push_back(it->second);
            look_back.reads[it->second].used = true;
            if (look_back.reads[it->second].look.flag == trace::TileFlag::P) {
                look_back.complete = true;
                break;
            }
        }
        tiles_.push_back(tile);
        look_backs_.push_back(std::move(look_back));
    }
    for (auto& entry : by_block) blocks_.emplace_back(entry.first, std::move(entry.second));
}

const std::vector<std::uint32_t>& LookbackModel::tiles_of(std::uint32_t block) const {
    auto it = std::lower_bound(blocks_.begin(), blocks_.end(), block,
                               [](const auto& entry, std::uint32_t b) { return entry.first < b; });
    return it != blocks_.end() && it->first == block ? it->second : kNoTiles;
}

std::optional<std::uint32_t> LookbackModel::owner_of(std::uint32_t tile) const {
    const TileLookBack* look = look_back(tile);
    if (!look) return std::nullopt;
    return look->block;
}

const TileLookBack* LookbackModel::look_back(std::uint32_t tile) const {
    auto it = std::lower_bound(tiles_.begin(), tiles_.end(), tile);
    if (it == tiles_.end() || *it != tile) return nullptr;
    return &look_backs_[static_cast<std::size_t>(it - tiles_.begin())];
}

std::string prefix_formula(const TileLookBack& look_back) {
    std::string text;
    for (auto term = look_back.terms.rbegin(); term != look_back.terms.rend(); ++term) {
        const LookRead& read = look_back.reads[*term];
        if (!text.empty()) text += " + ";
        text +=
            std::string(trace::to_string(read.look.flag)) + " of tile " + std::to_string(read.tile);
        if (read.look.value_type != trace::ValueType::none)
            text += " (" + value_text(read.look.value_type, read.look.value) + ")";
    }
    return text;
}

TileVerdict expected_tile_verdict(const trace::Trace& trace, const TileLookBack& look_back) {
    const trace::ExpectedTile* expected = trace::expected_tile(trace, look_back.tile);
    if (!expected) return {};
    const trace::ValueType type = trace.expected->value_type;
    const std::string prefix = value_text(type, expected->prefix);
    const std::string inclusive = value_text(type, expected->inclusive);
    const std::string reference =
        "the reference: the tiles before it combine to " + prefix + ", its P is " + inclusive;
    if (!look_back.own_p) return {"No P published; " + reference, false};
    const auto& change = std::get<trace::TileFlagChange>(trace.block_events[*look_back.own_p].what);
    if (change.value_type != type) return {reference, false};
    if (change.value == expected->inclusive)
        return {"Its P " + inclusive + " is right (" + reference + ")", false};
    // P combines the prefix the look-back found with the tile's own aggregate: say both.
    std::string own;
    if (look_back.own_a) {
        const auto& a = std::get<trace::TileFlagChange>(trace.block_events[*look_back.own_a].what);
        if (a.value_type == type) own = " and its own A " + value_text(type, a.value);
    }
    return {"WRONG: it published P " + value_text(type, change.value) + ", but " + reference +
                ". Its P combines the prefix its look-back found" + own +
                "; the prefix should be " + prefix,
            true};
}

std::string read_label(const trace::TileLook& look) {
    std::string text(trace::to_string(look.flag));
    if (look.value_type != trace::ValueType::none)
        text += " " + value_text(look.value_type, look.value);
    if (look.reads > 1) text += " (" + std::to_string(look.reads) + " reads)";
    return text;
}

} // namespace scanlab::view
