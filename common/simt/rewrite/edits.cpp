#include "edits.h"

#include <algorithm>

#include "rewrite.h"

namespace simt::rewrite {

void EditList::replace(const SourceFile& src, std::size_t begin, std::size_t end,
                       std::string replacement, bool in_directive) {
    const std::string_view old = src.text().substr(begin, end - begin);
    bool had_newline = false;
    for (char c : old) {
        if (c != '\n') continue;
        replacement += in_directive ? "\\\n" : "\n";
        had_newline = true;
    }
    // Pad so that the rest of the last line keeps its columns too.
    if (had_newline) replacement.append(src.lines().position(end).col - 1, ' ');
    edits_.push_back({begin, end, std::move(replacement)});
}

void EditList::insert(std::size_t at, std::string text) {
    edits_.push_back({at, at, std::move(text)});
}

std::string EditList::apply(const SourceFile& src) const {
    std::vector<const Edit*> order;
    for (const Edit& e : edits_) order.push_back(&e);
    std::stable_sort(order.begin(), order.end(), [](const Edit* a, const Edit* b) {
        return a->begin != b->begin ? a->begin < b->begin : a->end < b->end;
    });

    const std::string_view text = src.text();
    std::string out;
    out.reserve(text.size() + text.size() / 8);
    std::size_t copied = 0;
    for (const Edit* e : order) {
        if (e->begin < copied) {
            const SourcePosition pos = src.lines().position(e->begin);
            throw RewriteError(pos.line, pos.col,
                               "simt-rewrite: two rewrites overlap here; please report this");
        }
        out += text.substr(copied, e->begin - copied);
        out += e->text;
        copied = e->end;
    }
    out += text.substr(copied);
    return out;
}

} // namespace simt::rewrite
