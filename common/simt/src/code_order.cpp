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
    const CodePosition* find(const void* pc, int end_line, int end_order) {
        const uintptr_t address = reinterpret_cast<uintptr_t>(pc);
        const uint64_t end = end_line > 0 ? static_cast<uint64_t>(end_line) << 32 |
                                                static_cast<uint32_t>(std::max(end_order, 0))
                                          : 0;
        Slot& slot = cache_[(address ^ end * 0x9E3779B97F4A7C15ull) % kCacheSlots];
        if (slot.pc == address && slot.end == end) return slot.position;
        std::lock_guard lock(mutex_);
        const auto id = std::make_pair(address, end);
        auto known = by_pc_.find(id);
        const CodePosition* position = known != by_pc_.end() ? known->second : insert(pc, end);
        if (known == by_pc_.end()) by_pc_.emplace(id, position);
        slot = Slot{address, end, position};
        return position;
    }

  private:
    struct PairHash {
        size_t operator()(const std::pair<uintptr_t, uint64_t>& p) const {
            return std::hash<uintptr_t>()(p.first) ^ std::hash<uint64_t>()(p.second) * 31;
        }
    };
    struct Slot {
        uintptr_t pc = 0;
        uint64_t end = 0;
        const CodePosition* position = nullptr;
    };
    static constexpr size_t kCacheSlots = 1024;

    const CodePosition* insert(const void* pc, uint64_t end) {
        Key key;
        key.lines = resolve_source(pc).frame_lines;
        key.pc = reinterpret_cast<uintptr_t>(pc);
        if (end != 0) {
            // The condition of a loop: at the end of its body, after every access there, and
            // the same position wherever the compiler copied the test.
            const int line = static_cast<int>(end >> 32);
            if (key.lines.empty())
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
    std::unordered_map<std::pair<uintptr_t, uint64_t>, const CodePosition*, PairHash> by_pc_;
    std::map<Key, std::unique_ptr<CodePosition>, KeyLess> ordered_;
};

CodeOrder& code_order() {
    static CodeOrder order;
    return order;
}

} // namespace

const CodePosition* code_position(const void* pc) {
    return code_order().find(pc, 0, 0);
}

const CodePosition* loop_end_position(const void* pc, int end_line, int end_order) {
    return code_order().find(pc, end_line, end_order);
}

} // namespace simt::detail
