#include "radix_pass_model.h"

#include <algorithm>
#include <array>
#include <map>
#include <variant>

#include "trace_text.h"

namespace scanlab::view {

namespace {

constexpr std::uint32_t kWarpKeys = kRadixItemsPerThread * trace::kWarpSize; // 1024 per warp
constexpr std::uint32_t kNoKey = UINT32_MAX;
// A descriptor: the status in the top 2 bits (0 X, 1 A, 2 P), the count in the low 30.
constexpr std::uint32_t kCountMask = (1u << 30) - 1;

std::string block_name(std::uint32_t block) {
    return "block " + std::to_string(block);
}

// The block's shared object called `name`, or nullopt.
std::optional<std::uint32_t> shared_object(const trace::Trace& trace, std::uint32_t block,
                                           const std::string& name) {
    for (std::uint32_t m = 0; m < trace.memory.size(); ++m)
        if (trace.memory[m].space == trace::MemorySpace::shared && trace.memory[m].block == block &&
            trace.memory[m].name == name)
            return m;
    return std::nullopt;
}

[[noreturn]] void cut_short(const trace::Trace& trace, std::uint32_t block, const char* before) {
    throw RadixPassError("the trace was cut (" + trace.truncated->message + ") before " +
                         block_name(block) + "'s " + before +
                         ": record fewer blocks (--blocks) or a larger --max-instructions");
}

// The digit of every key, by place, is non-decreasing for the pass's digit only (random keys).
std::optional<std::uint32_t> sorted_digit(const std::vector<RadixKey>& keys,
                                          const std::vector<std::uint32_t>& by_place) {
    for (std::uint32_t shift = 0; shift < 32; shift += kRadixDigitBits) {
        std::uint32_t previous = 0;
        bool sorted = true;
        for (std::uint32_t key : by_place) {
            const std::uint32_t digit = (keys[key].bits >> shift) & (kRadixDigits - 1);
            if (digit < previous) {
                sorted = false;
                break;
            }
            previous = digit;
        }
        if (sorted) return shift;
    }
    return std::nullopt;
}

} // namespace

std::uint32_t DigitLookBack::prefix() const {
    // Each predecessor's last read counts; the walk ends at the first P.
    std::map<std::uint32_t, const DescriptorRead*> last; // by tile
    for (const DescriptorRead& read : reads) last[read.tile] = &read;
    std::uint32_t sum = 0;
    for (auto it = last.rbegin(); it != last.rend(); ++it) {
        if (it->second->flag == trace::TileFlag::X) break;
        sum += it->second->count;
        if (it->second->flag == trace::TileFlag::P) break;
    }
    return sum;
}

std::vector<std::uint32_t> RadixPassModel::by_place() const {
    std::vector<std::uint32_t> order(keys.size(), kNoKey);
    for (std::uint32_t k = 0; k < keys.size(); ++k) order[keys[k].place] = k;
    return order;
}

std::uint32_t RadixPassModel::longest_look_back() const {
    std::uint32_t best = 0;
    for (std::uint32_t d = 1; d < digits.size(); ++d)
        if (digits[d].reads.size() > digits[best].reads.size()) best = d;
    return best;
}

bool is_radix_pass(const trace::Trace& trace) {
    return trace.launch.kernel.find("onesweep_kernel") != std::string::npos;
}

RadixPassModel build_radix_pass_model(const trace::Trace& trace, std::uint32_t block) {
    if (!is_radix_pass(trace))
        throw RadixPassError(
            "the radix view shows a pass of lab 09's one-sweep radix sort (kernel "
            "onesweep_kernel); this trace is of " +
            short_kernel_name(trace.launch.kernel) +
            ". `./scanlab trace 09` writes one trace per launch: lab09.trace.2.json to "
            "lab09.trace.5.json are the four passes");
    std::vector<std::size_t> mine; // the block's instructions, in order
    for (std::size_t i = 0; i < trace.instructions.size(); ++i)
        if (trace.instructions[i].block == block) mine.push_back(i);
    if (mine.empty() && trace.truncated) cut_short(trace, block, "first access");
    if (mine.empty())
        throw RadixPassError(block_name(block) + " was not recorded (record it with --blocks " +
                             std::to_string(block) + " or --blocks all)");
    const auto tile_id = shared_object(trace, block, "tile_id");
    const auto staged = shared_object(trace, block, "staged_keys");
    const auto digit_shift = shared_object(trace, block, "digit_shift");
    if (!tile_id || !staged) {
        if (trace.truncated) cut_short(trace, block, "staging");
        throw RadixPassError(block_name(block) + " has no shared `" +
                             (tile_id ? "staged_keys" : "tile_id") +
                             "`: the radix view reads the accesses of lab 09's given code "
                             "(labs/09_radix_sort/radix_sort.cu, onesweep_kernel)");
    }

    RadixPassModel model;
    model.block = block;
    model.output_length = trace.launch.grid.count() * kRadixTileKeys;
    std::optional<std::uint32_t> tile;
    std::size_t first_stage = SIZE_MAX;                            // the first staging store
    std::array<std::uint32_t, kRadixTileKeys / kWarpKeys> items{}; // staging stores per warp
    model.keys.assign(kRadixTileKeys, {});
    std::vector<bool> staged_key(kRadixTileKeys, false);
    std::map<std::uint32_t, std::int64_t> shift_of_digit; // digit_shift[d], where recorded
    for (std::size_t i : mine) {
        const trace::WarpInstruction& w = trace.instructions[i];
        if (w.kind != trace::AccessKind::store) continue;
        if (w.memory == *tile_id && !w.lanes.empty())
            tile = w.lanes.front().value.as<std::uint32_t>();
        if (digit_shift && w.memory == *digit_shift && (w.width == 4 || w.width == 8))
            for (const trace::LaneAccess& lane : w.lanes) // 32- or 64-bit entries
                shift_of_digit[static_cast<std::uint32_t>(lane.offset / w.width)] =
                    w.width == 4 ? static_cast<std::int64_t>(lane.value.as<std::uint32_t>())
                                 : lane.value.as<std::int64_t>();
        if (w.memory != *staged) continue;
        first_stage = std::min(first_stage, i);
        if (w.warp >= items.size() || items[w.warp] >= kRadixItemsPerThread)
            throw RadixPassError(block_name(block) + " staged more than " +
                                 std::to_string(kRadixItemsPerThread) +
                                 " keys per thread: not lab 09's given staging");
        const std::uint32_t item = items[w.warp]++;
        for (const trace::LaneAccess& lane : w.lanes) {
            const std::uint32_t key = w.warp * kWarpKeys + item * trace::kWarpSize + lane.lane;
            const auto place = static_cast<std::uint32_t>(lane.offset / 4);
            model.keys[key].bits = lane.value.as<std::uint32_t>();
            model.keys[key].place = place;
            staged_key[key] = true;
        }
    }
    if (!tile) {
        if (trace.truncated) cut_short(trace, block, "tile id");
        throw RadixPassError(block_name(block) + " never stored its tile id into `tile_id`");
    }
    model.tile = *tile;
    const auto staged_count = std::count(staged_key.begin(), staged_key.end(), true);
    if (staged_count < static_cast<long>(kRadixTileKeys)) {
        if (trace.truncated) cut_short(trace, block, "staging");
        throw RadixPassError(block_name(block) + " staged " + std::to_string(staged_count) +
                             " of the tile's " + std::to_string(kRadixTileKeys) + " keys");
    }
    std::vector<std::uint32_t> by_place(kRadixTileKeys, kNoKey);
    for (std::uint32_t k = 0; k < kRadixTileKeys; ++k) {
        if (by_place[model.keys[k].place] != kNoKey)
            throw RadixPassError(block_name(block) + " staged two keys at place " +
                                 std::to_string(model.keys[k].place) +
                                 " of staged_keys: the local rank (Part 3) gives two keys one "
                                 "place; the array view of staged_keys shows where");
        by_place[model.keys[k].place] = k;
    }
    const auto shift = sorted_digit(model.keys, by_place);
    if (!shift)
        throw RadixPassError(block_name(block) +
                             "'s staged keys are not in the order of any 8-bit digit: the local "
                             "rank (Part 3) does not group the keys by digit");
    model.shift = *shift;
    model.digits.assign(kRadixDigits, {});
    for (RadixKey& key : model.keys) {
        key.digit = (key.bits >> model.shift) & (kRadixDigits - 1);
        ++model.digits[key.digit].keys;
    }

    // Descriptors: publish() by thread `digit` into element tile * 256 + digit of the
    // descriptors (A before the rank, P after it), before the scatter's first read of the staged
    // keys; the look-back reads earlier tiles' elements there.
    std::size_t first_scatter = SIZE_MAX;
    for (std::size_t i : mine)
        if (trace.instructions[i].kind == trace::AccessKind::load &&
            trace.instructions[i].memory == *staged) {
            first_scatter = i;
            break;
        }
    std::optional<std::uint32_t> descriptors;
    std::int64_t descriptor_base = 0; // the element of tile 0, digit 0 in that object
    for (std::size_t i : mine) {
        if (i >= first_scatter) break;
        const trace::WarpInstruction& w = trace.instructions[i];
        if (w.kind != trace::AccessKind::store || w.space != trace::MemorySpace::global ||
            w.width != 4)
            continue;
        for (const trace::LaneAccess& lane : w.lanes) {
            const auto element = static_cast<std::int64_t>(lane.offset / 4);
            const std::int64_t base =
                element - (std::int64_t{model.tile} * kRadixDigits + lane.thread);
            if (!descriptors) {
                descriptors = w.memory;
                descriptor_base = base;
            }
            if (w.memory != *descriptors || base != descriptor_base || lane.thread >= kRadixDigits)
                continue;
            const auto word = lane.value.as<std::uint32_t>();
            const std::uint32_t status = word >> 30;
            DigitLookBack& digit = model.digits[lane.thread];
            if (status == 1) digit.aggregate = word & kCountMask;
            if (status == 2) digit.inclusive = word & kCountMask;
        }
    }
    if (!descriptors) {
        if (trace.truncated) cut_short(trace, block, "look-back");
        throw RadixPassError(block_name(block) +
                             " published no descriptor before its scatter (publish(), Part 4)");
    }
    for (std::size_t i : mine) {
        if (i >= first_scatter) break;
        const trace::WarpInstruction& w = trace.instructions[i];
        if (w.kind != trace::AccessKind::load || w.memory != *descriptors || w.width != 4) continue;
        for (const trace::LaneAccess& lane : w.lanes) {
            const std::int64_t relative =
                static_cast<std::int64_t>(lane.offset / 4) - descriptor_base;
            if (relative < 0 || relative >= std::int64_t{model.tile} * kRadixDigits) continue;
            const auto word = lane.value.as<std::uint32_t>();
            const std::uint32_t status = word >> 30;
            DescriptorRead read{.tile = static_cast<std::uint32_t>(relative / kRadixDigits),
                                .flag = status == 2   ? trace::TileFlag::P
                                        : status == 1 ? trace::TileFlag::A
                                                      : trace::TileFlag::X,
                                .count = status == 0 ? 0 : word & kCountMask,
                                .instruction = i};
            auto& reads = model.digits[static_cast<std::uint32_t>(relative % kRadixDigits)].reads;
            if (!reads.empty() && reads.back().tile == read.tile &&
                reads.back().flag == read.flag && reads.back().count == read.count)
                ++reads.back().reads; // a poll that found nothing new
            else
                reads.push_back(read);
        }
    }

    // The scatter: the k-th load of staged_keys by a warp, then its k-th global store.
    std::map<std::uint32_t, std::vector<std::size_t>> loads, stores; // by warp
    for (std::size_t i : mine) {
        const trace::WarpInstruction& w = trace.instructions[i];
        if (w.kind == trace::AccessKind::load && w.memory == *staged)
            loads[w.warp].push_back(i);
        else if (w.kind == trace::AccessKind::store && w.space == trace::MemorySpace::global &&
                 i > first_stage && !loads[w.warp].empty())
            stores[w.warp].push_back(i);
    }
    std::optional<std::uint32_t> output;
    bool start_known = false;
    for (const auto& [warp, warp_loads] : loads) {
        const std::vector<std::size_t>& warp_stores = stores[warp];
        for (std::size_t k = 0; k < warp_loads.size() && k < warp_stores.size(); ++k) {
            const trace::WarpInstruction& load = trace.instructions[warp_loads[k]];
            const trace::WarpInstruction& store = trace.instructions[warp_stores[k]];
            if (!output) output = store.memory;
            if (store.memory != *output) continue;
            for (const trace::LaneAccess& lane : store.lanes) {
                const auto from = std::find_if(
                    load.lanes.begin(), load.lanes.end(),
                    [&](const trace::LaneAccess& l) { return l.thread == lane.thread; });
                if (from == load.lanes.end()) continue;
                const auto place = static_cast<std::uint32_t>(from->offset / 4);
                if (place >= kRadixTileKeys) continue;
                RadixKey& key = model.keys[by_place[place]];
                const std::uint64_t element = lane.offset / 4;
                // digit_shift[d] + place is where the kernel means the key to go in its output;
                // the difference is where the output starts in the memory object (the pass's
                // other buffer lies inside the workspace's allocation).
                if (!start_known) {
                    const auto meant = shift_of_digit.find(key.digit);
                    if (meant != shift_of_digit.end() &&
                        static_cast<std::int64_t>(element) >= meant->second + place)
                        model.output_start =
                            element - static_cast<std::uint64_t>(meant->second + place);
                    start_known = true;
                }
                if (element >= model.output_start) key.position = element - model.output_start;
            }
        }
    }
    if (trace.truncated) {
        const bool scattered =
            std::all_of(model.keys.begin(), model.keys.end(),
                        [](const RadixKey& k) { return k.position.has_value(); });
        const bool ended = std::any_of(
            trace.block_events.begin(), trace.block_events.end(), [&](const trace::BlockEvent& e) {
                return e.block == block && std::holds_alternative<trace::BlockEnd>(e.what);
            });
        if (!scattered && !ended) cut_short(trace, block, "scatter");
    }
    if (output) model.output_object = trace.memory[*output].name;
    return model;
}

} // namespace scanlab::view
