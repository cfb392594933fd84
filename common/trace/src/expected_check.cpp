#include "scanlab/trace/expected_check.h"

#include <algorithm>
#include <map>
#include <variant>

namespace scanlab::trace {

namespace {
// The part of a (vector) access value that element `part` holds.
ValueBytes part_of(const ValueBytes& value, std::uint32_t part, std::uint32_t size) {
    return ValueBytes::from(value.bytes.data() + part * size, size);
}

const ExpectedObject* expected_object(const Expected& expected, std::uint32_t memory) {
    const auto it = std::lower_bound(
        expected.objects.begin(), expected.objects.end(), memory,
        [](const ExpectedObject& object, std::uint32_t id) { return object.memory < id; });
    return it != expected.objects.end() && it->memory == memory ? &*it : nullptr;
}
} // namespace

std::optional<ValueBytes> expected_value(const Trace& trace, std::uint32_t memory,
                                         std::uint64_t element) {
    if (!trace.expected) return std::nullopt;
    const ExpectedObject* object = expected_object(*trace.expected, memory);
    if (!object || element < object->first || element - object->first >= object->values.size())
        return std::nullopt;
    return object->values[element - object->first];
}

const ExpectedTile* expected_tile(const Trace& trace, std::uint32_t tile) {
    if (!trace.expected) return nullptr;
    const auto& tiles = trace.expected->tiles;
    const auto it =
        std::lower_bound(tiles.begin(), tiles.end(), tile,
                         [](const ExpectedTile& entry, std::uint32_t t) { return entry.tile < t; });
    return it != tiles.end() && it->tile == tile ? &*it : nullptr;
}

ExpectedCheck check_expected(const Trace& trace) {
    ExpectedCheck check;
    if (!trace.expected) return check;
    const Expected& expected = *trace.expected;
    const std::uint32_t size = value_type_size(expected.value_type);
    struct Last {
        ValueBytes value;
        std::uint64_t instruction;
        std::uint32_t lane;
    };
    std::map<std::pair<std::uint32_t, std::uint64_t>, Last> last; // (memory, element)
    for (std::uint64_t i = 0; i < trace.instructions.size(); ++i) {
        const WarpInstruction& w = trace.instructions[i];
        // Values of another type cannot be compared; a load leaves nothing.
        if (w.kind == AccessKind::load || value_type_size(w.value_type) != size ||
            !expected_object(expected, w.memory))
            continue;
        for (std::uint32_t k = 0; k < w.lanes.size(); ++k)
            for (std::uint32_t part = 0; part < w.width / size; ++part)
                last[{w.memory, w.lanes[k].offset / size + part}] =
                    Last{part_of(w.lanes[k].value, part, size), i, k};
    }
    for (const auto& [where, value] : last) {
        const auto wanted = expected_value(trace, where.first, where.second);
        if (!wanted) continue;
        ++check.judged;
        if (*wanted != value.value)
            check.elements.push_back(ElementDifference{where.first, where.second, *wanted,
                                                       value.value, value.instruction, value.lane});
    }
    // Tiles: the first P each tile published, against the reference's inclusive prefix.
    std::map<std::uint32_t, std::size_t> published;
    for (std::size_t e = 0; e < trace.block_events.size(); ++e)
        if (const auto* change = std::get_if<TileFlagChange>(&trace.block_events[e].what);
            change && change->flag == TileFlag::P && change->value_type == expected.value_type)
            published.emplace(change->tile, e);
    for (const auto& [tile, event] : published) {
        const ExpectedTile* wanted = expected_tile(trace, tile);
        if (!wanted) continue;
        const auto& change = std::get<TileFlagChange>(trace.block_events[event].what);
        if (change.value != wanted->inclusive)
            check.tiles.push_back(TileDifference{tile, event, wanted->inclusive, change.value});
    }
    return check;
}

} // namespace scanlab::trace
