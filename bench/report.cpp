// scanlab_bench's reports: results.csv (every number), results.json (the machine, the settings and
// every number), tables.md (one markdown table per lab for its README) and the stdout summary.
#include "harness.h"

#include <scanlab/batch_timing.h>
#include <scanlab/json_string.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace scanlab::bench {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

const char* to_string(Role role) {
    switch (role) {
    case Role::memcpy:
        return "memcpy";
    case Role::cub:
        return "cub";
    case Role::cub_newest:
        return "cub_newest";
    case Role::cub_second:
        return "cub_second";
    case Role::baseline:
        return "baseline";
    case Role::lab:
        return "lab";
    }
    return "?";
}

const char* to_string(Expect expect) {
    switch (expect) {
    case Expect::copy:
        return "copy";
    case Expect::inclusive:
        return "inclusive";
    case Expect::exclusive:
        return "exclusive";
    case Expect::segmented_inclusive:
        return "segmented_inclusive";
    case Expect::sorted:
        return "sorted";
    }
    return "?";
}

/// printf into a std::string.
template <class... Args>
std::string format(const char* pattern, Args... args) {
    const int size = std::snprintf(nullptr, 0, pattern, args...);
    std::string text(static_cast<std::size_t>(std::max(size, 0)) + 1, '\0');
    std::snprintf(text.data(), text.size(), pattern, args...);
    text.pop_back();
    return text;
}

/// A number with about three significant digits, or "" for NaN.
std::string number(double value) {
    if (std::isnan(value)) return "";
    const double a = std::fabs(value);
    if (a >= 1000) return format("%.0f", value);
    if (a >= 100) return format("%.1f", value);
    if (a >= 10) return format("%.2f", value);
    return format("%.3f", value);
}

std::string json_number(double value) {
    return std::isfinite(value) ? format("%.6g", value) : "null";
}

std::string csv_field(const std::string& text) {
    if (text.find_first_of(",\"\n") == std::string::npos) return text;
    std::string s = "\"";
    for (const char c : text) s += c == '"' ? std::string("\"\"") : std::string(1, c);
    return s + "\"";
}

std::ofstream open_for_writing(const std::filesystem::path& file) {
    std::ofstream out(file, std::ios::trunc);
    if (!out) throw std::runtime_error("cannot write " + file.string());
    return out;
}

/// The result of the entry with `role` in `group` at n for the value type, if it was measured
/// correctly.
const Result* find(const std::vector<Result>& results, Group group, Role role, std::int64_t n,
                   ValueType value) {
    for (const Result& r : results)
        if (r.entry->group == group && r.entry->role == role && r.n == n &&
            r.entry->value == value && r.ok())
            return &r;
    return nullptr;
}

std::string device_line(const RunInfo& info) {
    std::string driver;
    for (const auto& [key, value] : info.smi)
        if (key == "driver_version") driver = "driver " + value + ", ";
    const std::string newest = info.newest_cub_version.empty()
                                   ? std::string(" (no newer CUB in this build)")
                                   : " and CUB " + info.newest_cub_version + " (nvidia-cuda-cccl)";
    return format("%s (%d SMs, L2 %lld MiB, peak %.2f TB/s), %sCUDA %d.%d, CUB %s (toolkit)%s",
                  info.device_name.c_str(), info.sm_count,
                  static_cast<long long>(info.l2_bytes >> 20), info.peak_bandwidth_gbs / 1e3,
                  driver.c_str(), info.runtime_version / 1000, info.runtime_version % 1000 / 10,
                  info.cub_version.c_str(), newest.c_str());
}

/// What both CUBs run, for the tables' headers.
std::string cub_algorithms(const RunInfo& info) {
    std::string text = "CUB " + info.cub_version + "'s scan is " + info.cub_algorithm;
    if (!info.newest_cub_version.empty())
        text += "; CUB " + info.newest_cub_version + "'s: " + info.newest_cub_algorithm;
    return text;
}

std::string method_line(const RunInfo& info) {
    return format("int32 inclusive sums of random data; GPU time per call: median over %d rounds, "
                  "each a batch of back-to-back calls of every entry in turn, queued while the GPU "
                  "was held; spread: quartiles over the rounds; %s",
                  info.rounds, info.timestamp_utc.c_str());
}

/// "1.05 (1.02-1.07)": a ratio's median and its quartiles; "-" if there is none.
std::string ratio_text(const Ratio& ratio) {
    if (std::isnan(ratio.median)) return "-";
    return format("%.2f (%.2f-%.2f)", ratio.median, ratio.low, ratio.high);
}

