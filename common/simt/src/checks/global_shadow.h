// What the emulator remembers about device memory between kernel accesses: per 4-byte word,
// whether anything ever wrote it (initcheck), and the last write and read of the running launch
// (race and ordering checks). Pages of shadow are made on first use, so a large allocation costs
// memory only where kernels touch it. It lives as long as the program: host copies between
// launches mark memory as written.
//
// Races are between accesses that share a byte: threads that store neighbouring bytes of one
// word (a bool or char per thread) do not race, on a GPU or here. Each record keeps the bytes
// its access touched.
//
// The last write and the last read of a word are kept apart (GlobalWrite, GlobalRead), and
// per-page bitmaps say which of them belong to the running launch: a load touches only the read
// record (and the write record only when a kernel wrote the word in this launch), a store only
// the write record. Most words are touched once per launch, so this is most of the checks' cost
// in memory traffic.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <unordered_map>

namespace simt::detail {

// Counts the changes after which a Region* or a shadow page that a cache keyed by address holds
// may be gone or mean something else: a region added or removed, a region's kernel-write
// tracking changed, shadow pages forgotten, a new launch. The global checks' per-site cache
// (GlobalMemoryChecker::SiteSpan) compares it.
inline uint32_t memory_map_generation = 1;

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

// The last write of a word in the running launch. Threads are numbered across the grid
// (block * threads per block + thread + 1); clocks are the writing block's.
struct alignas(32) GlobalWrite {
    uint32_t writer;
    uint32_t write_clock;
    uint32_t write_time; // the checker's access count at the write: program and real order
    uint32_t write_site; // interned code address
    // Relaxed visibility: other blocks see old_value until the access count reaches visible_at.
    uint32_t old_value;
    uint32_t visible_at;
    uint16_t write_warp_sync;
    Strength write_strength;
    uint8_t write_bytes; // bit i: the write stored byte i of the word
    // The store this word was part of: how many words it wrote, and which of them this is (a
    // 64-bit descriptor stored at once is 2 and 0 or 1; a reader that loads its halves apart may
    // see halves of two different stores).
    uint8_t store_words;
    uint8_t store_index;
    // The checker keeps a history of this word (strong stores wrote it in this launch: see
    // GlobalMemoryChecker::WordHistory): only such words need the history looked up.
    bool has_history;
    // The writing block's barriers and device fences so far, mod 256 (BlockSync::fences): two
    // stores of one block with one between them are ordered (write_clock also moves at mbarrier
    // operations, which order nothing for other blocks).
    uint8_t write_fences;
};
static_assert(sizeof(GlobalWrite) == 32, "a write record is half a cache line");

// The last read of a word in the running launch (atomics count as writes only).
struct alignas(16) GlobalRead {
    uint32_t reader;
    uint32_t read_clock;
    uint32_t read_site;
    uint16_t read_warp_sync;
    Strength read_strength;
    uint8_t read_bytes : 4;  // bit i: the read loaded byte i of the word
    uint8_t read_polled : 1; // the read repeated the reader's previous plain read (a spin)
};

class GlobalShadow {
    struct Page;

  public:
    static constexpr unsigned kPageShift = 12; // 4 KiB: allocations are page-aligned
    static constexpr size_t kWordsPerPage = (size_t{1} << kPageShift) / 4;

    // One word's shadow in the running launch.
    class Word {
      public:
        Word() = default;
        bool initialized() const { return test(page_->written); }
        void mark_initialized() { set(page_->written); }
        // A kernel wrote or read the word in this launch: write() or read() is its record.
        bool written_now() const { return test(page_->written_now); }
        bool read_now() const { return test(page_->read_now); }
        // Last written by a kernel of an earlier launch (and not by the host since).
        bool kernel_left() const { return test(page_->kernel_left); }
        // The same, and that kernel may be the one running now: a launch of the same kernel, or
        // one the shadow cannot tell (another process left it: tools/worker). A word another kernel
        // left for this one is what the stream order hands over (an init kernel's counter); one
        // this kernel's earlier launch left is a missing reset.
        bool kernel_left_by_this_kernel() const {
            if (!kernel_left()) return false;
            const void* by = page_->left_by_of(index_);
            return by == kAnyKernel || by == page_->kernel;
        }
        // Written or read by the launch just before this one (programmatic dependent launch:
        // what a kernel may touch only after cudaGridDependencySynchronize()).
        bool written_before() const { return test(page_->written_before); }
        bool read_before() const { return test(page_->read_before); }
        // The records; hold stale data until the matching *_now() is true.
        GlobalWrite& write() const { return page_->writes[index_]; }
        GlobalRead& read() const { return page_->reads[index_]; }
        void set_written_now() { set(page_->written_now); }
        void set_read_now() { set(page_->read_now); }
        void clear_read_now() { page_->read_now[index_ / 64] &= ~bit(); }
        // The word after it, on the same page (the words of an aligned access of up to 16
        // bytes, which no page boundary splits).
        Word next() const { return Word(page_, index_ + 1); }

