// scanlab_bench's own types: what one measurement produced, what the run was on, and the
// reports made from them (report.cpp).
#pragma once

#include "bench.h"

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace scanlab::bench {

enum class Status { ok, wrong, error };

/// A ratio of two entries' times, taken round by round (the rounds interleave the entries, so
/// round r of both ran within milliseconds of each other): the median over the rounds and the
/// quartiles, the spread. NaN where there is nothing to compare.
struct Ratio {
    double median = 0, low = 0, high = 0;
};

/// One entry at one size.
struct Result {
    const Entry* entry = nullptr;
    std::int64_t n = 0;
    int sets = 1;            // input/output buffer sets the calls rotated through
    int calls_per_batch = 0; // back-to-back calls between two events, one batch per round
    bool gpu_time = true;    // false: the calls wait for the GPU, the time includes the host's
    Status status = Status::error;
    std::vector<double> per_round_us; // time per call in each round, in round order
    // Over the rounds, valid when status is ok: median, quartiles (the spread), extremes.
    double median_us = 0, low_us = 0, high_us = 0, min_us = 0, max_us = 0;
    std::string detail; // what was wrong, or the error
    // Filled in once every entry has run (fill_ratios): the time of the memcpy, of the group's
    // CUB scan and of its second CUB reference (if any) at the same n, divided by this time.
    // of_cub divides by the faster (lower median) of the toolkit's CUB and the newest CUB at
    // this n; faster_cub is that one's version ("3.5.0"), empty when there was none.
    Ratio of_memcpy, of_cub, of_second;
    std::string faster_cub;

    bool ok() const { return status == Status::ok; }
    double elements_per_s() const { return double(n) / (median_us * 1e-6); }
    /// n reads + n writes of one element over the time (what a copy of the same array moves).
    double gb_per_s() const {
        return 2.0 * value_bytes(entry->value) * double(n) / (median_us * 1e3);
    }
};

/// Sets the time statistics of a measured result from its per_round_us.
void summarize(Result& result);

/// The machine and the settings, for the JSON and the table headers.
struct RunInfo {
    std::string device_name;
    std::string pci_bus_id;
    int cc_major = 0, cc_minor = 0;
    int sm_count = 0;
    std::int64_t l2_bytes = 0;
    std::int64_t memory_bytes = 0;
    int sm_clock_peak_khz = 0;     // cudaDevAttrClockRate
    int memory_clock_peak_khz = 0; // cudaDevAttrMemoryClockRate
    int memory_bus_bits = 0;
    double peak_bandwidth_gbs = 0; // 2 (double data rate) x memory clock x bus width
    int driver_api_version = 0;    // cudaDriverGetVersion, e.g. 13000
    int runtime_version = 0;       // cudaRuntimeGetVersion
    std::string cub_version;
    std::string cub_algorithm;      // CUB's scan algorithm and its tile shape for int32 on this GPU
    std::string newest_cub_version; // empty: the build has no newest CUB
    std::string newest_cub_algorithm; // its algorithms for int32, float, int64, double sums
    // From nvidia-smi after the run (empty where it could not be read): key -> value as printed.
    std::vector<std::pair<std::string, std::string>> smi;
    std::string timestamp_utc; // when the run started, ISO 8601
    std::uint64_t seed = 0;
    int rounds = 0;
    double target_batch_us = 0;
    std::int64_t rotation_bytes = 0; // in + out bytes the buffer sets of one size span at least
    int mean_segment = 0;
    double wall_s = 0;
};

/// Sets frac_memcpy and frac_cub of every result from the baselines at the same n.
void fill_ratios(std::vector<Result>& results);

void write_csv(const std::filesystem::path& file, const std::vector<Result>& results);
void write_json(const std::filesystem::path& file, const RunInfo& info,
                const std::vector<Result>& results);
/// One markdown table per lab (and one for the baselines), each between
/// `<!-- bench: labNN -->` and `<!-- /bench: labNN -->`, for the labs' "Speed on a GPU".
void write_tables_md(const std::filesystem::path& file, const RunInfo& info,
                     const std::vector<Result>& results);
/// The short summary printed last on stdout.
void print_summary(const RunInfo& info, const std::vector<Result>& results,
                   const std::filesystem::path& out_dir);

std::string format_n(std::int64_t n); // "2^20" for powers of two, else the number
const char* to_string(Status status);
const char* to_string(Group group);
const char* to_string(ValueType type);

} // namespace scanlab::bench
