// Which memory holds data that came from a watched input (simt/provenance.h), so that the watch
// can tell an output the kernels computed from one they only copied from somewhere else (an
// answer host code prepared). Tracked per 4-byte word of device memory and of each block's
// shared memory, and per emulated thread: a thread that loads a derived word (or receives one
// through a warp intrinsic or a block-wide vote) is derived from then on, and every word it
// stores is derived; a word stored by a thread that is not is not. Host writes (cudaMemcpy from
// the host, cudaMemset) clear the words they write; device-to-device copies carry the marks.
// A thread's registers are not followed one by one: a thread that loads the input and then
// stores something else still counts as computing from it.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <vector>

namespace simt::detail {

class DataFlow {
  public:
    DataFlow() { forget_cached_pages(); }
    // On while a provenance watch with at least one input is on: kernels launched then follow
    // the data (engine.cpp), others pay nothing.
    bool on() const { return on_; }
    void begin(); // forgets every mark, and turns tracking off until an input is marked
    void end();   // off, every mark forgotten

    // [base, base + bytes) of device memory holds derived data (or, `derived` false, not).
    void mark(uintptr_t base, size_t bytes, bool derived);
    // An input: marks it and turns tracking on.
    void mark_input(uintptr_t base, size_t bytes);
    // Whether any word of [base, base + bytes) of device memory is derived.
    bool any(uintptr_t base, size_t bytes) const;
    // Whether every word of [base, base + bytes) is.
    bool all(uintptr_t base, size_t bytes) const;
    // [dst, dst + bytes) now holds what [src, src + bytes) held (a device-to-device copy).
    void copy(uintptr_t dst, uintptr_t src, size_t bytes);

    // A kernel thread's access of device memory: a load of a derived word makes the thread
    // derived; a store marks the words it writes as the thread is (a store of less than a
    // word keeps a derived word derived); an atomic does both.
    void access(bool& thread_derived, uintptr_t address, size_t bytes, bool reads, bool writes);

    // The same for one block's shared memory, `bits` its marks (one bit per 4-byte word from
    // the start of its buffer; grown as needed), `offset` the access's offset in the buffer.
    static void access_shared(std::vector<uint64_t>& bits, bool& thread_derived, size_t offset,
                              size_t bytes, bool reads, bool writes);
    // The same two for the common access, inline and calling nothing (a frame on a fiber's cold
    // stack costs a cache miss): whole words whose marks share one 64-bit word, of a page looked
    // up before (device memory) or of marks already there (shared memory). False, with nothing
    // changed, for anything else: access() or access_shared() does it then.
    bool access_fast(bool& thread_derived, uintptr_t address, size_t bytes, bool reads,
                     bool writes);
    static bool access_shared_fast(std::vector<uint64_t>& bits, bool& thread_derived, size_t offset,
                                   size_t bytes, bool reads, bool writes);

  private:
    static constexpr unsigned kPageShift = 12;
    static constexpr size_t kWordsPerPage = (size_t{1} << kPageShift) / 4;
    using Page = std::array<uint64_t, kWordsPerPage / 64>;
    Page* page(uintptr_t address, bool create);
    const Page* find_page(uintptr_t address) const;
    bool test(uintptr_t word_address) const;
    void set(uintptr_t word_address, bool derived);

    bool on_ = false;
    std::unordered_map<uintptr_t, Page> pages_;
    // The pages found last, by page number modulo kCachedPages (a null page: none there yet): a
    // kernel that loads in[i] and stores out[i] alternates between two pages, which one cached
    // page would miss on every access.
    static constexpr size_t kCachedPages = 16;
    void forget_cached_pages();
    std::array<uintptr_t, kCachedPages> cached_keys_;
    std::array<Page*, kCachedPages> cached_pages_;
};

namespace data_flow_detail {
// The marks of `words` whole words from word `first` (of a page or of a block's shared memory)
// in `marks`, the 64-bit word that holds all of them: a read of a marked word makes the thread
// derived; a write marks them as the thread is.
inline void follow(uint64_t& marks, bool& thread_derived, size_t first, size_t words, bool reads,
                   bool writes) {
    const uint64_t mask = ((uint64_t{1} << words) - 1) << (first % 64);
    if (reads && !thread_derived && (marks & mask) != 0) thread_derived = true;
    if (writes) marks = thread_derived ? marks | mask : marks & ~mask;
}
} // namespace data_flow_detail

inline bool DataFlow::access_fast(bool& thread_derived, uintptr_t address, size_t bytes, bool reads,
                                  bool writes) {
    const size_t first = (address >> 2) & (kWordsPerPage - 1), words = bytes / 4;
    if (((address | bytes) & 3) != 0 || words == 0 || words > 4 || first % 64 + words > 64)
        return false;
    const uintptr_t key = address >> kPageShift;
    const size_t slot = key % kCachedPages;
    if (cached_keys_[slot] != key) return false;
    Page* p = cached_pages_[slot];
    // A page with no marks (the kernel's parameters, say): nothing to read, nothing to clear.
    if (!p) return !(writes && thread_derived);
    data_flow_detail::follow((*p)[first / 64], thread_derived, first, words, reads, writes);
    return true;
}

inline bool DataFlow::access_shared_fast(std::vector<uint64_t>& bits, bool& thread_derived,
                                         size_t offset, size_t bytes, bool reads, bool writes) {
    const size_t first = offset / 4, words = bytes / 4;
    if (((offset | bytes) & 3) != 0 || words == 0 || words > 4 || first % 64 + words > 64 ||
        first / 64 >= bits.size())
        return false;
    data_flow_detail::follow(bits[first / 64], thread_derived, first, words, reads, writes);
    return true;
}

DataFlow& data_flow();

} // namespace simt::detail
