#include "conditionals.h"

#include <algorithm>
#include <string_view>
#include <utility>
#include <vector>

namespace simt::rewrite {
namespace {

struct Frame {
    bool parent_dead; // the whole conditional sits in disabled text
    bool dead;        // the branch being read is disabled
    bool taken;       // `#if 1`: every later branch is disabled
};

} // namespace

void remove_disabled_blocks(Lexed& lexed) {
    const auto& toks = lexed.directive_tokens;
    auto word = [&](const Directive& d, std::size_t k) -> std::string_view {
        return d.first + k < d.end ? toks[d.first + k].text : std::string_view{};
    };

    // Byte ranges [begin, end) of disabled text, and which directives sit inside them.
    std::vector<std::pair<std::size_t, std::size_t>> dead_ranges;
    std::vector<bool> directive_dead(lexed.directives.size(), false);
    std::vector<Frame> stack;
    std::size_t dead_since = 0;
    auto is_dead = [&] { return !stack.empty() && stack.back().dead; };

    for (std::size_t i = 0; i < lexed.directives.size(); ++i) {
        const Directive& d = lexed.directives[i];
        const std::string_view name = word(d, 1);
        const bool was_dead = is_dead();
        directive_dead[i] = was_dead && (name != "else" && name != "elif" && name != "endif");
        if (!stack.empty() && stack.back().parent_dead) directive_dead[i] = true;

        if (name == "if" || name == "ifdef" || name == "ifndef") {
            const bool one_word = name == "if" && d.end - d.first == 3;
            const bool zero = one_word && word(d, 2) == "0";
            const bool one = one_word && word(d, 2) == "1";
            stack.push_back({was_dead, was_dead || zero, one});
        } else if ((name == "else" || name == "elif") && !stack.empty()) {
            // After `#if 0` the next branch may be compiled; after `#if 1` none is.
            Frame& f = stack.back();
            f.dead = f.parent_dead || f.taken;
        } else if (name == "endif" && !stack.empty()) {
            stack.pop_back();
        }

        const bool now_dead = is_dead();
        const std::size_t line_begin = toks[d.first].begin;
        const std::size_t line_end = d.end > d.first ? toks[d.end - 1].end() : line_begin;
        if (!was_dead && now_dead) dead_since = line_end;
        if (was_dead && !now_dead) dead_ranges.push_back({dead_since, line_begin});
    }
    if (is_dead()) dead_ranges.push_back({dead_since, static_cast<std::size_t>(-1)});
    if (dead_ranges.empty()) return;

    auto in_dead = [&](std::size_t offset) {
        auto it = std::upper_bound(dead_ranges.begin(), dead_ranges.end(), offset,
                                   [](std::size_t o, const auto& r) { return o < r.first; });
        return it != dead_ranges.begin() && offset < std::prev(it)->second;
    };
    std::erase_if(lexed.code, [&](const Token& t) { return in_dead(t.begin); });

    // Directives inside disabled text go too (a #define there defines nothing). The #if 0 and
    // its #endif stay, so a rewrite can still see that it would span them.
    std::vector<Directive> live;
    for (std::size_t i = 0; i < lexed.directives.size(); ++i) {
        if (!directive_dead[i]) live.push_back(lexed.directives[i]);
    }
    lexed.directives = std::move(live);
}

} // namespace simt::rewrite