/// "12.3 (12.1-12.6)": a time's median and its quartiles.
std::string time_text(const Result& r) {
    return number(r.median_us) + " (" + number(r.low_us) + "-" + number(r.high_us) + ")";
}

/// base's time / r's time, round by round; NaN if either is missing.
Ratio paired_ratio(const Result* base, const Result& r) {
    Ratio ratio{kNaN, kNaN, kNaN};
    if (base == nullptr || !r.ok()) return ratio;
    std::vector<double> values;
    const std::size_t rounds = std::min(base->per_round_us.size(), r.per_round_us.size());
    for (std::size_t i = 0; i < rounds; ++i)
        values.push_back(base->per_round_us[i] / r.per_round_us[i]);
    if (values.empty()) return ratio;
    std::sort(values.begin(), values.end());
    ratio.median = quantile(values, 0.5);
    ratio.low = quantile(values, 0.25);
    ratio.high = quantile(values, 0.75);
    return ratio;
}

// The short name of an entry inside its lab's table: its label without the "labNN " prefix.
std::string short_label(const Entry& e) {
    const std::string prefix = "lab" + e.lab + " ";
    return e.label.rfind(prefix, 0) == 0 ? e.label.substr(prefix.size()) : e.label;
}

std::string fit(const std::string& text, std::size_t width) {
    return text.size() <= width ? text : text.substr(0, width - 1) + "~";
}

} // namespace

const char* to_string(Status status) {
    switch (status) {
    case Status::ok:
        return "ok";
    case Status::wrong:
        return "WRONG";
    case Status::error:
        return "ERROR";
    }
    return "?";
}

const char* to_string(Group group) {
    switch (group) {
    case Group::single_block:
        return "single_block";
    case Group::global:
        return "global";
    case Group::segmented:
        return "segmented";
    case Group::types:
        return "types";
    case Group::sort:
        return "sort";
    }
    return "?";
}

const char* to_string(ValueType type) {
    switch (type) {
    case ValueType::i32:
        return "int32";
    case ValueType::f32:
        return "float";
    case ValueType::i64:
        return "int64";
    case ValueType::f64:
        return "double";
    }
    return "?";
}

std::string format_n(std::int64_t n) {
    if (n > 0 && (n & (n - 1)) == 0) {
        int log = 0;
        while ((std::int64_t(1) << log) < n) ++log;
        return "2^" + std::to_string(log);
    }
    return std::to_string(n);
}

void summarize(Result& r) {
    const Spread spread = spread_of(r.per_round_us);
    r.median_us = spread.median;
    r.low_us = spread.low;
    r.high_us = spread.high;
    r.min_us = spread.min;
    r.max_us = spread.max;
}

void fill_ratios(std::vector<Result>& results) {
    for (Result& r : results) {
        // Only entries measured in the same rounds pair up: those of the same group and size.
        // (The segmented group runs no copy of its own; its values are the global group's, but
        // measured in other rounds: no fraction of memcpy there.)
        const Entry& e = *r.entry;
        r.of_memcpy = paired_ratio(find(results, e.group, Role::memcpy, r.n, e.value), r);
        // Against whichever CUB is faster at this size (the lower median).
        const Result* toolkit = find(results, e.group, Role::cub, r.n, e.value);
        const Result* newest = find(results, e.group, Role::cub_newest, r.n, e.value);
        const Result* faster = toolkit;
        if (newest != nullptr && (toolkit == nullptr || newest->median_us < toolkit->median_us))
            faster = newest;
        r.of_cub = paired_ratio(faster, r);
        r.faster_cub = faster == nullptr ? "" : faster->entry->version;
        r.of_second = paired_ratio(find(results, e.group, Role::cub_second, r.n, e.value), r);
    }
}

