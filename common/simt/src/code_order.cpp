#include "code_order.h"

#include <algorithm>
#include <climits>
#include <map>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "source_lines.h"

namespace simt::detail {
namespace {

// Lines of the frames, outermost first, then the code address (the loop condition's: the
// largest, after every access on its line). Frames a key lacks count as after every line: a
// position in the caller's statement orders after the positions inside the call it makes.
struct Key {
    std::vector<int> lines;
    uintptr_t pc = 0;
};

struct KeyLess {
    bool operator()(const Key& a, const Key& b) const {
        const size_t depth = std::max(a.lines.size(), b.lines.size());
        for (size_t i = 0; i < depth; ++i) {
            const int x = i < a.lines.size() ? a.lines[i] : INT_MAX;
            const int y = i < b.lines.size() ? b.lines[i] : INT_MAX;
            if (x != y) return x < y;
        }
        return a.pc < b.pc;
    }
};

class CodeOrder {
  public:
    // `end_line` 0: an access; else a loop condition placed after its body's last token, at
    // `end_order` (the column times 8, plus the loops inside that end there too) of `end_line`.
    const CodePosition* find(const void* pc, CallPath calls, int end_line, int end_order) {
        const uint64_t end = end_line > 0 ? static_cast<uint64_t>(end_line) << 32 |
                                                static_cast<uint32_t>(std::max(end_order, 0))
                                          : 0;
        // The lanes of a warp step through the same positions one after the other: the last
        // one found, compared whole (no hashing), answers most lookups (inline, calling
        // nothing: the rest is find_again()).
        const LastFound& last = last_found_;
        if (last.position && last.pc == pc && last.end == end && last.depth == calls.depth &&
            same_sites(calls, last.sites)) [[likely]]
            return last.position;
        return find_again(pc, calls, end);
    }

  private:
    [[gnu::noinline]] const CodePosition* find_again(const void* pc, CallPath calls, uint64_t end) {
        LastFound& last = last_found_;
        // One 64-bit fingerprint of the call path, the address and the loop end.
        uint64_t id = mix(reinterpret_cast<uintptr_t>(pc) ^ mix(end));
        for (unsigned i = 0; i < calls.depth; ++i)
            id = mix(id ^ reinterpret_cast<uintptr_t>(calls.sites[i]));
        Slot& slot = cache_[id % kCacheSlots];
        const CodePosition* position = slot.position;
        if (slot.id != id || !position) {
            std::lock_guard lock(mutex_);
            auto known = by_id_.find(id);
            position = known != by_id_.end() ? known->second : insert(pc, calls, end);
            if (known == by_id_.end()) by_id_.emplace(id, position);
            slot = Slot{id, position};
        }
        if (calls.depth <= kLastSites) {
            last.pc = pc;
            last.end = end;
            last.depth = calls.depth;
            std::copy(calls.sites, calls.sites + calls.depth, last.sites);
            last.position = position;
        }
        return position;
    }

    struct Slot {
        uint64_t id = 0;
        const CodePosition* position = nullptr;
    };
    static uint64_t mix(uint64_t x) { // splitmix64's finalizer
        x ^= x >> 30;
        x *= 0xBF58476D1CE4E5B9ull;
        x ^= x >> 27;
        x *= 0x94D049BB133111EBull;
        return x ^ (x >> 31);
    }
    // The call paths are short (most positions are in the kernel itself, depth 0 or 1): a loop,
    // not std::equal's call of memcmp.
    static bool same_sites(CallPath calls, const void* const* sites) {
        for (unsigned i = 0; i < calls.depth; ++i)
            if (calls.sites[i] != sites[i]) return false;
        return true;
    }
    static constexpr size_t kCacheSlots = 1024;
    static constexpr unsigned kLastSites = 8; // Thread::kCallSites: a CallPath is never deeper
    struct LastFound {
        const void* pc = nullptr;
        uint64_t end = 0;
        unsigned depth = 0;
        const void* sites[kLastSites] = {};
        const CodePosition* position = nullptr;
    };
    // Per host thread: launches of several host threads look positions up at once.
    static thread_local LastFound last_found_;

    const CodePosition* insert(const void* pc, CallPath calls, uint64_t end) {
        Key key;
        // The lines of each call site (the emulator's own, such as the launch's call of the
        // kernel, have none), then those of the position itself.
        for (unsigned i = 0; i < calls.depth; ++i) {
            const std::vector<int> lines = resolve_source(calls.sites[i]).frame_lines;
            key.lines.insert(key.lines.end(), lines.begin(), lines.end());
        }
        const size_t own = key.lines.size();
        const std::vector<int> lines = resolve_source(pc).frame_lines;
        key.lines.insert(key.lines.end(), lines.begin(), lines.end());
        key.pc = reinterpret_cast<uintptr_t>(pc);
        if (end != 0) {
            // The condition of a loop: at the end of its body, after every access there, and
            // the same position wherever the compiler copied the test.
            const int line = static_cast<int>(end >> 32);
            if (key.lines.size() == own)
                key.lines.push_back(line);
            else
                key.lines.back() = std::max(key.lines.back(), line);
            key.pc = UINTPTR_MAX - (uintptr_t{1} << 32) + (end & 0xFFFFFFFFu);
        }
        auto [it, added] = ordered_.try_emplace(std::move(key));
        if (!added) return it->second.get();
        it->second = std::make_unique<CodePosition>();
        uint64_t rank = 1; // 0 is a lane that has not reached any position yet
        for (auto& entry : ordered_) entry.second->rank = rank++;
        return it->second.get();
    }

    std::mutex mutex_;
    Slot cache_[kCacheSlots];
    std::unordered_map<uint64_t, const CodePosition*> by_id_;
    std::map<Key, std::unique_ptr<CodePosition>, KeyLess> ordered_;
};

thread_local CodeOrder::LastFound CodeOrder::last_found_;

CodeOrder& code_order() {
    static CodeOrder order;
    return order;
}

} // namespace

const CodePosition* code_position(const void* pc, CallPath calls) {
    return code_order().find(pc, calls, 0, 0);
}

const CodePosition* loop_end_position(const void* pc, CallPath calls, int end_line, int end_order) {
    return code_order().find(pc, calls, end_line, end_order);
}

} // namespace simt::detail