      private:
        friend class GlobalShadow;
        Word(Page* page, size_t index) : page_(page), index_(index) {}
        uint64_t bit() const { return uint64_t{1} << (index_ % 64); }
        bool test(const uint64_t* bits) const { return (bits[index_ / 64] & bit()) != 0; }
        void set(uint64_t* bits) { bits[index_ / 64] |= bit(); }
        Page* page_ = nullptr;
        size_t index_ = 0;
    };

    // A page that cached_word() found: the global checks' per-site cache keeps it while
    // memory_map_generation (above) stays the same (a new launch or forgotten pages
    // change it), and finds its words with word_on() alone.
    class PageRef {
        friend class GlobalShadow;
        Page* page_ = nullptr;
    };
    static Word word_on(PageRef page, uintptr_t address) {
        return Word(page.page_, word_index(address));
    }

    // Whether the word at `address` was ever written (by the host or a kernel).
    bool initialized(uintptr_t address) {
        const Page* p = page(address, false);
        const size_t w = word_index(address);
        return p && ((p->written[w / 64] >> (w % 64)) & 1u);
    }
    // The word's shadow (records made on first use).
    Word word(uintptr_t address);
    // The same if its page is among the last few looked up, has records and was touched in this
    // launch before, else false (then word() does what is needed). Inline and calling nothing:
    // the checks' fast path uses it.
    bool cached_word(uintptr_t address, Word& out) const {
        PageRef page;
        if (!cached_page(address, page)) return false;
        out = word_on(page, address);
        return true;
    }
    bool cached_page(uintptr_t address, PageRef& out) const {
        const uintptr_t key = address >> kPageShift;
        for (unsigned i = 0; i < kRecent; ++i) {
            if (recent_key_[i] != key) continue;
            Page* p = recent_page_[i];
            if (!p->writes || p->launch != launch_) return false;
            out.page_ = p;
            return true;
        }
        return false;
    }
    // The host wrote [base, base + bytes) (cudaMemcpy, cudaMemset): initialized, and no longer
    // "written by an earlier kernel".
    void host_wrote(uintptr_t base, size_t bytes);
    // Whether a kernel of an earlier launch (or of the running one) last wrote the word, not the
    // host since (tools/worker ships this with device memory: simt/remote_state.h).
    bool kernel_wrote(uintptr_t address) {
        const Page* p = page(address, false);
        const size_t w = word_index(address);
        return p && (((p->kernel_left[w / 64] | p->written_now[w / 64]) >> (w % 64)) & 1u);
    }
    // The words of [base, base + bytes) were last written by a kernel of an earlier launch (as
    // in the process that ran it): initialized, and what a later launch reads there is stale
    // unless it writes it first.
    void kernel_left_behind(uintptr_t base, size_t bytes);
    // The words of [base, base + bytes) were reset by a kernel for the next launch (zeros that
    // the launch before left, simt::accept_reset_by_earlier_launch): not stale for the next
    // launch, but still written by the launch before it (a programmatic dependent launch must
    // not touch them before cudaGridDependencySynchronize()).
    void accept_reset(uintptr_t base, size_t bytes);
    // Some kernel of an earlier launch, not known which (Word::kernel_left_by_this_kernel()).
    static inline const void* const kAnyKernel = reinterpret_cast<const void*>(uintptr_t{1});
    // Memory that was allocated or freed: forget everything about it.
    void forget(uintptr_t base, size_t bytes);
    // The same for the words of [base, base + bytes) alone, which may share their pages with
    // other allocations (the device heap's, src/device_heap.cpp).
    void forget_words(uintptr_t base, size_t bytes);
    // A new launch of `kernel` (its address): the records of earlier launches count as ordered
    // before it.
    uint32_t begin_launch(const void* kernel) {
        ++memory_map_generation;
        if (++launch_ == 0) launch_ = 1;
        kernel_ = kernel;
        return launch_;
    }
    // The host copied to device memory since the last launch began (a programmatic launch then
    // waits for the launch before it: the copy in between is ordered after it in the stream).
    bool host_wrote_since_launch() const { return host_since_launch_; }
    void clear_host_wrote_since_launch() { host_since_launch_ = false; }