void write_csv(const std::filesystem::path& file, const std::vector<Result>& results) {
    auto out = open_for_writing(file);
    out << "group,lab,entry,label,role,expect,n,status,gpu_time,median_us,low_us,high_us,min_us,"
           "max_us,elements_per_s,gb_per_s,of_memcpy,of_memcpy_low,of_memcpy_high,of_cub,"
           "of_cub_low,of_cub_high,of_second,of_second_low,of_second_high,sets,calls_per_batch,"
           "rounds,per_round_us,detail,faster_cub\n";
    for (const Result& r : results) {
        const Entry& e = *r.entry;
        out << to_string(e.group) << ',' << e.lab << ',' << e.name << ',' << csv_field(e.label)
            << ',' << to_string(e.role) << ',' << to_string(e.expect) << ',' << r.n << ','
            << (r.ok()                      ? "ok"
                : r.status == Status::wrong ? "wrong"
                                            : "error")
            << ',' << (r.gpu_time ? "yes" : "no") << ',';
        if (r.ok()) {
            out << format("%.4f,%.4f,%.4f,%.4f,%.4f,%.6g,%.6g,", r.median_us, r.low_us, r.high_us,
                          r.min_us, r.max_us, r.elements_per_s(), r.gb_per_s());
            for (const Ratio* ratio : {&r.of_memcpy, &r.of_cub, &r.of_second})
                out << json_number(ratio->median) << ',' << json_number(ratio->low) << ','
                    << json_number(ratio->high) << ',';
        } else {
            out << std::string(16, ',');
        }
        std::string rounds;
        for (const double us : r.per_round_us) {
            if (!rounds.empty()) rounds += ' ';
            rounds += format("%.3f", us);
        }
        out << r.sets << ',' << r.calls_per_batch << ',' << r.per_round_us.size() << ',' << rounds
            << ',' << csv_field(r.detail) << ',' << r.faster_cub << '\n';
    }
}

void write_json(const std::filesystem::path& file, const RunInfo& info,
                const std::vector<Result>& results) {
    auto out = open_for_writing(file);
    out << "{\n  \"tool\": \"scanlab_bench\",\n";
    out << "  \"timestamp_utc\": " << json_string(info.timestamp_utc) << ",\n";
    out << "  \"device\": {\n"
        << "    \"name\": " << json_string(info.device_name) << ",\n"
        << "    \"pci_bus_id\": " << json_string(info.pci_bus_id) << ",\n"
        << "    \"compute_capability\": \"" << info.cc_major << "." << info.cc_minor << "\",\n"
        << "    \"sm_count\": " << info.sm_count << ",\n"
        << "    \"l2_bytes\": " << info.l2_bytes << ",\n"
        << "    \"memory_bytes\": " << info.memory_bytes << ",\n"
        << "    \"sm_clock_peak_khz\": " << info.sm_clock_peak_khz << ",\n"
        << "    \"memory_clock_peak_khz\": " << info.memory_clock_peak_khz << ",\n"
        << "    \"memory_bus_bits\": " << info.memory_bus_bits << ",\n"
        << "    \"peak_bandwidth_gb_per_s\": " << json_number(info.peak_bandwidth_gbs) << ",\n"
        << "    \"driver_api_version\": " << info.driver_api_version << ",\n"
        << "    \"runtime_version\": " << info.runtime_version << ",\n"
        << "    \"cub_version\": " << json_string(info.cub_version) << ",\n"
        << "    \"newest_cub_version\": " << json_string(info.newest_cub_version) << ",\n"
        << "    \"nvidia_smi_after_run\": ";
    if (info.smi.empty()) {
        out << "null\n";
    } else {
        out << "{";
        for (std::size_t i = 0; i < info.smi.size(); ++i)
            out << (i ? ", " : "") << json_string(info.smi[i].first) << ": "
                << json_string(info.smi[i].second);
        out << "}\n";
    }
    out << "  },\n";
    out << "  \"cub_algorithm\": " << json_string(info.cub_algorithm) << ",\n";
    out << "  \"newest_cub_algorithm\": " << json_string(info.newest_cub_algorithm) << ",\n";
    out << "  \"settings\": {\"seed\": " << info.seed << ", \"rounds\": " << info.rounds
        << ", \"target_batch_us\": " << json_number(info.target_batch_us)
        << ", \"rotation_bytes\": " << info.rotation_bytes
        << ", \"mean_segment_length\": " << info.mean_segment
        << ", \"values\": \"uniform integers in [-3, 4]\"},\n";
    out << "  \"wall_seconds\": " << json_number(info.wall_s) << ",\n";
    out << "  \"results\": [";
    for (std::size_t i = 0; i < results.size(); ++i) {
        const Result& r = results[i];
        const Entry& e = *r.entry;
        out << (i ? "," : "") << "\n    {\"group\": \"" << to_string(e.group)
            << "\", \"lab\": " << json_string(e.lab) << ", \"entry\": " << json_string(e.name)
            << ", \"label\": " << json_string(e.label) << ", \"role\": \"" << to_string(e.role)
            << "\", \"n\": " << r.n << ", \"gpu_time\": " << (r.gpu_time ? "true" : "false")
            << ", \"status\": \""
            << (r.ok()                      ? "ok"
                : r.status == Status::wrong ? "wrong"
                                            : "error")
            << "\"";
        if (r.ok()) {
            auto ratio = [&](const char* name, const Ratio& x) {
                out << ", \"" << name << "\": [" << json_number(x.median) << ", "
                    << json_number(x.low) << ", " << json_number(x.high) << "]";
            };
            out << ", \"median_us\": " << json_number(r.median_us) << ", \"quartiles_us\": ["
                << json_number(r.low_us) << ", " << json_number(r.high_us)
                << "], \"min_us\": " << json_number(r.min_us)
                << ", \"max_us\": " << json_number(r.max_us)
                << ", \"elements_per_s\": " << json_number(r.elements_per_s())
                << ", \"gb_per_s\": " << json_number(r.gb_per_s());
            ratio("of_memcpy", r.of_memcpy);
            ratio("of_cub", r.of_cub);
            out << ", \"faster_cub\": " << json_string(r.faster_cub);
            ratio("of_second", r.of_second);
        }
        out << ", \"sets\": " << r.sets << ", \"calls_per_batch\": " << r.calls_per_batch
            << ", \"per_round_us\": [";
        for (std::size_t k = 0; k < r.per_round_us.size(); ++k)
            out << (k ? ", " : "") << json_number(r.per_round_us[k]);
        out << "]";
        if (!r.detail.empty()) out << ", \"detail\": " << json_string(r.detail);
        out << "}";
    }
    out << "\n  ]\n}\n";
}

