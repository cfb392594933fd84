#include "data_flow.h"

#include <algorithm>

namespace simt::detail {

namespace {

constexpr uintptr_t kFlowWord = 4;

// The words [first, last) that an access of [address, address + bytes) touches, and whether
// it covers each of them whole.
struct FlowWordSpan {
    uintptr_t first, last;
    bool whole_first, whole_last;
};
FlowWordSpan flow_words_of(uintptr_t address, size_t bytes) {
    const uintptr_t first = address & ~(kFlowWord - 1);
    const uintptr_t end = address + bytes;
    const uintptr_t last = (end + kFlowWord - 1) & ~(kFlowWord - 1);
    return {first, last, address == first && end >= first + kFlowWord,
            end == last && address <= last - kFlowWord};
}

} // namespace

void DataFlow::forget_cached_pages() {
    cached_keys_.fill(~uintptr_t{0});
    cached_pages_.fill(nullptr);
}

void DataFlow::begin() {
    pages_.clear();
    forget_cached_pages();
    on_ = false;
}

void DataFlow::end() {
    begin();
}

DataFlow::Page* DataFlow::page(uintptr_t address, bool create) {
    const uintptr_t key = address >> kPageShift;
    const size_t slot = key % kCachedPages;
    // A cached null page stays right until the page is made, which happens here, in this slot.
    if (cached_keys_[slot] == key && (cached_pages_[slot] || !create)) return cached_pages_[slot];
    auto it = pages_.find(key);
    if (it == pages_.end() && create) it = pages_.emplace(key, Page{}).first;
    cached_keys_[slot] = key;
    cached_pages_[slot] = it == pages_.end() ? nullptr : &it->second;
    return cached_pages_[slot];
}

const DataFlow::Page* DataFlow::find_page(uintptr_t address) const {
    return const_cast<DataFlow*>(this)->page(address, false);
}

bool DataFlow::test(uintptr_t word_address) const {
    const Page* p = find_page(word_address);
    if (!p) return false;
    const size_t w = (word_address >> 2) & (kWordsPerPage - 1);
    return ((*p)[w / 64] >> (w % 64)) & 1u;
}

void DataFlow::set(uintptr_t word_address, bool derived) {
    Page* p = page(word_address, derived);
    if (!p) return; // clearing a word of a page with no marks
    const size_t w = (word_address >> 2) & (kWordsPerPage - 1);
    const uint64_t bit = uint64_t{1} << (w % 64);
    (*p)[w / 64] = derived ? (*p)[w / 64] | bit : (*p)[w / 64] & ~bit;
}

void DataFlow::mark(uintptr_t base, size_t bytes, bool derived) {
    if (bytes == 0) return;
    const FlowWordSpan span = flow_words_of(base, bytes);
    constexpr uintptr_t kMarkBytes = 64 * kFlowWord; // the words of one 64-bit word of marks
    for (uintptr_t w = span.first; w < span.last;) {
        // Whole 64-bit words of marks at once (every allocation is marked, and every watched
        // input), the ends word by word.
        if (w % kMarkBytes == 0 && span.last - w >= kMarkBytes) {
            if (Page* p = page(w, derived))
                (*p)[((w >> 2) & (kWordsPerPage - 1)) / 64] = derived ? ~uint64_t{0} : 0;
            w += kMarkBytes;
        } else {
            set(w, derived);
            w += kFlowWord;
        }
    }
}

void DataFlow::mark_input(uintptr_t base, size_t bytes) {
    mark(base, bytes, true);
    on_ = true;
}

bool DataFlow::any(uintptr_t base, size_t bytes) const {
    if (bytes == 0) return false;
    const FlowWordSpan span = flow_words_of(base, bytes);
    for (uintptr_t w = span.first; w < span.last; w += kFlowWord)
        if (test(w)) return true;
    return false;
}

bool DataFlow::all(uintptr_t base, size_t bytes) const {
    const FlowWordSpan span = flow_words_of(base, bytes);
    for (uintptr_t w = span.first; w < span.last; w += kFlowWord)
        if (!test(w)) return false;
    return true;
}

void DataFlow::copy(uintptr_t dst, uintptr_t src, size_t bytes) {
    if (bytes == 0) return;
    // Word by word when both ends are aligned alike (every copy the labs make); otherwise a
    // destination word is derived when any source byte it receives is.
    std::vector<bool> marks;
    const FlowWordSpan span = flow_words_of(dst, bytes);
    for (uintptr_t w = span.first; w < span.last; w += kFlowWord) {
        const uintptr_t lo = std::max(w, dst), hi = std::min(w + kFlowWord, dst + bytes);
        marks.push_back(any(src + (lo - dst), hi - lo));
    }
    size_t i = 0;
    for (uintptr_t w = span.first; w < span.last; w += kFlowWord, ++i) {
        const bool whole = w >= dst && w + kFlowWord <= dst + bytes;
        set(w, marks[i] || (!whole && test(w)));
    }
}

void DataFlow::access(bool& thread_derived, uintptr_t address, size_t bytes, bool reads,
                      bool writes) {
    if (reads && !thread_derived && any(address, bytes)) thread_derived = true;
    if (!writes) return;
    const FlowWordSpan span = flow_words_of(address, bytes);
    for (uintptr_t w = span.first; w < span.last; w += kFlowWord) {
        const bool whole = (w != span.first || span.whole_first) &&
                           (w + kFlowWord != span.last || span.whole_last);
        // A store of part of a word leaves the rest as it was: derived if it was.
        set(w, thread_derived || (!whole && test(w)));
    }
}

void DataFlow::access_shared(std::vector<uint64_t>& bits, bool& thread_derived, size_t offset,
                             size_t bytes, bool reads, bool writes) {
    const FlowWordSpan span = flow_words_of(offset, bytes);
    const size_t last_word = span.last / kFlowWord;
    if (last_word > bits.size() * 64) bits.resize((last_word + 63) / 64, 0);
    const auto bit = [&](size_t w) { return (bits[w / 64] >> (w % 64)) & 1u; };
    if (reads && !thread_derived)
        for (size_t w = span.first / kFlowWord; w < last_word; ++w)
            if (bit(w)) thread_derived = true;
    if (!writes) return;
    for (size_t w = span.first / kFlowWord; w < last_word; ++w) {
        const bool whole = (w != span.first / kFlowWord || span.whole_first) &&
                           (w + 1 != last_word || span.whole_last);
        const bool derived = thread_derived || (!whole && bit(w));
        const uint64_t mask = uint64_t{1} << (w % 64);
        bits[w / 64] = derived ? bits[w / 64] | mask : bits[w / 64] & ~mask;
    }
}

DataFlow& data_flow() {
    static DataFlow flow;
    return flow;
}

} // namespace simt::detail