  private:
    static constexpr size_t kBitmapWords = kWordsPerPage / 64;
    struct Page {
        uint64_t written[kBitmapWords] = {};        // ever written (host or kernel)
        uint64_t written_now[kBitmapWords] = {};    // by a kernel in launch `launch`
        uint64_t read_now[kBitmapWords] = {};       // by a kernel in launch `launch`
        uint64_t kernel_left[kBitmapWords] = {};    // see Word::kernel_left()
        uint64_t written_before[kBitmapWords] = {}; // by a kernel in launch `launch` - 1
        uint64_t read_before[kBitmapWords] = {};
        uint64_t accepted_reset[kBitmapWords] = {}; // see accept_reset()
        uint32_t launch = 0;
        const void* kernel = nullptr;  // the kernel of launch `launch`
        const void* left_by = nullptr; // the kernel that left kernel_left's words, or kAnyKernel
        // Once two kernels left words of the page (an init kernel's counter beside the
        // descriptors a scan left, or the device heap's objects), the kernel of each word:
        // judged by page, the words of either would count as possibly left by the other.
        std::unique_ptr<const void*[]> left_by_word;
        const void* left_by_of(size_t index) const {
            return left_by_word ? left_by_word[index] : left_by;
        }
        // The words of `bits` (word 64 * i + j: bit j of bits[i]) were left by `by`, a kernel
        // or kAnyKernel; `others`: the page keeps words of kernel_left that `bits` leaves out.
        void note_left_by(const uint64_t* bits, const void* by, bool others) {
            if (!left_by_word) {
                if (!others || left_by == by) {
                    left_by = by;
                    return;
                }
                left_by_word.reset(new const void*[kWordsPerPage]);
                std::fill_n(left_by_word.get(), kWordsPerPage, left_by);
            }
            for (size_t i = 0; i < kBitmapWords; ++i)
                for (uint64_t m = bits[i]; m != 0; m &= m - 1)
                    left_by_word[64 * i + static_cast<size_t>(__builtin_ctzll(m))] = by;
        }
        std::unique_ptr<GlobalWrite[]> writes; // made when a kernel first touches the page
        std::unique_ptr<GlobalRead[]> reads;
        // The first touch in a launch: what earlier launches did is ordered before it.
        void begin_launch(uint32_t now, const void* kernel_now) {
            // Words an older launch left that this page's last launch did not overwrite: if
            // that was another kernel, the page's words now come from two kernels.
            uint64_t left_now[kBitmapWords];
            bool older_kept = false, leaves = false;
            for (size_t i = 0; i < kBitmapWords; ++i) {
                left_now[i] = written_now[i] & ~accepted_reset[i];
                older_kept |= (kernel_left[i] & ~left_now[i]) != 0;
                leaves |= left_now[i] != 0;
                kernel_left[i] |= left_now[i];
                accepted_reset[i] = 0;
            }
            if (leaves) note_left_by(left_now, kernel, older_kept);
            if (launch + 1 == now) { // the page was touched by the launch just before
                std::memcpy(written_before, written_now, sizeof written_before);
                std::memcpy(read_before, read_now, sizeof read_before);
            } else {
                std::memset(written_before, 0, sizeof written_before);
                std::memset(read_before, 0, sizeof read_before);
            }
            std::memset(written_now, 0, sizeof written_now);
            std::memset(read_now, 0, sizeof read_now);
            launch = now;
            kernel = kernel_now;
        }
    };
    static size_t word_index(uintptr_t address) { return (address >> 2) & (kWordsPerPage - 1); }
    Page* page(uintptr_t address, bool create);
    // Calls mark(page, index of the word's bitmap entry, the word's bit) for each word of
    // [base, base + bytes), looking each page up once.
    template <class Mark>
    void for_each_word(uintptr_t base, size_t bytes, Mark mark);
    // host_wrote() and kernel_left_behind(): the words' values came in through the host, and
    // were last written by a kernel (of another process) or not.
    void arrived_from_host(uintptr_t base, size_t bytes, bool left_by_kernel);

    std::unordered_map<uintptr_t, std::unique_ptr<Page>> pages_;
    // The pages of the last few lookups (kernels alternate between input and output).
    static constexpr unsigned kRecent = 4;
    uintptr_t recent_key_[kRecent] = {~uintptr_t{0}, ~uintptr_t{0}, ~uintptr_t{0}, ~uintptr_t{0}};
    Page* recent_page_[kRecent] = {};
    unsigned next_recent_ = 0;

    uint32_t launch_ = 0;
    const void* kernel_ = nullptr; // the running launch's
    bool host_since_launch_ = false;
};

GlobalShadow& global_shadow();

} // namespace simt::detail