void write_tables_md(const std::filesystem::path& file, const RunInfo& info,
                     const std::vector<Result>& results) {
    auto out = open_for_writing(file);
    out << "# scanlab_bench tables\n\n"
        << "Each block below goes into a lab's README, section \"Speed on a GPU\", between its "
           "markers (scripts/bench-tables.py copies them).\n\n";
    const std::string about = "Measured on " + device_line(info) + "; " + cub_algorithms(info) +
                              ".\n" + method_line(info) +
                              " (`scanlab_bench`, docs/benchmarks.md). Numbers in parentheses are "
                              "the quartiles over the rounds: a ratio whose quartiles include "
                              "1.00 is no measurable difference.\n\n";
    auto find_entry = [&](const Entry* e, std::int64_t n) -> const Result* {
        for (const Result& r : results)
            if (r.entry == e && r.n == n) return &r;
        return nullptr;
    };
    auto entries_of = [&](auto wanted) {
        std::vector<const Entry*> list;
        for (const Result& r : results)
            if (wanted(*r.entry) && std::find(list.begin(), list.end(), r.entry) == list.end())
                list.push_back(r.entry);
        return list;
    };
    auto host_note = [&](const std::vector<const Entry*>& list) {
        for (const Entry* e : list)
            if (e->waits_for_gpu) {
                out << "\n* its calls wait for the GPU (they free memory): the time includes the "
                       "host's part of each call, not GPU time alone.\n";
                return;
            }
    };
    auto label_of = [](const Entry* e) {
        return (e->lab.empty() ? e->label : short_label(*e)) + (e->waits_for_gpu ? " *" : "");
    };

    std::set<std::string> labs;
    for (const Result& r : results)
        if (!r.entry->lab.empty()) labs.insert(r.entry->lab);
    // A throughput table (global, segmented or types group) of some entries.
    auto throughput_table = [&](Group group, const std::vector<const Entry*>& list) {
        std::set<std::int64_t> sizes;
        for (const Result& r : results)
            if (std::find(list.begin(), list.end(), r.entry) != list.end()) sizes.insert(r.n);
        const bool segmented = group == Group::segmented;
        if (group == Group::sort)
            out << "Random 32-bit keys (int32), sorted. GB/s counts n reads and n writes of 4 "
                   "bytes, as for a scan (a sort of 8-bit digits moves each key about four times "
                   "each way). \"of memcpy\": the time of a device-to-device copy of the same "
                   "array divided by this time (1.00: as fast); \"of CUB\": the same for "
                   "`cub::DeviceRadixSort::SortKeys` on the same keys, of whichever CUB (the "
                   "toolkit's or the newest) was faster at that n, named in the last column.";
        else if (group == Group::types)
            out << "Other value types, on values -1 and +1 (so that every float sum is exact "
                   "and checked exactly). GB/s counts n reads and n writes of the element (4 or 8 "
                   "bytes). \"of memcpy\": the time of a device-to-device copy of the same bytes "
                   "divided by this time (1.00: as fast); \"of CUB\": the same for "
                   "`cub::DeviceScan::InclusiveSum` on the same type, of whichever CUB (the "
                   "toolkit's or the newest) was faster at that n, named in the last column.";
        else
            out << "GB/s counts n reads and n writes of 4 bytes. \"of memcpy\": the time of a "
                   "device-to-device copy of the same array divided by this time (1.00: as fast); "
                << (segmented
                        ? "\"of CUB\": the same for `cub::DeviceScan::InclusiveScan` with the "
                          "segmented operator over (head flag, value) pairs packed in 64-bit "
                          "words, which reads the same 1-byte flags and values as the lab; \"of "
                          "by-key\": for `cub::DeviceScan::InclusiveSumByKey`, which reads 4-byte "
                          "segment ids instead of the flags."
                        : "\"of CUB\": the same for `cub::DeviceScan::InclusiveSum`")
                << ", of whichever CUB (the toolkit's or the newest) was faster at that n, named "
                   "in "
                   "the last column.";
        out << "\n\n| variant | n | time (µs) | GB/s | of memcpy | of CUB |"
            << (segmented ? " of by-key |" : "") << " faster CUB |\n|---|---:|---:|---:|---:|---:|"
            << (segmented ? "---:|" : "") << "---|\n";
        for (const Entry* e : list) {
            for (const std::int64_t n : sizes) {
                const Result* r = find_entry(e, n);
                if (r == nullptr) continue;
                out << "| " << label_of(e) << " | " << format_n(n) << " | ";
                if (r->ok()) {
                    out << time_text(*r) << " | " << number(r->gb_per_s()) << " | "
                        << ratio_text(r->of_memcpy) << " | " << ratio_text(r->of_cub) << " |";
                    if (segmented) out << ' ' << ratio_text(r->of_second) << " |";
                    out << ' ' << (r->faster_cub.empty() ? "-" : r->faster_cub) << " |\n";
                } else {
                    out << to_string(r->status) << " | | | | |" << (segmented ? " |\n" : "\n");
                }
            }
        }
        host_note(list);
    };

    for (const std::string& lab : labs) {
        out << "<!-- bench: lab" << lab << " -->\n" << about;
        bool first_table = true;
        for (const Group group : kGroups) {
            const auto mine =
                entries_of([&](const Entry& e) { return e.lab == lab && e.group == group; });
            if (mine.empty()) continue;
            if (!first_table) out << '\n';
            first_table = false;
            if (group != Group::single_block) {
                throughput_table(group, mine);
                continue;
            }
            // The single-block labs share one table, so that each lab's README shows itself next
            // to the others and to the baselines at the same n.
            std::set<std::int64_t> sizes;
            for (const Result& r : results)
                if (r.entry->lab == lab) sizes.insert(r.n);
            const auto all =
                entries_of([](const Entry& e) { return e.group == Group::single_block; });
            out << "One call scans n elements in a single thread block: the GPU time per call "
                   "(microseconds) is mostly launch and barrier latency, not bandwidth.\n\n| n |";
            for (const Entry* e : all) out << ' ' << e->label << " |";
            out << "\n|---:|";
            for (std::size_t i = 0; i < all.size(); ++i) out << "---:|";
            out << '\n';
            for (const std::int64_t n : sizes) {
                out << "| " << n << " |";
                for (const Entry* e : all) {
                    const Result* r = find_entry(e, n);
                    out << ' '
                        << (r == nullptr ? "-"
                            : r->ok()    ? time_text(*r)
                                         : to_string(r->status))
                        << " |";
                }
                out << '\n';
            }
        }
        out << "<!-- /bench: lab" << lab << " -->\n\n";
    }

    // The baselines alone, for docs/benchmarks.md.
    out << "<!-- bench: baselines -->\n"
        << about << "| baseline | n | time (µs) | GB/s | of memcpy |\n"
        << "|---|---:|---:|---:|---:|\n";
    for (const Result& r : results) {
        if (r.entry->role == Role::lab || r.entry->group == Group::single_block) continue;
        out << "| " << r.entry->label << " | " << format_n(r.n) << " | ";
        if (r.ok())
            out << time_text(r) << " | " << number(r.gb_per_s()) << " | " << ratio_text(r.of_memcpy)
                << " |\n";
        else
            out << to_string(r.status) << " | | |\n";
    }
    out << "<!-- /bench: baselines -->\n";
}

