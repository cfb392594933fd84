// scanlab_bench's reports: results.csv (every number), results.json (the machine, the settings and
// every number), tables.md (one markdown table per lab for its README) and the stdout summary.
#include "harness.h"

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

std::string json_string(const std::string& text) {
    std::string s = "\"";
    for (const char c : text) {
        switch (c) {
        case '"':
            s += "\\\"";
            break;
        case '\\':
            s += "\\\\";
            break;
        case '\n':
            s += "\\n";
            break;
        case '\t':
            s += "\\t";
            break;
        default:
            if (static_cast<unsigned char>(c) < 0x20)
                s += format("\\u%04x", c);
            else
                s += c;
        }
    }
    return s + "\"";
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

/// The result of the entry with `role` in `group` at n, if it was measured correctly.
const Result* find(const std::vector<Result>& results, Group group, Role role, std::int64_t n) {
    for (const Result& r : results)
        if (r.entry->group == group && r.entry->role == role && r.n == n && r.ok()) return &r;
    return nullptr;
}

std::string device_line(const RunInfo& info) {
    std::string driver;
    for (const auto& [key, value] : info.smi)
        if (key == "driver_version") driver = "driver " + value + ", ";
    return format("%s (%d SMs, L2 %lld MiB, peak %.2f TB/s), %sCUDA %d.%d, CUB %s",
                  info.device_name.c_str(), info.sm_count,
                  static_cast<long long>(info.l2_bytes >> 20), info.peak_bandwidth_gbs / 1e3,
                  driver.c_str(), info.runtime_version / 1000, info.runtime_version % 1000 / 10,
                  info.cub_version.c_str());
}

std::string method_line(const RunInfo& info) {
    return format("int32 inclusive sum of random data; time per call = median of %d batches of "
                  "back-to-back calls; %s",
                  info.batches, info.timestamp_utc.c_str());
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

void fill_ratios(std::vector<Result>& results) {
    for (Result& r : results) {
        r.frac_memcpy = r.frac_cub = kNaN;
        if (!r.ok()) continue;
        const Result* copy = find(results, r.entry->group, Role::memcpy, r.n);
        // The segmented group moves the same values as the global one: the same copy applies.
        if (copy == nullptr) copy = find(results, Group::global, Role::memcpy, r.n);
        if (copy != nullptr) r.frac_memcpy = copy->median_us / r.median_us;
        if (const Result* cub = find(results, r.entry->group, Role::cub, r.n))
            r.frac_cub = cub->median_us / r.median_us;
    }
}

void write_csv(const std::filesystem::path& file, const std::vector<Result>& results) {
    auto out = open_for_writing(file);
    out << "group,lab,entry,label,role,expect,n,status,median_us,min_us,max_us,elements_per_s,"
           "gb_per_s,frac_memcpy,frac_cub,sets,calls_per_batch,batches,detail\n";
    for (const Result& r : results) {
        const Entry& e = *r.entry;
        out << to_string(e.group) << ',' << e.lab << ',' << e.name << ',' << csv_field(e.label)
            << ',' << to_string(e.role) << ',' << to_string(e.expect) << ',' << r.n << ','
            << (r.ok()                      ? "ok"
                : r.status == Status::wrong ? "wrong"
                                            : "error")
            << ',';
        if (r.ok()) {
            out << format("%.4f,%.4f,%.4f,%.6g,%.6g,", r.median_us, r.min_us, r.max_us,
                          r.elements_per_s(), r.gb_per_s())
                << json_number(r.frac_memcpy) << ',' << json_number(r.frac_cub) << ',';
        } else {
            out << ",,,,,,,";
        }
        out << r.sets << ',' << r.calls_per_batch << ',' << r.batches << ',' << csv_field(r.detail)
            << '\n';
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
    out << "  \"settings\": {\"seed\": " << info.seed << ", \"batches\": " << info.batches
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
            << "\", \"n\": " << r.n << ", \"status\": \""
            << (r.ok()                      ? "ok"
                : r.status == Status::wrong ? "wrong"
                                            : "error")
            << "\"";
        if (r.ok()) {
            out << ", \"median_us\": " << json_number(r.median_us)
                << ", \"min_us\": " << json_number(r.min_us)
                << ", \"max_us\": " << json_number(r.max_us)
                << ", \"elements_per_s\": " << json_number(r.elements_per_s())
                << ", \"gb_per_s\": " << json_number(r.gb_per_s())
                << ", \"frac_memcpy\": " << json_number(r.frac_memcpy)
                << ", \"frac_cub\": " << json_number(r.frac_cub);
        }
        out << ", \"sets\": " << r.sets << ", \"calls_per_batch\": " << r.calls_per_batch
            << ", \"batches\": " << r.batches;
        if (!r.detail.empty()) out << ", \"detail\": " << json_string(r.detail);
        out << "}";
    }
    out << "\n  ]\n}\n";
}

void write_tables_md(const std::filesystem::path& file, const RunInfo& info,
                     const std::vector<Result>& results) {
    auto out = open_for_writing(file);
    out << "# scanlab_bench tables\n\n"
        << "Each block below goes into the lab's README, section \"Speed on a GPU\", between its "
           "markers.\n\n";
    const std::string about = "Measured on " + device_line(info) + ".\n" + method_line(info) +
                              " (`scanlab_bench`, see docs/benchmarks.md).\n\n";
    auto cell = [](const Result* r) -> std::string {
        if (r == nullptr) return "";
        return r->ok() ? number(r->median_us) : to_string(r->status);
    };

    // The single-block labs share one table: time per call of every single-block entry, so that
    // each lab's README shows itself next to the others and to the baselines at the same n.
    std::vector<const Entry*> single;
    std::set<std::int64_t> single_sizes;
    for (const Result& r : results) {
        if (r.entry->group != Group::single_block) continue;
        if (std::find(single.begin(), single.end(), r.entry) == single.end())
            single.push_back(r.entry);
        single_sizes.insert(r.n);
    }
    std::set<std::string> labs;
    for (const Result& r : results)
        if (!r.entry->lab.empty()) labs.insert(r.entry->lab);

    for (const std::string& lab : labs) {
        out << "<!-- bench: lab" << lab << " -->\n" << about;
        bool single_block_lab = false;
        for (const Entry* e : single) single_block_lab = single_block_lab || e->lab == lab;
        if (single_block_lab) {
            out << "One call scans n elements in a single thread block: the time per call "
                   "(microseconds, in a stream of back-to-back calls) is mostly launch latency "
                   "and barriers, not bandwidth.\n\n| n |";
            for (const Entry* e : single) out << ' ' << e->label << " |";
            out << "\n|---:|";
            for (std::size_t i = 0; i < single.size(); ++i) out << "---:|";
            out << '\n';
            for (const std::int64_t n : single_sizes) {
                out << "| " << n << " |";
                for (const Entry* e : single) {
                    const Result* found = nullptr;
                    for (const Result& r : results)
                        if (r.entry == e && r.n == n) found = &r;
                    out << ' ' << (found ? cell(found) : std::string("-")) << " |";
                }
                out << '\n';
            }
        } else {
            bool segmented = false;
            for (const Result& r : results)
                if (r.entry->lab == lab && r.entry->group == Group::segmented) segmented = true;
            out << "GB/s counts n reads and n writes of 4 bytes; \"of memcpy\" and \"of CUB\" are "
                   "the time of a device-to-device copy of the same array and of "
                << (segmented ? "`cub::DeviceScan::InclusiveSumByKey` (same segments)"
                              : "`cub::DeviceScan::InclusiveSum`")
                << ", divided by this time (1.00: as fast).\n\n"
                << "| variant | n | time (µs) | Gelem/s | GB/s | of memcpy | of CUB |\n"
                << "|---|---:|---:|---:|---:|---:|---:|\n";
            for (const Result& r : results) {
                if (r.entry->lab != lab) continue;
                out << "| " << short_label(*r.entry) << " | " << format_n(r.n) << " | ";
                if (r.ok())
                    out << number(r.median_us) << " | " << number(r.elements_per_s() / 1e9) << " | "
                        << number(r.gb_per_s()) << " | " << number(r.frac_memcpy) << " | "
                        << number(r.frac_cub) << " |\n";
                else
                    out << to_string(r.status) << " | | | | |\n";
            }
        }
        out << "<!-- /bench: lab" << lab << " -->\n\n";
    }

    // The baselines alone, for docs/benchmarks.md.
    out << "<!-- bench: baselines -->\n"
        << about << "| baseline | n | time (µs) | Gelem/s | GB/s | of memcpy |\n"
        << "|---|---:|---:|---:|---:|---:|\n";
    for (const Result& r : results) {
        if (r.entry->role == Role::lab || r.entry->group == Group::single_block) continue;
        out << "| " << r.entry->label << " | " << format_n(r.n) << " | ";
        if (r.ok())
            out << number(r.median_us) << " | " << number(r.elements_per_s() / 1e9) << " | "
                << number(r.gb_per_s()) << " | " << number(r.frac_memcpy) << " |\n";
        else
            out << to_string(r.status) << " | | | |\n";
    }
    out << "<!-- /bench: baselines -->\n";
}

void print_summary(const RunInfo& info, const std::vector<Result>& results,
                   const std::filesystem::path& out_dir) {
    constexpr std::size_t kLabel = 32;
    std::printf("\n==== scanlab_bench: %s\n%s; %.0f s\n", device_line(info).c_str(),
                method_line(info).c_str(), info.wall_s);

    for (const Group group : {Group::single_block, Group::global, Group::segmented}) {
        std::vector<const Entry*> rows;
        std::set<std::int64_t> sizes;
        for (const Result& r : results) {
            if (r.entry->group != group) continue;
            if (std::find(rows.begin(), rows.end(), r.entry) == rows.end()) rows.push_back(r.entry);
            sizes.insert(r.n);
        }
        if (rows.empty()) continue;
        const bool single = group == Group::single_block;
        if (single)
            std::printf("\nsingle block: time per call (us); one call scans n elements in one "
                        "thread block\n");
        else if (group == Group::global)
            std::printf("\nglobal scan: GB/s (n reads + n writes of 4 bytes); fractions at the "
                        "largest n\n");
        else
            std::printf("\nsegmented scan (random segments, mean %d): GB/s of the values; CUB = "
                        "InclusiveSumByKey\n",
                        info.mean_segment);
        std::printf("%-*s", int(kLabel), "entry");
        for (const std::int64_t n : sizes)
            std::printf(" %7s", single ? std::to_string(n).c_str() : format_n(n).c_str());
        if (!single) std::printf(" %7s %7s", "memcpy", "CUB");
        std::printf("\n");
        for (const Entry* e : rows) {
            std::printf("%-*s", int(kLabel), fit(e->label, kLabel).c_str());
            const Result* largest = nullptr; // at the largest n this entry ran
            for (const std::int64_t n : sizes) {
                const Result* found = nullptr;
                for (const Result& r : results)
                    if (r.entry == e && r.n == n) found = &r;
                std::string text = "-";
                if (found != nullptr) {
                    text = found->ok() ? number(single ? found->median_us : found->gb_per_s())
                                       : to_string(found->status);
                    largest = found;
                }
                std::printf(" %7s", text.c_str());
            }
            if (!single) {
                const bool ok = largest != nullptr && largest->ok();
                std::printf(" %7s %7s", ok ? number(largest->frac_memcpy).c_str() : "-",
                            ok ? number(largest->frac_cub).c_str() : "-");
            }
            std::printf("\n");
        }
    }

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
