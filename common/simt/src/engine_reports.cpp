// The engine's reports: the text and the structured finding of a fault, and the deadlock
// summary. They run once per report, not per access, so they are compiled with the runtime's
// once-per-call code, unoptimized (CMakeLists.txt: simt_cold_objects).
#include "engine.h"

#include <algorithm>
#include <climits>
#include <map>
#include <sstream>

#include "fault_format.h"
#include "launch_recorder.h"
#include "memory_registry.h"
#include "mbarrier_runtime.h"
#include "source_lines.h"

namespace simt::detail {

namespace {

const char* waiting_for(ThreadState state) {
    switch (state) {
    case ThreadState::at_barrier:
        return "wait at __syncthreads()";
    case ThreadState::at_collective:
        return "wait at a warp intrinsic (*_sync)";
    case ThreadState::runnable:
        return "keep polling";
    case ThreadState::sleeping:
        return "sleep";
    case ThreadState::exited:
        return "exited";
    }
    return "";
}

std::string block_name(const uint3& idx) {
    return "(" + std::to_string(idx.x) + "," + std::to_string(idx.y) + "," + std::to_string(idx.z) +
           ")";
}

} // namespace

FindingAccess Engine::describe_access(const AccessRecord& a) const {
    FindingAccess f;
    if (a.thread) {
        f.block = a.thread->block->idx;
        f.block_linear = a.thread->block->linear;
        f.thread = a.thread->idx;
        f.thread_linear = a.thread->linear;
    } else {
        const uint32_t index = a.grid_thread - 1;
        f.thread_linear = index % threads_per_block_;
        f.block_linear = index / threads_per_block_;
        f.thread = unflatten(f.thread_linear, request_.block);
        f.block = unflatten(f.block_linear, request_.grid);
    }
    f.warp = f.thread_linear / 32;
    f.lane = f.thread_linear % 32;
    f.role = a.role;
    f.address = a.address;
    f.bytes = a.bytes;
    f.shared = a.shared;
    if (a.bytes > 0 && a.shared && a.thread) {
        const SharedAllocation* v = SharedMemoryChecker::variable_at(a.thread->block, a.address);
        if (v && a.address + a.bytes <= v->offset + v->bytes) {
            f.memory = v->name;
            f.offset = a.address - v->offset;
        }
    } else if (a.bytes > 0 && !a.shared) {
        if (const Region* r = registry_->find_range(a.address, a.bytes)) {
            f.memory = r->kind == RegionKind::symbol ? r->name : std::string(describe(*r));
            for (size_t i = 0; i < request_.argument_count; ++i) {
                const ArgumentInfo& arg = request_.arguments[i];
                if (arg.pointer && reinterpret_cast<uintptr_t>(arg.pointer) - r->base < r->bytes) {
                    f.memory = "argument " + std::to_string(i) + " (" +
                               (arg.is_const ? "const " : "") + arg.element.label + "*)";
                    break;
                }
            }
            f.offset = a.address - r->base;
        }
    }
    if (a.site) {
        const SourceLocation loc = resolve_source(a.site);
        f.site = SourceSite{loc.file, loc.line};
    }
    return f;
}

Finding Engine::make_finding(FaultKind kind, std::string message, const void* site,
                             const std::vector<AccessRecord>& accesses) {
    Finding f;
    f.kind = kind;
    f.message = std::move(message);
    if (site) {
        const SourceLocation loc = resolve_source(site);
        f.site = SourceSite{loc.file, loc.line};
    }
    for (const AccessRecord& a : accesses) f.accesses.push_back(describe_access(a));
    if (recorder_) recorder_->note_finding(findings_.size(), site, accesses);
    return f;
}

std::string Engine::describe_grid_thread(uint32_t grid_thread) const {
    const uint32_t index = grid_thread - 1;
    const uint3 t = unflatten(index % threads_per_block_, request_.block);
    const uint3 b = unflatten(index / threads_per_block_, request_.grid);
    std::ostringstream s;
    s << "thread (" << t.x << "," << t.y << "," << t.z << ") of block (" << b.x << "," << b.y << ","
      << b.z << ")";
    return s.str();
}

std::string Engine::describe_thread(const Thread& t) const {
    std::ostringstream s;
    s << "thread (" << t.idx.x << "," << t.idx.y << "," << t.idx.z << ") of block ("
      << t.block->idx.x << "," << t.block->idx.y << "," << t.block->idx.z << ")";
    return s.str();
}

void Engine::collective_mismatch(Thread* arriving, const Thread* other) {
    std::ostringstream msg;
    msg << "warp intrinsic mismatch: lane " << arriving->lane << " is at "
        << to_string(arriving->coll_kind) << " (" << resolve_source(arriving->wait_site).to_string()
        << ") but lane " << other->lane << " of the same mask 0x" << std::hex << arriving->coll_mask
        << " is at " << to_string(other->coll_kind) << " ("
        << resolve_source(other->wait_site).to_string() << ")";
    fault(FaultKind::warp_mask, cudaErrorLaunchFailure, msg.str(), arriving->wait_site, arriving,
          {AccessRecord{arriving, 0, AccessRole::wait, false, 0, 0, arriving->wait_site, false},
           AccessRecord{other, 0, AccessRole::wait, false, 0, 0, other->wait_site, false}});
}

void Engine::report_stack_overflow() {
    std::ostringstream msg;
    msg << "stack overflow: the thread needed more than its " << options_.stack_bytes / 1024
        << " KiB of stack (a large local array, or deep recursion); give each thread more with "
           "SIMT_STACK_KB=<KiB> or --simt-stack-kb=<KiB>";
    fault(FaultKind::stack_overflow, cudaErrorLaunchFailure, msg.str(), overflow_pc_,
          overflow_thread_);
}

std::string Engine::describe_shared_address(uintptr_t address) const {
    const Block* b = current_ ? current_->block : nullptr;
    if (!b) return "a shared-memory word";
    const size_t storage = address - b->shared_base();
    for (const SharedAllocation& v : b->shared_vars)
        if (storage - v.storage < v.bytes)
            return shared_.describe(b, v.offset + (storage - v.storage));
    return "a shared-memory word outside every __shared__ variable";
}

void Engine::report_deadlock(const std::string& headline) {
    RuntimeScope scope(current_);
    // Each resident block's threads, grouped by what they wait at (state and code position);
    // blocks that wait at the same places are reported together, so a deadlock of hundreds of
    // blocks stays a few lines long.
    using Place = std::pair<int, const void*>;
    struct Waits {
        std::vector<Place> places;                  // in (state, site) order
        std::vector<std::vector<unsigned>> threads; // per place, in thread order
    };
    struct Group {
        std::vector<Place> places;
        std::vector<const Block*> blocks;
        std::vector<size_t> fewest, most; // threads per place over the blocks
        std::vector<unsigned> first;      // per place, or UINT_MAX if they differ
    };
    std::vector<Group> groups;
    for (const auto& block : resident_) {
        std::map<Place, std::vector<unsigned>> by_place;
        for (const Thread& t : block->threads) {
            const ThreadState state = state_of(t);
            if (state == ThreadState::exited) continue;
            const void* where = state == ThreadState::runnable ? t.last_poll_site : t.wait_site;
            by_place[{static_cast<int>(state), where}].push_back(t.linear);
        }
        Waits waits;
        for (auto& [place, threads] : by_place) {
            waits.places.push_back(place);
            waits.threads.push_back(std::move(threads));
        }
        auto same = std::find_if(groups.begin(), groups.end(),
                                 [&](const Group& g) { return g.places == waits.places; });
        if (same == groups.end()) {
            Group g;
            g.places = waits.places;
            for (const auto& threads : waits.threads) {
                g.fewest.push_back(threads.size());
                g.most.push_back(threads.size());
                g.first.push_back(threads.front());
            }
            groups.push_back(std::move(g));
            same = groups.end() - 1;
        } else {
            for (size_t i = 0; i < waits.places.size(); ++i) {
                same->fewest[i] = std::min(same->fewest[i], waits.threads[i].size());
                same->most[i] = std::max(same->most[i], waits.threads[i].size());
                if (same->first[i] != waits.threads[i].front()) same->first[i] = UINT_MAX;
            }
        }
        same->blocks.push_back(block.get());
    }

    std::ostringstream msg;
    msg << headline << ".";
    constexpr size_t kGroupsShown = 8, kBlocksNamed = 3, kPlacesShown = 6;
    size_t blocks_left = resident_.size();
    for (size_t g = 0; g < groups.size(); ++g) {
        const Group& group = groups[g];
        if (g == kGroupsShown) {
            msg << "\n  ... and " << blocks_left << " more block(s) that wait at other places";
            break;
        }
        blocks_left -= group.blocks.size();
        if (group.blocks.size() == 1) {
            msg << "\n  block " << block_name(group.blocks.front()->idx) << ":";
        } else {
            msg << "\n  " << group.blocks.size() << " blocks wait alike: ";
            for (size_t b = 0; b < std::min(kBlocksNamed, group.blocks.size()); ++b)
                msg << (b ? ", " : "") << block_name(group.blocks[b]->idx);
            if (group.blocks.size() > kBlocksNamed)
                msg << " and " << group.blocks.size() - kBlocksNamed << " more";
            msg << "; in each:";
        }
        for (size_t i = 0; i < group.places.size(); ++i) {
            if (i == kPlacesShown) {
                msg << "\n    ...";
                break;
            }
            msg << "\n    " << group.fewest[i];
            if (group.most[i] != group.fewest[i]) msg << " to " << group.most[i];
            msg << " thread(s)";
            if (group.first[i] != UINT_MAX) msg << " (first " << group.first[i] << ")";
            msg << " " << waiting_for(static_cast<ThreadState>(group.places[i].first)) << " at "
                << resolve_source(group.places[i].second).to_string();
        }
    }
    for (const auto& block : resident_) {
        const std::string lines = mbarrier_deadlock_lines(*block);
        if (!lines.empty())
            msg << "\n  block " << block_name(block->idx) << "'s mbarriers:" << lines;
    }
    const size_t waiting = dispatch_order_.size() - next_dispatch_;
    if (waiting > 0)
        msg << "\n  " << waiting << " block(s) were never dispatched: only " << window_
            << " block(s) are resident at a time, so a resident block must never wait for one "
               "that is not";
    // For the finding: in each block (the first ones), the first thread at each place.
    std::vector<AccessRecord> waits;
    constexpr size_t kWaitsListed = 64;
    for (const auto& block : resident_) {
        std::vector<Place> seen;
        for (const Thread& t : block->threads) {
            const ThreadState state = state_of(t);
            if (state == ThreadState::exited || waits.size() >= kWaitsListed) continue;
            const void* where = state == ThreadState::runnable ? t.last_poll_site : t.wait_site;
            const Place place{static_cast<int>(state), where};
            if (std::find(seen.begin(), seen.end(), place) != seen.end()) continue;
            seen.push_back(place);
            waits.push_back(AccessRecord{&t, 0, AccessRole::wait, false, 0, 0, where, false});
        }
    }
    fault(FaultKind::deadlock, cudaErrorLaunchTimeout, msg.str(), nullptr, nullptr,
          std::move(waits));
}

} // namespace simt::detail
