#include "expected.h"

#include "lab_input.h"
#include "simt/trace.h"

#include <algorithm>
#include <map>
#include <variant>

namespace scanlab::run {

namespace st = scanlab::trace;

void ExpectedScan::register_output(const RecordedInput& input) {
    const std::vector<int> expected =
        expected_output(input.input, input.in, input.heads, input.kind, input.in.size());
    segmented_ = !input.heads.empty();
    sorted_ = input.input == labs::Input::keys;
    inclusive_ = expected_sums(input.in, {}, ScanKind::inclusive, input.in.size());
    const std::string reference =
        sorted_ ? std::string("host reference sort (std::sort): int keys, ascending")
                : std::string("host reference scan (scanlab::reference_scan): ") + "Sum<int>, " +
                      (input.kind == ScanKind::inclusive ? "inclusive" : "exclusive") +
                      (segmented_ ? ", segmented" : "");
    simt::trace_expected(input.out, expected.size(), static_cast<int>(st::ValueType::i32),
                         expected.data(), reference);
}

void ExpectedScan::complete(std::vector<st::Trace>& traces) const {
    auto last = std::find_if(traces.rbegin(), traces.rend(),
                             [](const st::Trace& t) { return t.expected.has_value(); });
    if (last == traces.rend()) return;
    for (auto it = traces.rbegin(); it != traces.rend(); ++it)
        if (it != last) it->expected.reset();
    st::Trace& trace = *last;
    if (segmented_ || sorted_ || trace.expected->objects.empty() ||
        trace.expected->objects.front().first != 0)
        return;
    // A look-back scan: a tile's elements are the output elements its block stored.
    std::map<std::uint32_t, std::uint32_t> owner; // tile -> the block that published for it
    for (const st::BlockEvent& e : trace.block_events)
        if (const auto* change = std::get_if<st::TileFlagChange>(&e.what))
            owner.emplace(change->tile, e.block);
    if (owner.empty()) return;
    const st::ExpectedObject& output = trace.expected->objects.front();
    std::map<std::uint32_t, std::pair<std::uint64_t, std::uint64_t>> elements; // by block
    for (const st::WarpInstruction& w : trace.instructions) {
        if (w.memory != output.memory || w.kind == st::AccessKind::load) continue;
        for (const st::LaneAccess& lane : w.lanes) {
            const std::uint64_t first = lane.offset / sizeof(int);
            const std::uint64_t last_element = (lane.offset + w.width - 1) / sizeof(int);
            auto [it, fresh] = elements.emplace(w.block, std::pair{first, last_element});
            it->second.first = std::min(it->second.first, first);
            it->second.second = std::max(it->second.second, last_element);
        }
    }
    std::vector<st::ExpectedTile> tiles;
    for (const auto& [tile, block] : owner) {
        const auto range = elements.find(block);
        if (range == elements.end() || range->second.second >= inclusive_.size()) continue;
        const auto [first, last_element] = range->second;
        const int prefix = first == 0 ? 0 : inclusive_[first - 1];
        tiles.push_back(
            {tile, st::ValueBytes::of(prefix), st::ValueBytes::of(inclusive_[last_element])});
    }
    trace.expected->tiles = std::move(tiles);
}

} // namespace scanlab::run
