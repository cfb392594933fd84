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
    // `end`: loop_end_key() of a loop condition, else 0. The last one found answers most
    // lookups inline; the rest is find_again().
    const CodePosition* find(const void* pc, CallPath calls, uint64_t end) {
        if (const CodePosition* p = last_found_.find(pc, calls, end)) [[likely]]
            return p;
        return find_again(pc, calls, end);
    }

  private:
    [[gnu::noinline]] const CodePosition* find_again(const void* pc, CallPath calls, uint64_t end) {
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
        last_found_.remember(pc, calls, end, position);
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
    static constexpr size_t kCacheSlots = 1024;
    // Per host thread: launches of several host threads look positions up at once.
    static thread_local PositionMemo last_found_;

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

thread_local PositionMemo CodeOrder::last_found_;

CodeOrder& code_order() {
    static CodeOrder order;
    return order;
}

} // namespace

const CodePosition* code_position(const void* pc, CallPath calls, uint64_t end) {
    return code_order().find(pc, calls, end);
}

} // namespace simt::detail
