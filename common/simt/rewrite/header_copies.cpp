#include "header_copies.h"

#include <cstdint>
#include <fstream>
#include <sstream>
#include <system_error>

#include "lexer.h"
#include "rewrite.h"
#include "source_file.h"

namespace simt::rewrite {
namespace {

namespace fs = std::filesystem;

std::string read_file(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw RewriteFailure("simt-rewrite: error: cannot read '" + path.string() + "'");
    std::ostringstream buffer;
    buffer << in.rdbuf();
    return buffer.str();
}

// FNV-1a: a stable name for a header's copy (std::hash may differ between builds).
std::uint64_t fnv1a(std::string_view s) {
    std::uint64_t h = 14695981039346656037ull;
    for (unsigned char c : s) {
        h ^= c;
        h *= 1099511628211ull;
    }
    return h;
}

std::string hex(std::uint64_t v) {
    static constexpr char digits[] = "0123456789abcdef";
    std::string out(16, '0');
    for (int i = 15; i >= 0; --i, v >>= 4) out[static_cast<std::size_t>(i)] = digits[v & 15];
    return out;
}

} // namespace

void write_if_changed(const fs::path& path, std::string_view text) {
    std::error_code ec;
    if (fs::exists(path, ec)) {
        std::ifstream in(path, std::ios::binary);
        std::ostringstream old;
        old << in.rdbuf();
        if (in && old.str() == text) return;
    }
    if (path.has_parent_path()) fs::create_directories(path.parent_path(), ec);
    const fs::path tmp = path.string() + ".tmp";
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        out << text;
        if (!out.flush())
            throw RewriteFailure("simt-rewrite: error: cannot write '" + tmp.string() + "'");
    }
    fs::rename(tmp, path, ec);
    if (ec) {
        fs::remove(tmp, ec);
        throw RewriteFailure("simt-rewrite: error: cannot write '" + path.string() +
                             "': " + ec.message());
    }
}

HeaderCopies::HeaderCopies(fs::path copy_dir, std::vector<fs::path> include_dirs)
    : copy_dir_(std::move(copy_dir)), include_dirs_(std::move(include_dirs)) {}

namespace {

// A header found through -I (a library's, or the project's own) is copied only when its code
// (not its comments or strings) holds CUDA that the host compiler cannot take as it is:
// otherwise the compiler reads the original, as it would without the emulator (such a header's
// loops then get no loop ticks). Copying only where needed also keeps a header from reaching
// the compiler twice, as the copy and as itself through a header that is not copied.
bool needs_rewrite(const std::string& text) {
    const Lexed lexed = lex(text);
    const std::vector<Token>& code = lexed.code;
    for (std::size_t i = 0; i < code.size(); ++i) {
        const std::string_view t = code[i].text;
        if (t == "__shared__" || t == "__constant__" || t == "__managed__") return true;
        // Refused at its line by the rewriter (thread block clusters). (Not cluster_group: the
        // emulator's own cooperative_groups.h names it, and a copy of that header would be
        // included beside the original; a user's cluster_group meets its static_assert.)
        if (t == "__cluster_dims__") return true;
        // "<<<": three adjacent '<' (the lexer keeps them apart)
        if (t == "<" && i + 2 < code.size() && code[i + 1].text == "<" && code[i + 2].text == "<" &&
            touching(code[i], code[i + 1]) && touching(code[i + 1], code[i + 2]))
            return true;
    }
    return false;
}

} // namespace

std::string HeaderCopies::rewrite(const fs::path& input, const std::string& display_name) {
    std::vector<Includer> chain;
    return rewrite_file(input, display_name, chain);
}

// One directory per header, named after its full path: two headers of the same name never
// meet, and nothing else sits beside a copy for a quoted include to find by mistake.
fs::path HeaderCopies::copy_path(const fs::path& original) const {
    return fs::absolute(copy_dir_) / hex(fnv1a(original.string())) / original.filename();
}

std::string HeaderCopies::rewrite_file(const fs::path& file, const std::string& display_name,
                                       std::vector<Includer>& chain) {
    inputs_.push_back(file);
    const std::string text = read_file(file);
    const fs::path dir = fs::absolute(file).parent_path();

    const IncludeRedirect follow = [&](std::string_view name, bool angled,
                                       int line) -> std::optional<std::string> {
        if (name.empty()) return std::nullopt;
        std::error_code ec;
        // As the compiler searches: the includer's directory for "name", then the -I list.
        fs::path candidate;
        bool through_include_dir = false;
        if (!angled && fs::is_regular_file(dir / fs::path(name), ec))
            candidate = (dir / fs::path(name)).lexically_normal();
        for (std::size_t k = 0; candidate.empty() && k < include_dirs_.size(); ++k) {
            if (fs::is_regular_file(include_dirs_[k] / fs::path(name), ec)) {
                candidate = (fs::absolute(include_dirs_[k]) / fs::path(name)).lexically_normal();
                through_include_dir = true;
            }
        }
        if (candidate.empty()) return std::nullopt;
        if (through_include_dir && !needs_rewrite(read_file(candidate))) return std::nullopt;
        const fs::path original = fs::weakly_canonical(candidate, ec);
        const fs::path& key = ec ? candidate : original;
        if (auto it = copies_.find(key); it != copies_.end()) return it->second.string();
        // Registered before it is rewritten: a header that includes itself, directly or
        // through others, finds its copy here (its include guard does the rest).
        const fs::path copy = copy_path(key);
        copies_.emplace(key, copy);
        chain.push_back({display_name, line});
        const std::string copied = rewrite_file(candidate, candidate.string(), chain);
        chain.pop_back();
        write_if_changed(copy, copied);
        return copy.string();
    };

    try {
        return rewrite_source(text, display_name, follow);
    } catch (const RewriteError& e) {
        std::string message;
        for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
            message += "In file included from " + it->display_name + ":" +
                       std::to_string(it->line) + ":\n";
        }
        throw RewriteFailure(message + format_error(e, display_name));
    }
}

} // namespace simt::rewrite
