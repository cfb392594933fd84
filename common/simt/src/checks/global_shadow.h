// What the emulator remembers about device memory between kernel accesses: per 4-byte word,
// whether anything ever wrote it (initcheck), and the last write and read of the running launch
// (race and ordering checks). Pages of shadow are made on first use, so a large allocation costs
// memory only where kernels touch it. It lives as long as the program: host copies between
// launches mark memory as written.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <unordered_map>

namespace simt::detail {

// How an access reaches memory. Plain accesses may be kept in registers, merged or reordered by
// the compiler and the hardware; volatile and atomic ones ("strong") happen as written, and two
// strong accesses never form a data race (CUDA's memory model calls them morally strong).
enum class Strength : uint8_t { plain, volatile_, atomic_block, atomic_device };
inline bool is_strong(Strength s) {
    return s != Strength::plain;
}
inline bool is_atomic(Strength s) {
    return s == Strength::atomic_block || s == Strength::atomic_device;
}

// The last write and read of one word in one launch. Threads are numbered across the grid
// (block * threads per block + thread + 1; 0 is nobody), clocks are the accessing block's.
struct GlobalWord {
    uint32_t writer = 0;
    uint32_t write_clock = 0;
    uint32_t write_time = 0; // the checker's event count at the write: program and real order
    uint32_t reader = 0;
    uint32_t read_clock = 0;
    uint32_t write_site = 0; // interned code addresses
    uint32_t read_site = 0;
    uint16_t write_warp_sync = 0;
    uint16_t read_warp_sync = 0;
    uint16_t launch = 0; // the launch the fields above belong to
    Strength write_strength = Strength::plain;
    Strength read_strength = Strength::plain;
    bool read_polled = false;    // the read repeated the reader's previous plain read (a spin)
    bool kernel_written = false; // last written by a kernel (not the host) in an earlier launch
    // Relaxed visibility: other blocks see old_value until the event count reaches visible_at.
    uint32_t old_value = 0;
    uint32_t visible_at = 0;
};

class GlobalShadow {
  public:
    static constexpr unsigned kPageShift = 12; // 4 KiB: allocations are page-aligned
    static constexpr size_t kWordsPerPage = (size_t{1} << kPageShift) / 4;

    // Whether the word at `address` was ever written (by the host or a kernel).
    bool initialized(uintptr_t address) {
        const Page* p = page(address, false);
        const size_t w = word_index(address);
        return p && ((p->written[w / 64] >> (w % 64)) & 1u);
    }

    // The word's entry, made on first use; `initialized` is set from the same page lookup.
    GlobalWord& word(uintptr_t address, bool* initialized = nullptr);
    // The word's entry if its page is among the last few looked up and has entries, else null
    // (then word() makes it); sets `initialized` like word(). Inline: the fast path calls it.
    GlobalWord* cached_word(uintptr_t address, bool& initialized) {
        const uintptr_t key = address >> kPageShift;
        for (unsigned i = 0; i < kRecent; ++i) {
            if (recent_key_[i] != key) continue;
            Page* p = recent_page_[i];
            if (!p->words) return nullptr;
            const size_t w = word_index(address);
            last_written_ = &p->written[w / 64];
            last_bit_ = uint64_t{1} << (w % 64);
            initialized = (*last_written_ & last_bit_) != 0;
            return &p->words[w];
        }
        return nullptr;
    }
    // Marks the word of the last word() or cached_word() call written (no second lookup).
    void mark_last_initialized() { *last_written_ |= last_bit_; }
    // The host wrote [base, base + bytes) (cudaMemcpy, cudaMemset): initialized, and no longer
    // "written by an earlier kernel".
    void host_wrote(uintptr_t base, size_t bytes);
    // Memory that was allocated or freed: forget everything about it.
    void forget(uintptr_t base, size_t bytes);
    // A new launch: entries of earlier launches count as ordered before it.
    uint16_t begin_launch() {
        if (++launch_ == 0) launch_ = 1;
        return launch_;
    }

  private:
    struct Page {
        uint64_t written[kWordsPerPage / 64] = {};
        std::unique_ptr<GlobalWord[]> words; // made when a kernel first touches the page
    };
    static size_t word_index(uintptr_t address) { return (address >> 2) & (kWordsPerPage - 1); }
    Page* page(uintptr_t address, bool create);

    std::unordered_map<uintptr_t, std::unique_ptr<Page>> pages_;
    // The pages of the last few lookups (kernels alternate between input and output).
    static constexpr unsigned kRecent = 4;
    uintptr_t recent_key_[kRecent] = {~uintptr_t{0}, ~uintptr_t{0}, ~uintptr_t{0}, ~uintptr_t{0}};
    Page* recent_page_[kRecent] = {};
    unsigned next_recent_ = 0;
    uint64_t* last_written_ = nullptr; // the last word()'s bitmap word and bit
    uint64_t last_bit_ = 0;

    uint16_t launch_ = 0;
};

GlobalShadow& global_shadow();

} // namespace simt::detail
