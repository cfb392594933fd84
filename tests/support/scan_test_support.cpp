#include "scan_test_support.h"

#include "failure_summary.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <random>
#include <sstream>
#include <stdexcept>
#include <set>
#include <string>
#include <string_view>

#ifdef SCANLAB_BACKEND_SIMT
#include "simt/options.h"
#include "simt/report.h"
#endif

namespace scanlab::test {

namespace {

std::uint64_t read_seed() {
    if (const char* text = std::getenv("SCANLAB_SEED"); text != nullptr && *text != '\0') {
        std::size_t used = 0;
        std::uint64_t value = 0;
        try {
            value = std::stoull(text, &used, 0);
        } catch (const std::exception&) {
            used = 0;
        }
        if (used == 0 || text[used] != '\0')
            throw std::invalid_argument(std::string("SCANLAB_SEED must be a number, got '") + text +
                                        "'");
        return value;
    }
    std::random_device device;
    return (std::uint64_t(device()) << 32) ^ device();
}

// splitmix64's finalizer: spreads every input bit over the whole result.
std::uint64_t mix(std::uint64_t x) {
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

std::uint64_t mix_text(std::uint64_t h, std::string_view text) {
    for (const char c : text) h = mix(h ^ static_cast<unsigned char>(c));
    return mix(h ^ 0xFF); // separator, so "ab"+"c" differs from "a"+"bc"
}

} // namespace

std::string hint_line(std::string_view lab, const std::string& hint) {
    if (hint.empty()) return "";
    note_hint(hint);
    const std::string head = "\n  lab " + std::string(lab) + " hint: ";
    if (const std::string earlier = earlier_case_with(hint); !earlier.empty())
        return head + "the same as for test case \"" + earlier + "\" (given there in full)";
    return head + hint;
}

namespace {

// A source path as the student reads it: relative to the folder the tests run in (the
// repository root under ./scanlab), where it lies there.
std::string readable_path(const std::string& path) {
    std::error_code error;
    const std::string here = std::filesystem::current_path(error).string() + "/";
    return !error && path.rfind(here, 0) == 0 ? path.substr(here.size()) : path;
}

} // namespace

std::string fault_where() {
    const FaultSeen seen = fault_seen();
    if (seen.kind.empty()) return "";
    const std::string site = readable_path(seen.site);
    const std::string headline = seen.message.substr(0, seen.message.find('\n'));
    note_fault(seen.kind, site, headline);
    return " at " + (site.empty() ? std::string("a line the emulator's report names") : site) +
           " (the emulator's report above: " + seen.kind + ")";
}

FaultSeen fault_seen() {
    FaultSeen seen;
#ifdef SCANLAB_BACKEND_SIMT
    const simt::FaultReport& report = simt::last_fault();
    if (report.kind != simt::FaultKind::none) {
        seen.kind = simt::to_string(report.kind);
        seen.message = report.message;
        if (report.site.line > 0)
            seen.site = report.site.file + ":" + std::to_string(report.site.line);
    }
#endif
    return seen;
}

namespace {

bool is_file_name_char(char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '.' || c == '+' || c == '-';
}

bool is_digit(char c) {
    return c >= '0' && c <= '9';
}

bool names_source_file(std::string_view name) {
    for (const std::string_view extension : {".cu", ".cuh", ".h", ".cpp"})
        if (name.size() > extension.size() && name.ends_with(extension)) return true;
    return false;
}

} // namespace

// The "file.cu:42" in a report: a run of file-name characters that ends in a source extension,
// a colon and digits. Scanned by hand: std::regex was a third of the tests' main's compile time.
std::vector<std::string> FaultSeen::lines() const {
    std::vector<std::string> found;
    const std::string_view text = message;
    std::size_t at = 0;
    while (at < text.size()) {
        if (!is_file_name_char(text[at])) {
            ++at;
            continue;
        }
        const std::size_t start = at;
        while (at < text.size() && is_file_name_char(text[at])) ++at;
        const std::string_view name = text.substr(start, at - start);
        std::size_t digits = at + 1;
        while (digits < text.size() && is_digit(text[digits])) ++digits;
        if (at < text.size() && text[at] == ':' && digits > at + 1 && names_source_file(name)) {
            std::string line(text.substr(start, digits - start));
            if (std::find(found.begin(), found.end(), line) == found.end())
                found.push_back(std::move(line));
            at = digits;
        }
    }
    return found;
}

bool races_are_reported() {
#ifdef SCANLAB_BACKEND_SIMT
    return simt::options().checks;
#else
    return false;
#endif
}

std::uint64_t seed() {
    static const std::uint64_t value = read_seed();
    return value;
}

std::uint64_t input_seed(std::string_view op, std::string_view type, int n, ScanKind kind) {
    std::uint64_t h = mix(seed());
    h = mix_text(h, op);
    h = mix_text(h, type);
    h = mix(h ^ static_cast<std::uint64_t>(static_cast<std::uint32_t>(n)));
    return mix(h ^ (kind == ScanKind::inclusive ? 1u : 2u));
}

namespace detail {

std::string format_failure(const FailureReport& report) {
    std::ostringstream out;
    out << report.what << ": " << report.kind << " scan, op=" << report.op
        << ", type=" << report.type << ", n=" << report.n << ", seed=" << seed() << "\n";
    out << "  " << report.problem << "\n";
    note_wrong_result(report.problem);
    note_hint(report.hint);
    // A case that fails the way an earlier one did: its values are in the line above, the
    // hint and the table around the first wrong index are the earlier case's (--verbose: whole).
    const std::string earlier = report.hint.empty() ? "" : earlier_case_with(report.hint);
    if (!earlier.empty())
        out << "  hint: the same as for test case \"" << earlier << "\" (given there in full)\n";
    else if (!report.hint.empty() || report.fallback_hint)
        out << "  hint: "
            << (report.hint.empty() ? "no usual mistake fits; trace the worked example in the "
                                      "lab's README.md by hand"
                                    : report.hint)
            << "\n";

    if (!report.rows.empty() && earlier.empty()) {
        // Columns as wide as their widest cell; affine values are long.
        std::size_t w_index = 5, w_input = 5, w_expected = 8;
        for (const auto& row : report.rows) {
            w_index = std::max(w_index, std::to_string(row.index).size());
            w_input = std::max(w_input, row.input.size());
            w_expected = std::max(w_expected, row.expected.size());
        }
        auto line = [&](const std::string& mark, const std::string& index, const std::string& input,
                        const std::string& expected, const std::string& actual) {
            out << "  " << mark << " " << std::string(w_index - index.size(), ' ') << index << "  "
                << input << std::string(w_input - input.size(), ' ') << "  " << expected
                << std::string(w_expected - expected.size(), ' ') << "  " << actual << "\n";
        };
        line(" ", "index", "input", "expected", "actual");
        for (const auto& row : report.rows)
            line(row.marked ? ">" : " ", std::to_string(row.index), row.input, row.expected,
                 row.actual);
    }
    out << "  to reproduce: run again with SCANLAB_SEED=" << seed();
    return out.str();
}

} // namespace detail

} // namespace scanlab::test
