#include "global_shadow.h"

namespace simt::detail {

GlobalShadow::Page* GlobalShadow::page(uintptr_t address, bool create) {
    const uintptr_t key = address >> kPageShift;
    for (unsigned i = 0; i < kRecent; ++i)
        if (recent_key_[i] == key) return recent_page_[i];
    auto it = pages_.find(key);
    if (it == pages_.end()) {
        if (!create) return nullptr;
        it = pages_.emplace(key, std::make_unique<Page>()).first;
    }
    const unsigned slot = next_recent_++ % kRecent;
    recent_key_[slot] = key;
    recent_page_[slot] = it->second.get();
    return recent_page_[slot];
}

GlobalShadow::Word GlobalShadow::word(uintptr_t address) {
    Page* p = page(address, true);
    if (!p->writes) {
        // Records are read only where a bitmap says they belong to the running launch: no
        // need to clear them.
        p->writes.reset(new GlobalWrite[kWordsPerPage]);
        p->reads.reset(new GlobalRead[kWordsPerPage]);
    }
    if (p->launch != launch_) p->begin_launch(launch_, kernel_);
    return Word(p, word_index(address));
}

template <class Mark>
void GlobalShadow::for_each_word(uintptr_t base, size_t bytes, Mark mark) {
    const uintptr_t end = base + bytes;
    for (uintptr_t a = base & ~uintptr_t{3}; a < end;) {
        Page* p = page(a, true);
        const uintptr_t page_end = ((a >> kPageShift) + 1) << kPageShift;
        const uintptr_t stop = end < page_end ? end : page_end;
        for (; a < stop; a += 4) {
            const size_t w = word_index(a);
            mark(*p, w / 64, uint64_t{1} << (w % 64));
        }
    }
}

void GlobalShadow::host_wrote(uintptr_t base, size_t bytes) {
    arrived_from_host(base, bytes, /*left_by_kernel=*/false);
}

void GlobalShadow::kernel_left_behind(uintptr_t base, size_t bytes) {
    arrived_from_host(base, bytes, /*left_by_kernel=*/true);
}

void GlobalShadow::arrived_from_host(uintptr_t base, size_t bytes, bool left_by_kernel) {
    if (bytes == 0) return;
    host_since_launch_ = true;
    for_each_word(base, bytes, [left_by_kernel](Page& p, size_t i, uint64_t bit) {
        p.written[i] |= bit;
        p.written_now[i] &= ~bit;
        p.read_now[i] &= ~bit;
        if (left_by_kernel) {
            // Which kernel, the other process does not say.
            uint64_t word[kBitmapWords] = {};
            word[i] = bit;
            // The page's other words matter only while one kernel, not "some kernel", is
            // named for the whole page (a large copy would scan the bitmap once per word).
            bool others = false;
            if (!p.left_by_word && p.left_by != kAnyKernel)
                for (size_t j = 0; j < kBitmapWords; ++j)
                    others |= (p.kernel_left[j] & ~word[j]) != 0;
            p.kernel_left[i] |= bit;
            p.note_left_by(word, kAnyKernel, others);
        } else
            p.kernel_left[i] &= ~bit;
    });
}

void GlobalShadow::accept_reset(uintptr_t base, size_t bytes) {
    for_each_word(base, bytes, [](Page& p, size_t i, uint64_t bit) {
        p.written[i] |= bit;
        p.kernel_left[i] &= ~bit;
        p.accepted_reset[i] |= bit;
    });
}

void GlobalShadow::forget(uintptr_t base, size_t bytes) {
    const uintptr_t end = base + bytes;
    for (uintptr_t key = base >> kPageShift; (key << kPageShift) < end; ++key) pages_.erase(key);
    ++memory_map_generation;
    for (unsigned i = 0; i < kRecent; ++i) {
        recent_key_[i] = ~uintptr_t{0};
        recent_page_[i] = nullptr;
    }
}

void GlobalShadow::forget_words(uintptr_t base, size_t bytes) {
    for_each_word(base, bytes, [](Page& p, size_t i, uint64_t bit) {
        for (uint64_t* bits : {p.written, p.written_now, p.read_now, p.kernel_left,
                               p.written_before, p.read_before, p.accepted_reset})
            bits[i] &= ~bit;
    });
}

GlobalShadow& global_shadow() {
    static GlobalShadow shadow;
    return shadow;
}

} // namespace simt::detail