void print_summary(const RunInfo& info, const std::vector<Result>& results,
                   const std::filesystem::path& out_dir) {
    constexpr std::size_t kLabel = 34;
    std::printf("\n==== scanlab_bench: %s\n%s\n%s; %.0f s\n", device_line(info).c_str(),
                cub_algorithms(info).c_str(), method_line(info).c_str(), info.wall_s);

    for (const Group group : kGroups) {
        std::vector<const Entry*> rows;
        std::set<std::int64_t> sizes;
        for (const Result& r : results) {
            if (r.entry->group != group) continue;
            if (std::find(rows.begin(), rows.end(), r.entry) == rows.end()) rows.push_back(r.entry);
            sizes.insert(r.n);
        }
        if (rows.empty()) continue;
        const bool single = group == Group::single_block;
        auto cell = [&](const Entry* e, std::int64_t n, bool ratio) -> std::string {
            for (const Result& r : results) {
                if (r.entry != e || r.n != n) continue;
                if (!r.ok()) return to_string(r.status);
                if (!ratio) return number(single ? r.median_us : r.gb_per_s());
                if (std::isnan(r.of_cub.median)) return "-";
                return format("%.2f[%.2f,%.2f]%s", r.of_cub.median, r.of_cub.low, r.of_cub.high,
                              r.faster_cub == info.newest_cub_version ? "n" : "t");
            }
            return "-";
        };
        auto table = [&](bool ratio, int width) {
            std::printf("%-*s", int(kLabel), "entry");
            for (const std::int64_t n : sizes)
                std::printf(" %*s", width,
                            single ? std::to_string(n).c_str() : format_n(n).c_str());
            std::printf("\n");
            for (const Entry* e : rows) {
                if (ratio && (e->role == Role::memcpy || e->role == Role::cub ||
                              e->role == Role::cub_newest))
                    continue;
                std::printf("%-*s", int(kLabel),
                            fit(e->label + (e->waits_for_gpu ? " *" : ""), kLabel).c_str());
                for (const std::int64_t n : sizes)
                    std::printf(" %*s", width, cell(e, n, ratio).c_str());
                std::printf("\n");
            }
        };
        if (single) {
            std::printf("\nsingle block: GPU time per call (us), median over the rounds\n");
            table(false, 7);
            continue;
        }
        const char* title = group == Group::global      ? "global scan"
                            : group == Group::segmented ? "segmented scan (random segments)"
                            : group == Group::sort      ? "sort (random 32-bit keys)"
                                                        : "other value types";
        std::printf("\n%s: GB/s (n reads + n writes of one element), median over the rounds\n",
                    title);
        table(false, 7);
        std::printf("\n%s: of CUB (%s), median [quartiles] of the round-by-round ratios, against "
                    "the faster CUB at each n (t: the toolkit's %s, n: the newest %s)\n",
                    title,
                    group == Group::segmented ? "InclusiveScan of (flag, value) pairs, same inputs"
                    : group == Group::sort    ? "DeviceRadixSort::SortKeys, same keys"
                                              : "InclusiveSum of the same type",
                    info.cub_version.c_str(),
                    info.newest_cub_version.empty() ? "-" : info.newest_cub_version.c_str());
        table(true, 17);
    }
    bool waits = false;
    for (const Result& r : results) waits = waits || !r.gpu_time;
    if (waits) std::printf("\n* the calls wait for the GPU: host time included\n");

    int bad = 0;
    for (const Result& r : results) {
        if (r.ok()) continue;
        if (bad++ == 0) std::printf("\nnot measured (a wrong result is never timed):\n");
        if (bad <= 12)
            std::printf("  %s n=%s %s: %s\n", r.entry->name.c_str(), format_n(r.n).c_str(),
                        to_string(r.status), fit(r.detail, 160).c_str());
    }
    if (bad > 12) std::printf("  ... and %d more (results.csv)\n", bad - 12);
    std::printf("\n%zu measurements, %d wrong or failed; results.csv, results.json, tables.md in "
                "%s\n",
                results.size(), bad, out_dir.c_str());
}

} // namespace scanlab::bench
