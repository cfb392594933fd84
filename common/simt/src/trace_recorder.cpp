#include "trace_recorder.h"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <optional>
#include <set>

#include "fault_format.h"
#include "memory_registry.h"
#include "source_lines.h"
#include "tile_status_registry.h"
#include "trace_session.h"

namespace simt::detail {

namespace st = scanlab::trace;

namespace {
st::Dim3 to_dim3(dim3 d) {
    return st::Dim3{d.x, d.y, d.z};
}

st::AccessKind to_trace(AccessKind kind) {
    switch (kind) {
    case AccessKind::read:
        return st::AccessKind::load;
    case AccessKind::write:
        return st::AccessKind::store;
    case AccessKind::atomic:
        return st::AccessKind::atomic;
    }
    return st::AccessKind::load;
}

st::ValueType value_type_for(const ElementInfo& e, uint32_t width) {
    if (e.code <= 0 || e.code > 10 || e.size == 0 || width % e.size != 0)
        return st::ValueType::none;
    return static_cast<st::ValueType>(e.code);
}

// A tile's descriptor in a look-back scan's status area.
struct TileDescriptor {
    const TileStatusArea& area;
    uint32_t tile;
    const unsigned char* bytes;
};

// The descriptor that holds `address`; none outside every area, or for a tile past the
// launch's blocks (the format names tiles by block count).
std::optional<TileDescriptor> find_tile_descriptor(uintptr_t address, uint64_t tiles_in_launch) {
    for (const TileStatusArea& area : tile_status_areas()) {
        if (address - area.base >= area.bytes()) continue;
        const size_t tile = (address - area.base) / area.stride();
        if (tile >= tiles_in_launch) return std::nullopt;
        return TileDescriptor{
            area, static_cast<uint32_t>(tile),
            reinterpret_cast<const unsigned char*>(area.base + tile * area.stride())};
    }
    return std::nullopt;
}

// The status in a descriptor's word: the whole word of a flag, the high half of a packed one.
uint32_t status_of(const TileStatusArea& area, uint64_t bits) {
    return area.layout == TileStatusLayout::flags32 ? uint32_t(bits) : uint32_t(bits >> 32);
}

// The value a tile event shows: packed descriptors carry it beside a status past X (separate
// descriptors keep it in other arrays, so the flag alone has none).
template <class TileEvent>
void attach_value(TileEvent& event, const TileStatusArea& area, uint32_t status, uint64_t value) {
    if (area.layout == TileStatusLayout::flags32 || area.value_code <= 0 || status == 0) return;
    event.value_type = static_cast<st::ValueType>(area.value_code);
    event.value = st::ValueBytes::from(&value, area.stride() / 2); // little-endian low bytes
}
} // namespace

TraceRecorder::TraceRecorder(const TraceSettings& settings, const LaunchRequest& request,
                             const Options& options)
    : settings_(settings), request_(request) {
    trace_.launch.kernel = kernel_name(request.kernel);
    trace_.launch.grid = to_dim3(request.grid);
    trace_.launch.block = to_dim3(request.block);
    trace_.launch.dynamic_shared_bytes = request.dynamic_shared_bytes;
    trace_.launch.mode = options.mode == Mode::lockstep    ? st::EmulatorMode::lockstep
                         : options.mode == Mode::pre_volta ? st::EmulatorMode::pre_volta
                                                           : st::EmulatorMode::its;
    trace_.launch.dispatch = options.dispatch == Dispatch::in_order ? st::DispatchOrder::in_order
                                                                    : st::DispatchOrder::shuffled;
    trace_.launch.seed = options.seed;
}

bool TraceRecorder::records(const Block* block) const {
    if (settings_.blocks.empty()) return true;
    return std::find(settings_.blocks.begin(), settings_.blocks.end(), block->linear) !=
           settings_.blocks.end();
}

void TraceRecorder::block_started(const Block* block) {
    size_t slot = 0;
    while (slot < slots_.size() && slots_[slot]) ++slot;
    if (slot == slots_.size()) slots_.push_back(false);
    slots_[slot] = true;
    slot_of_[block->linear] = static_cast<uint32_t>(slot);
    trace_.block_events.push_back(
        st::BlockEvent{tick_++, block->linear, st::BlockStart{static_cast<uint32_t>(slot)}});
    if (records(block)) {
        current_step_[block->linear] = static_cast<uint32_t>(trace_.steps.size());
        trace_.steps.push_back(st::Step{block->linear, std::nullopt});
        step_sites_.push_back(nullptr);
    }
}

void TraceRecorder::block_ended(const Block* block) {
    slots_[slot_of_[block->linear]] = false;
    for (const Thread& t : block->threads) site_counts_.erase(&t); // a later block may reuse them
    last_look_.erase(last_look_.lower_bound({block->linear, 0}),
                     last_look_.lower_bound({block->linear + 1, 0}));
    trace_.block_events.push_back(st::BlockEvent{tick_++, block->linear, st::BlockEnd{}});
}

void TraceRecorder::barrier_released(const Block* block, const void* site) {
    // A new step: the lanes' access counts restart, so nothing may join an older instruction.
    for (const Warp& w : block->warps) open_.erase((uint64_t(block->linear) << 8) | w.index);
    for (const Thread& t : block->threads) site_counts_.erase(&t);
    auto it = current_step_.find(block->linear);
    if (it == current_step_.end()) return;
    step_sites_[it->second] = site;
    it->second = static_cast<uint32_t>(trace_.steps.size());
    trace_.steps.push_back(st::Step{block->linear, std::nullopt});
    step_sites_.push_back(nullptr);
}

std::optional<std::pair<size_t, uint64_t>> TraceRecorder::shared_allocation_at(const Block* b,
                                                                               uintptr_t address) {
    const size_t at = address - b->shared_base();
    if (at >= b->shared_capacity) return std::nullopt;
    std::optional<std::pair<size_t, uint64_t>> found;
    for (size_t i = 0; i < b->shared_vars.size(); ++i)
        if (at - b->shared_vars[i].storage < b->shared_vars[i].bytes)
            found = std::pair<size_t, uint64_t>{i, at - b->shared_vars[i].storage};
    return found;
}

std::optional<st::MemoryPlace> TraceRecorder::shared_place(const Block* b, uintptr_t address) {
    const auto at = shared_allocation_at(b, address);
    if (!at) return std::nullopt;
    return st::MemoryPlace{shared_object(b, at->first), at->second};
}

uint32_t TraceRecorder::shared_object(const Block* b, size_t allocation) {
    auto key = std::make_pair(b->linear, allocation);
    auto it = shared_ids_.find(key);
    if (it != shared_ids_.end()) return it->second;
    const SharedAllocation& a = b->shared_vars[allocation];
    st::MemoryObject m;
    m.name = a.name;
    m.space = st::MemorySpace::shared;
    m.block = b->linear;
    m.base = a.offset;
    m.size = a.bytes;
    m.element_type = a.element.label;
    m.element_size = std::max<uint32_t>(1, a.element.size);
    trace_.memory.push_back(m);
    return shared_ids_[key] = static_cast<uint32_t>(trace_.memory.size() - 1);
}

uint32_t TraceRecorder::global_object(const Region* r) {
    auto it = global_ids_.find(r->serial);
    if (it != global_ids_.end()) return it->second;
    st::MemoryObject m;
    m.space = st::MemorySpace::global;
    m.size = r->bytes;
    m.element_type = "bytes";
    m.name = r->kind == RegionKind::symbol ? r->name : std::string(to_string(r->kind));
    // Name it after the kernel argument that points into it, if one does.
    for (size_t i = 0; i < request_.argument_count; ++i) {
        const ArgumentInfo& a = request_.arguments[i];
        auto p = reinterpret_cast<uintptr_t>(a.pointer);
        if (a.pointer && p - r->base < r->bytes) {
            m.name = "argument " + std::to_string(i) + " (" + (a.is_const ? "const " : "") +
                     a.element.label + "*)";
            m.element_type = a.element.label;
            m.element_size = std::max<uint32_t>(1, a.element.size);
            break;
        }
    }
    trace_.memory.push_back(m);
    global_bases_[r->serial] = r->base;
    return global_ids_[r->serial] = static_cast<uint32_t>(trace_.memory.size() - 1);
}

void TraceRecorder::announce(Thread* t, uintptr_t address, size_t bytes, AccessKind kind,
                             const void* site) {
    settle(t);
    Block* b = t->block;
    for (const auto& ts : tile_status_areas())
        if (address - ts.base < ts.bytes()) {
            if (kind == AccessKind::read) {
                t->trace.tile_load = address;
            } else {
                t->trace.tile_store = address;
                t->trace.tile_bytes = static_cast<uint32_t>(bytes);
            }
        }
    t->trace.instruction = -1;
    if (!records(b) || cut_) return;
    if (trace_.instructions.size() >= settings_.max_instructions) {
        cut_ = true;
        trace_.truncated = st::Truncation{
            st::TruncationLimit::max_instructions, settings_.max_instructions,
            "the recording stopped after " + std::to_string(settings_.max_instructions) +
                " warp instructions; later accesses are not in the trace"};
        return;
    }
    // Which memory object, and where in it.
    uint32_t memory = 0;
    uint64_t offset = 0;
    st::MemorySpace space = st::MemorySpace::shared;
    ElementInfo element{0, 1, ""};
    const uintptr_t shared_lo = b->shared_base();
    if (address - shared_lo < b->shared_capacity) {
        // Found by where it lies in the block's buffer; recorded at the offset a GPU gives it
        // (SharedAllocation::offset, the memory object's base), so banks are the GPU's.
        const auto at = shared_allocation_at(b, address);
        if (!at) return; // the checks report this access
        memory = shared_object(b, at->first);
        offset = at->second;
        element = b->shared_vars[at->first].element;
    } else {
        const Region* r = memory_registry().find_range(address, bytes);
        if (!r || r->kind == RegionKind::parameters) return;
        memory = global_object(r);
        offset = address - r->base;
        space = st::MemorySpace::global;
        for (size_t i = 0; i < request_.argument_count; ++i) {
            auto p = reinterpret_cast<uintptr_t>(request_.arguments[i].pointer);
            if (request_.arguments[i].pointer && p - r->base < r->bytes)
                element = request_.arguments[i].element;
        }
    }
    if (offset + bytes > trace_.memory[memory].size) return;
    uint32_t seq = 0;
    {
        auto& counts = site_counts_[t];
        auto it = std::find_if(counts.begin(), counts.end(),
                               [site](const auto& c) { return c.first == site; });
        if (it == counts.end()) it = counts.insert(counts.end(), {site, 0});
        seq = it->second++;
    }
    const uint64_t key = (uint64_t(b->linear) << 8) | t->warp->index;
    auto& open = open_[key];
    const uint32_t width = static_cast<uint32_t>(bytes);
    uint64_t instruction = UINT64_MAX;
    for (const Open& o : open)
        if (o.seq == seq && o.site == site && o.memory == memory && o.kind == kind &&
            o.width == width) {
            instruction = o.instruction;
            break;
        }
    if (instruction == UINT64_MAX) {
        st::WarpInstruction w;
        w.time = tick_++;
        w.block = b->linear;
        w.warp = t->warp->index;
        w.step = current_step_[b->linear];
        w.kind = to_trace(kind);
        w.space = space;
        w.memory = memory;
        w.width = width;
        w.value_type = value_type_for(element, width);
        trace_.instructions.push_back(std::move(w));
        instruction_sites_.push_back(site);
        instruction = trace_.instructions.size() - 1;
        open.push_back(Open{seq, site, memory, kind, width, instruction});
        if (open.size() > 64) open.pop_front();
    }
    st::LaneAccess lane;
    lane.lane = t->lane;
    lane.thread = t->linear;
    lane.offset = offset;
    auto& lanes = trace_.instructions[instruction].lanes;
    lanes.push_back(lane);
    t->trace.instruction = static_cast<int64_t>(instruction);
    t->trace.lane_index = static_cast<uint32_t>(lanes.size() - 1);
    t->trace.address = address;
    t->trace.bytes = width;
    t->trace.kind = kind;
    t->trace.settled = false;
}

void TraceRecorder::executing(Thread* t) {
    if (t->trace.tile_load) tile_status_read(t);
    if (t->trace.instruction < 0) return;
    st::LaneAccess& lane =
        trace_.instructions[static_cast<size_t>(t->trace.instruction)].lanes[t->trace.lane_index];
    const void* p = reinterpret_cast<const void*>(t->trace.address);
    const uint64_t self = static_cast<uint64_t>(t->trace.instruction);
    // An element type the format cannot name (a struct) has no values, only addresses.
    const bool values = trace_.instructions[self].value_type != st::ValueType::none;
    if (t->trace.kind == AccessKind::read) {
        if (values) lane.value = st::ValueBytes::from(p, t->trace.bytes);
        // A writer is always an earlier instruction; a store announced after this load's
        // instruction began (another lane of a later round) is not named.
        auto w = writers_.find(t->trace.address & ~uintptr_t(3));
        if (w != writers_.end() && w->second.instruction < self) lane.writer = w->second;
        t->trace.settled = true;
    } else if (t->trace.kind == AccessKind::atomic) {
        if (values) lane.old = st::ValueBytes::from(p, t->trace.bytes);
        auto w = writers_.find(t->trace.address & ~uintptr_t(3));
        if (w != writers_.end() && w->second.instruction < self) lane.writer = w->second;
    }
}

void TraceRecorder::shuffled(const Warp& warp, unsigned participants,
                             const std::array<uint8_t, 32>& sources, const void* site) {
    if (!records(warp.block) || cut_) return;
    if (trace_.shuffles.size() >= settings_.max_instructions) {
        cut_ = true;
        trace_.truncated = st::Truncation{
            st::TruncationLimit::max_instructions, settings_.max_instructions,
            "the recording stopped after " + std::to_string(settings_.max_instructions) +
                " warp shuffles; later accesses and shuffles are not in the trace"};
        return;
    }
    const Thread* first = warp.lanes[__builtin_ctz(participants)];
    st::WarpShuffle shuffle;
    shuffle.time = tick_++;
    shuffle.block = warp.block->linear;
    shuffle.warp = warp.index;
    shuffle.step = current_step_[warp.block->linear];
    switch (first->coll_shuffle) {
    case ShuffleKind::index:
        shuffle.kind = st::ShuffleKind::index;
        break;
    case ShuffleKind::up:
        shuffle.kind = st::ShuffleKind::up;
        break;
    case ShuffleKind::down:
        shuffle.kind = st::ShuffleKind::down;
        break;
    case ShuffleKind::xor_:
        shuffle.kind = st::ShuffleKind::xor_;
        break;
    }
    // CUDA shuffles 4- and 8-byte types (simt::detail::shufflable); the code names which.
    const int code = first->coll_value_code;
    const bool wide = code == 7 || code == 8 || code == 10;
    shuffle.width = wide ? 8 : 4;
    shuffle.value_type =
        code > 0 && code <= 10 ? static_cast<st::ValueType>(code) : st::ValueType::none;
    for (uint32_t m = participants; m != 0; m &= m - 1) {
        const unsigned l = static_cast<unsigned>(__builtin_ctz(m));
        st::ShuffleLane lane;
        lane.lane = l;
        lane.source = sources[l];
        if (shuffle.value_type != st::ValueType::none)
            lane.value = st::ValueBytes::from(&warp.lanes[l]->coll_result, shuffle.width);
        shuffle.lanes.push_back(lane);
    }
    trace_.shuffles.push_back(std::move(shuffle));
    shuffle_sites_.push_back(site);
}

void TraceRecorder::mbarrier_event(const MbarrierNote& note) {
    const Block* b = note.thread->block;
    if (!records(b) || cut_) return;
    const auto barrier = shared_place(b, note.barrier);
    if (!barrier) return; // the runtime faults on a barrier outside shared memory
    const std::pair<unsigned, unsigned> who{b->linear, note.thread->linear};
    if (note.kind == MbarrierNoteKind::poll)
        if (auto last = last_mbarrier_.find(who); last != last_mbarrier_.end()) {
            st::MbarrierEvent& previous = trace_.mbarriers[last->second];
            if (previous.op == st::MbarrierOp::poll && previous.barrier == *barrier &&
                previous.parity == note.parity) {
                ++previous.count;
                return;
            }
        }
    if (trace_.mbarriers.size() >= settings_.max_instructions) {
        cut_ = true;
        trace_.truncated = st::Truncation{
            st::TruncationLimit::max_instructions, settings_.max_instructions,
            "the recording stopped after " + std::to_string(settings_.max_instructions) +
                " mbarrier events; later accesses and events are not in the trace"};
        return;
    }
    st::MbarrierEvent event;
    event.time = tick_++;
    event.block = b->linear;
    event.thread = note.thread->linear;
    event.op = static_cast<st::MbarrierOp>(note.kind); // the same order (launch_recorder.h)
    event.barrier = *barrier;
    event.count = note.kind == MbarrierNoteKind::poll ? 1 : note.count;
    event.bytes = note.bytes;
    event.parity = note.parity;
    event.phase = note.phase;
    if (note.kind == MbarrierNoteKind::copy) {
        event.destination = shared_place(b, note.destination);
        if (!event.destination) return; // the runtime faults on it
    }
    last_mbarrier_[who] = trace_.mbarriers.size();
    trace_.mbarriers.push_back(event);
    mbarrier_sites_.push_back(note.site);
}

void TraceRecorder::attach_expected() {
    std::vector<st::ExpectedObject> objects;
    const ExpectedArea* first_area = nullptr;
    for (const ExpectedArea& area : trace_session().expected) {
        if (first_area && area.value_code != first_area->value_code) continue; // one type
        const uint32_t size = st::value_type_size(static_cast<st::ValueType>(area.value_code));
        for (const auto& [serial, base] : global_bases_) {
            const uint32_t id = global_ids_.at(serial);
            const uint64_t bytes = trace_.memory[id].size;
            if (area.base < base || area.base - base >= bytes || (area.base - base) % size != 0)
                continue;
            // Only a launch that writes the results can be judged by them.
            const bool written =
                std::any_of(trace_.instructions.begin(), trace_.instructions.end(),
                            [id](const st::WarpInstruction& w) {
                                return w.memory == id && w.kind != st::AccessKind::load;
                            });
            if (!written) continue;
            st::ExpectedObject object;
            object.memory = id;
            object.first = (area.base - base) / size;
            const size_t count = std::min<uint64_t>(area.count, bytes / size - object.first);
            object.values.reserve(count);
            for (size_t k = 0; k < count; ++k)
                object.values.push_back(st::ValueBytes::from(area.bytes.data() + k * size, size));
            objects.push_back(std::move(object));
            first_area = first_area ? first_area : &area;
        }
    }
    // Tiles this launch published flags for, when their values are known.
    std::vector<st::ExpectedTile> tiles;
    const auto& registered = trace_session().expected_tiles;
    if (registered && (!first_area || registered->value_code == first_area->value_code)) {
        const size_t size = st::value_type_size(static_cast<st::ValueType>(registered->value_code));
        std::set<uint32_t> published;
        for (const st::BlockEvent& e : trace_.block_events)
            if (const auto* change = std::get_if<st::TileFlagChange>(&e.what))
                published.insert(change->tile);
        for (const uint32_t tile : published)
            if ((tile + 1) * size <= registered->prefixes.size())
                tiles.push_back(
                    {tile, st::ValueBytes::from(registered->prefixes.data() + tile * size, size),
                     st::ValueBytes::from(registered->inclusives.data() + tile * size, size)});
    }
    if (objects.empty() && tiles.empty()) return;
    std::sort(objects.begin(), objects.end(),
              [](const auto& a, const auto& b) { return a.memory < b.memory; });
    objects.erase(std::unique(objects.begin(), objects.end(),
                              [](const auto& a, const auto& b) { return a.memory == b.memory; }),
                  objects.end());
    st::Expected expected;
    expected.reference = first_area ? first_area->reference : registered->reference;
    expected.value_type =
        static_cast<st::ValueType>(first_area ? first_area->value_code : registered->value_code);
    expected.objects = std::move(objects);
    expected.tiles = std::move(tiles);
    trace_.expected = std::move(expected);
}

void TraceRecorder::tile_status_changed(Thread* t) {
    const uintptr_t address = t->trace.tile_store;
    t->trace.tile_store = 0;
    const auto found = find_tile_descriptor(address, trace_.launch.grid.count());
    if (!found) return;
    const TileStatusArea& ts = found->area;
    uint64_t bits = 0;
    std::memcpy(&bits, found->bytes, ts.stride() == 4 ? 4 : 8);
    const uint32_t status = status_of(ts, bits);
    if (status > 2) return;
    uint64_t value = uint32_t(bits);
    if (ts.layout == TileStatusLayout::tagged_pair64) {
        // A tile's status changes when both words carry it: the store of the second word.
        uint64_t high = 0;
        std::memcpy(&high, found->bytes + 8, 8);
        if (uint32_t(high >> 32) != status) return;
        value |= high << 32;
    }
    st::TileFlagChange change;
    change.tile = found->tile;
    change.flag = static_cast<st::TileFlag>(status);
    attach_value(change, ts, status, value);
    trace_.block_events.push_back(st::BlockEvent{tick_++, t->block->linear, change});
}

// A look-back read: the descriptor as the load sees it now (relaxed visibility has already put
// any old value it shows in place). Recorded for every block, like the flag changes.
void TraceRecorder::tile_status_read(Thread* t) {
    const uintptr_t address = t->trace.tile_load;
    t->trace.tile_load = 0;
    const auto found = find_tile_descriptor(address, trace_.launch.grid.count());
    if (!found) return;
    const TileStatusArea& ts = found->area;
    const uintptr_t descriptor = reinterpret_cast<uintptr_t>(found->bytes);
    uint64_t bits = 0;
    std::memcpy(&bits,
                reinterpret_cast<const void*>(address & ~uintptr_t(ts.stride() == 4 ? 3 : 7)),
                ts.stride() == 4 ? 4 : 8);
    uint32_t status = status_of(ts, bits);
    uint64_t value = uint32_t(bits);
    if (ts.layout == TileStatusLayout::tagged_pair64) {
        // A look reads both words, the first and then the second: the first is kept until
        // the second is read. Halves with different statuses are a tile caught mid-publish,
        // which the reader takes as X.
        if (address - descriptor < 8) {
            t->trace.tile_first_word = bits;
            t->trace.tile_first_of = descriptor + 1;
            return;
        }
        uint64_t first = 0;
        if (t->trace.tile_first_of == descriptor + 1)
            first = t->trace.tile_first_word;
        else
            std::memcpy(&first, found->bytes, 8); // a read of the second word alone
        t->trace.tile_first_of = 0;
        value = (bits << 32) | uint32_t(first);
        if (uint32_t(first >> 32) != status) status = 0;
    }
    if (status > 2) return;
    st::TileLook look;
    look.tile = found->tile;
    look.flag = static_cast<st::TileFlag>(status);
    attach_value(look, ts, status, value);
    const auto key = std::make_pair(t->block->linear, look.tile);
    auto last = last_look_.find(key);
    if (last != last_look_.end()) {
        auto& earlier = std::get<st::TileLook>(trace_.block_events[last->second].what);
        if (earlier.flag == look.flag && earlier.value_type == look.value_type &&
            earlier.value == look.value) {
            ++earlier.reads; // a poll that found nothing new
            return;
        }
    }
    last_look_[key] = trace_.block_events.size();
    trace_.block_events.push_back(st::BlockEvent{tick_++, t->block->linear, look});
}

void TraceRecorder::settle(Thread* t) {
    if (t->trace.tile_store) tile_status_changed(t);
    if (t->trace.settled || t->trace.instruction < 0) return;
    t->trace.settled = true;
    st::LaneAccess& lane =
        trace_.instructions[static_cast<size_t>(t->trace.instruction)].lanes[t->trace.lane_index];
    if (trace_.instructions[static_cast<size_t>(t->trace.instruction)].value_type !=
        st::ValueType::none)
        lane.value =
            st::ValueBytes::from(reinterpret_cast<const void*>(t->trace.address), t->trace.bytes);
    const st::WriterRef writer{static_cast<uint64_t>(t->trace.instruction), t->linear};
    for (uintptr_t a = t->trace.address & ~uintptr_t(3); a < t->trace.address + t->trace.bytes;
         a += 4)
        writers_[a] = writer;
}

// nvcc turns two accesses of a thread to adjacent words into one vector access (ld/st.shared.v2)
// when it can prove them adjacent and aligned; the bank conflicts a GPU shows are those of the
// vector access. The emulator sees the two accesses, so it does the same here: a pair of access
// sites of a warp, one right after the other, same kind and object, is fused when EVERY time the
// pair occurs each lane's second access starts where its first ends and the pair is aligned to
// its combined width: the run-time counterpart of "provable at compile time" (a pair that is
// adjacent in some loop iterations only, as in a sweep with a run-time stride, is left alone).
std::vector<uint64_t> TraceRecorder::fuse_vector_pairs() {
    auto& ins = trace_.instructions;
    // The next shared-memory instruction of the same warp and step, for each instruction.
    std::vector<int64_t> next(ins.size(), -1);
    std::map<std::pair<uint32_t, uint32_t>, size_t> last; // (block, warp) -> instruction
    for (size_t i = 0; i < ins.size(); ++i) {
        if (ins[i].space != st::MemorySpace::shared) continue;
        auto key = std::make_pair(ins[i].block, ins[i].warp);
        auto it = last.find(key);
        if (it != last.end() && ins[it->second].step == ins[i].step)
            next[it->second] = static_cast<int64_t>(i);
        last[key] = i;
    }
    auto adjacent = [&](size_t a, size_t b) {
        const auto &x = ins[a], &y = ins[b];
        if (x.kind != y.kind || x.kind == st::AccessKind::atomic || x.memory != y.memory ||
            x.width != y.width || x.width > 8 || x.lanes.size() != y.lanes.size())
            return false;
        const uint64_t base = trace_.memory[x.memory].base;
        for (size_t l = 0; l < x.lanes.size(); ++l) {
            if (x.lanes[l].lane != y.lanes[l].lane) return false;
            if (y.lanes[l].offset != x.lanes[l].offset + x.width) return false;
            if ((base + x.lanes[l].offset) % (2 * x.width) != 0) return false;
        }
        return true;
    };
    std::map<std::pair<const void*, const void*>, bool> pair_ok;
    for (size_t i = 0; i < ins.size(); ++i) {
        if (next[i] < 0) continue;
        auto key = std::make_pair(instruction_sites_[i], instruction_sites_[size_t(next[i])]);
        bool ok = adjacent(i, size_t(next[i]));
        auto [it, fresh] = pair_ok.emplace(key, ok);
        if (!fresh) it->second = it->second && ok;
    }
    std::vector<bool> removed(ins.size(), false);
    std::vector<uint64_t> moved_to(ins.size());
    for (size_t i = 0; i < ins.size(); ++i) moved_to[i] = i;
    for (size_t i = 0; i < ins.size(); ++i) {
        if (removed[i] || next[i] < 0) continue;
        size_t j = size_t(next[i]);
        if (removed[j]) continue;
        if (!pair_ok[{instruction_sites_[i], instruction_sites_[j]}]) continue;
        auto& x = ins[i];
        for (size_t l = 0; l < x.lanes.size(); ++l) {
            auto& a = x.lanes[l];
            const auto& b = ins[j].lanes[l];
            std::memcpy(a.value.bytes.data() + x.width, b.value.bytes.data(), x.width);
        }
        x.width *= 2;
        removed[j] = true;
        moved_to[j] = i;
    }
    // Compact, and point writer references at the fused instructions.
    std::vector<uint64_t> new_index(ins.size());
    size_t kept = 0;
    for (size_t i = 0; i < ins.size(); ++i)
        if (!removed[i]) new_index[i] = kept++;
    std::vector<st::WarpInstruction> out;
    std::vector<const void*> sites;
    out.reserve(kept);
    for (size_t i = 0; i < ins.size(); ++i) {
        if (removed[i]) continue;
        out.push_back(std::move(ins[i]));
        sites.push_back(instruction_sites_[i]);
    }
    for (auto& w : out)
        for (auto& lane : w.lanes)
            if (lane.writer)
                lane.writer->instruction = new_index[moved_to[lane.writer->instruction]];
    ins = std::move(out);
    instruction_sites_ = std::move(sites);
    std::vector<uint64_t> remap(moved_to.size());
    for (size_t i = 0; i < moved_to.size(); ++i) remap[i] = new_index[moved_to[i]];
    return remap;
}

TraceRecorder::AccessRef TraceRecorder::locate_access(const AccessRecord& a) {
    AccessRef ref;
    ref.site = a.site;
    const unsigned threads = request_.block.x * request_.block.y * request_.block.z;
    const Block* b = a.thread ? a.thread->block : nullptr;
    const unsigned block = b ? b->linear : (a.grid_thread - 1) / threads;
    const unsigned thread = a.thread ? a.thread->linear : (a.grid_thread - 1) % threads;
    if (a.bytes > 0) {
        if (a.shared && b) {
            for (size_t i = 0; i < b->shared_vars.size(); ++i) {
                const SharedAllocation& v = b->shared_vars[i];
                if (a.address - v.offset < v.bytes && a.address + a.bytes <= v.offset + v.bytes) {
                    ref.memory = shared_object(b, i);
                    ref.offset = a.address - v.offset;
                }
            }
        } else if (!a.shared) {
            const Region* r = memory_registry().find_range(a.address, a.bytes);
            if (r && r->kind != RegionKind::parameters) {
                ref.memory = global_object(r);
                ref.offset = a.address - r->base;
            }
        }
    }
    // The recorded lane: the access the running thread announced, or the latest instruction of
    // that thread at the same site (and bytes) before now.
    if (a.current && a.thread && a.thread->trace.instruction >= 0) {
        ref.instruction = static_cast<uint64_t>(a.thread->trace.instruction);
    } else if (a.site) {
        for (size_t i = trace_.instructions.size(); i-- > 0 && !ref.instruction;) {
            const st::WarpInstruction& w = trace_.instructions[i];
            if (w.block != block || w.warp != thread / 32 || instruction_sites_[i] != a.site)
                continue;
            if (ref.memory && w.memory != *ref.memory) continue;
            for (const st::LaneAccess& lane : w.lanes)
                if (lane.thread == thread && (!ref.memory || (lane.offset <= ref.offset &&
                                                              ref.offset < lane.offset + w.width)))
                    ref.instruction = i;
        }
    }
    if (ref.instruction) {
        ref.step = trace_.instructions[*ref.instruction].step;
    } else if (auto it = current_step_.find(block); it != current_step_.end()) {
        ref.step = it->second;
    }
    return ref;
}

void TraceRecorder::note_finding(size_t index, const void* site,
                                 const std::vector<AccessRecord>& accesses) {
    FindingRefs refs;
    refs.site = site;
    for (const AccessRecord& a : accesses) refs.accesses.push_back(locate_access(a));
    finding_refs_[index] = std::move(refs);
}

namespace {
st::FindingKind to_trace(FaultKind kind) {
    switch (kind) {
    case FaultKind::shared_race:
        return st::FindingKind::shared_race;
    case FaultKind::global_race:
        return st::FindingKind::global_race;
    case FaultKind::uninitialized_read:
        return st::FindingKind::uninitialized_shared_read;
    case FaultKind::uninitialized_global_read:
        return st::FindingKind::uninitialized_global_read;
    case FaultKind::illegal_address:
        return st::FindingKind::illegal_address;
    case FaultKind::misaligned_address:
        return st::FindingKind::misaligned_address;
    case FaultKind::barrier_divergence:
        return st::FindingKind::barrier_divergence;
    case FaultKind::warp_mask:
        return st::FindingKind::warp_mask;
    case FaultKind::deadlock:
        return st::FindingKind::deadlock;
    case FaultKind::memory_ordering:
        return st::FindingKind::memory_ordering;
    case FaultKind::plain_load_spin:
        return st::FindingKind::plain_load_spin;
    case FaultKind::stale_read:
        return st::FindingKind::stale_read;
    case FaultKind::assertion:
        return st::FindingKind::assertion;
    case FaultKind::trap:
        return st::FindingKind::trap;
    case FaultKind::stack_overflow:
        return st::FindingKind::stack_overflow;
    case FaultKind::exception:
        return st::FindingKind::exception;
    case FaultKind::unsupported:
        return st::FindingKind::unsupported;
    case FaultKind::none:
    case FaultKind::invalid_launch:
        break;
    }
    return st::FindingKind::other;
}

st::FindingRole to_trace(AccessRole role) {
    return static_cast<st::FindingRole>(static_cast<int>(role));
}
static_assert(static_cast<int>(AccessRole::execute) == static_cast<int>(st::FindingRole::execute));
} // namespace

void TraceRecorder::finish(const FaultReport& report) {
    trace_session().finished(take_trace(report));
}

st::Trace TraceRecorder::take_trace(const FaultReport& report) {
    // Lanes by increasing lane number, as the format wants; writer references stay valid because
    // they name instructions, not lane positions.
    for (st::WarpInstruction& w : trace_.instructions)
        std::sort(w.lanes.begin(), w.lanes.end(),
                  [](const st::LaneAccess& a, const st::LaneAccess& b) { return a.lane < b.lane; });
    const std::vector<uint64_t> fused = fuse_vector_pairs();
    // Source locations of every instruction, barrier and finding, with the lines' text.
    std::vector<const void*> pcs = instruction_sites_;
    pcs.insert(pcs.end(), step_sites_.begin(), step_sites_.end());
    pcs.insert(pcs.end(), shuffle_sites_.begin(), shuffle_sites_.end());
    pcs.insert(pcs.end(), mbarrier_sites_.begin(), mbarrier_sites_.end());
    for (const auto& [index, refs] : finding_refs_) {
        pcs.push_back(refs.site);
        for (const AccessRef& a : refs.accesses) pcs.push_back(a.site);
    }
    std::erase(pcs, nullptr);
    std::sort(pcs.begin(), pcs.end());
    pcs.erase(std::unique(pcs.begin(), pcs.end()), pcs.end());
    std::vector<SourceLocation> resolved = resolve_sources(pcs);
    std::map<std::string, std::set<uint32_t>> lines_of;
    std::map<const void*, std::pair<std::string, uint32_t>> where;
    for (size_t i = 0; i < pcs.size(); ++i) {
        std::string file = resolved[i].file.empty() ? "<unknown>" : resolved[i].file;
        uint32_t line = resolved[i].line > 0 ? static_cast<uint32_t>(resolved[i].line) : 1;
        where[pcs[i]] = {file, line};
        lines_of[file].insert(line);
    }
    std::map<std::string, uint32_t> file_ids;
    for (auto& [file, lines] : lines_of) {
        st::SourceFile sf;
        sf.path = file;
        std::vector<std::string> text;
        std::ifstream in(file);
        for (std::string l; std::getline(in, l);) text.push_back(l);
        // The lines used, with two lines of context around each.
        std::set<uint32_t> shown;
        for (uint32_t l : lines)
            for (uint32_t k = l > 2 ? l - 2 : 1; k <= l + 2; ++k)
                if (k == l || k <= text.size()) shown.insert(k);
        for (uint32_t k : shown)
            sf.lines.push_back(st::SourceLine{k, k <= text.size() ? text[k - 1] : std::string()});
        file_ids[file] = static_cast<uint32_t>(trace_.sources.size());
        trace_.sources.push_back(std::move(sf));
    }
    auto location = [&](const void* pc) {
        auto [file, line] = where.at(pc);
        return st::SourceLocation{file_ids.at(file), line};
    };
    if (trace_.sources.empty() &&
        !(trace_.instructions.empty() && trace_.shuffles.empty() && trace_.mbarriers.empty()))
        trace_.sources.push_back(st::SourceFile{"<unknown>", {st::SourceLine{1, ""}}});
    for (size_t i = 0; i < trace_.instructions.size(); ++i)
        trace_.instructions[i].source =
            instruction_sites_[i] ? location(instruction_sites_[i]) : st::SourceLocation{0, 1};
    for (size_t i = 0; i < trace_.steps.size(); ++i)
        if (step_sites_[i]) trace_.steps[i].barrier = location(step_sites_[i]);
    for (size_t i = 0; i < trace_.shuffles.size(); ++i)
        trace_.shuffles[i].source =
            shuffle_sites_[i] ? location(shuffle_sites_[i]) : st::SourceLocation{0, 1};
    for (size_t i = 0; i < trace_.mbarriers.size(); ++i)
        if (mbarrier_sites_[i]) trace_.mbarriers[i].source = location(mbarrier_sites_[i]);
    attach_expected();
    // Every finding of the launch, recorded blocks or not; references only where the trace has
    // what they point at.
    for (size_t i = 0; i < report.findings.size(); ++i) {
        const Finding& f = report.findings[i];
        const auto refs = finding_refs_.find(i);
        st::Finding out;
        out.kind = to_trace(f.kind);
        out.ends_launch = f.ends_launch;
        out.message = f.message;
        if (refs != finding_refs_.end() && refs->second.site)
            out.source = location(refs->second.site);
        for (size_t k = 0; k < f.accesses.size(); ++k) {
            const FindingAccess& a = f.accesses[k];
            st::FindingAccess access;
            access.block = a.block_linear;
            access.thread = a.thread_linear;
            access.role = to_trace(a.role);
            access.bytes = static_cast<uint32_t>(a.bytes);
            if (refs != finding_refs_.end() && k < refs->second.accesses.size()) {
                const AccessRef& ref = refs->second.accesses[k];
                access.memory = ref.memory;
                access.offset = ref.offset;
                if (ref.site) access.source = location(ref.site);
                if (ref.instruction)
                    access.recorded = st::InstructionLane{fused[*ref.instruction], a.lane};
                access.step = ref.step;
            }
            if (!access.memory) access.offset = 0;
            out.accesses.push_back(access);
        }
        trace_.findings.push_back(std::move(out));
    }
    return std::move(trace_);
}

} // namespace simt::detail
