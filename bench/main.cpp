// scanlab_bench: every lab's reference solution against a device-to-device copy and CUB, measured
// in one run on one GPU. int32 inclusive sums of fresh random data; every size of every entry is
// checked against a host reference, and a wrong result is reported, never timed or used.
//
//   scanlab_bench --out DIR [--seed N] [--batches B] [--min-log2 L] [--max-log2 L]
//                 [--only lab04,lab05] [--list]
//
// Method (docs/benchmarks.md): per entry and size, one checked call on poisoned output; three
// warm-up calls, which also estimate the time per call; then B batches of K back-to-back calls,
// each batch between two CUDA events, K chosen so that a batch lasts about 200 us; the time per
// call is the median over the batches of batch time / K. The calls rotate through several
// input/output buffer sets, so that a size whose data fits in L2 is not measured from the cache;
// the outputs of every set the timed calls wrote are checked afterwards.
#include "bench.h"
#include "gpu_hold.h"
#include "harness.h"

#include <scanlab/batch_timing.h>
#include <scanlab/cuda_check.h>
#include <scanlab/device_buffer.h>

#include <cuda_runtime.h>

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <exception>
#include <filesystem>
#include <optional>
#include <iterator>
#include <random>
#include <span>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace scanlab::bench {

std::vector<Entry>& entries() {
    static std::vector<Entry> baselines;
    return baselines;
}

namespace {

// Every byte of an output is 0xCD before a call: as int32 -842150451, below every prefix sum of
// 2^28 values >= -3; as int64 as low; as float or double not an integer. Never a valid output.
constexpr unsigned char kPoisonByte = 0xCD;
// Values are uniform in [kLowValue, kLowValue + 7]: no prefix of up to 2^28 of them overflows.
constexpr int kLowValue = -3;
// Each size's buffer sets span at least this many input + output bytes (about five times the
// 50 MB L2 of an H100 or H200), so a set is long gone from L2 when the rotation comes back to it.
constexpr std::int64_t kRotationBytes = std::int64_t(256) << 20;
constexpr int kMaxSets = 1024;
constexpr int kWarmupCalls = 3;
constexpr double kGpuWarmUpSeconds = 0.5;
constexpr int kMaxCallsPerBatch = 64;
constexpr int kMeanSegment = 1024; // segment lengths uniform in [1, 2 * kMeanSegment - 1]

struct Settings {
    std::filesystem::path out = "bench-out";
    std::uint64_t seed = 0;
    int rounds = 21;
    double target_batch_us = 200;
    int min_log2 = 16, max_log2 = 28;
    std::vector<std::string> only; // lab entries whose name contains one of these; empty: all
    bool list = false;
};

// Parses the command line into `s`; returns an exit status when the program should stop now
// (--help, or an argument it does not accept).
std::optional<int> parse(int argc, char** argv, Settings& s) {
    s.seed = std::random_device{}();
    s.seed = (s.seed << 32) ^ std::random_device{}();
    CLI::App app{"Every lab's reference solution against a device-to-device copy and CUB, in GPU "
                 "time, in one run (docs/benchmarks.md)."};
    app.add_option("--out", s.out, "where results.csv, results.json and tables.md go");
    app.add_option("--seed", s.seed, "the inputs' random seed (default: a fresh one)");
    app.add_option("--rounds", s.rounds,
                   "timed rounds per size, each a batch of every entry (made odd)")
        ->check(CLI::PositiveNumber);
    // 28: the largest n whose prefix sums of values in [-3, 4] cannot overflow an int32.
    app.add_option("--min-log2", s.min_log2,
                   "the smallest size 2^L of the global and segmented scans")
        ->check(CLI::Range(10, 28));
    app.add_option("--max-log2", s.max_log2, "the largest size (every second power of two)")
        ->check(CLI::Range(10, 28));
    app.add_option("--only", s.only,
                   "run only the lab entries whose name contains one of these (a table's "
                   "baselines run when one of its labs does)")
        ->delimiter(',');
    app.add_flag("--list", s.list, "list the entries and exit");
    try {
        app.parse(argc, argv);
        if (s.min_log2 > s.max_log2)
            throw CLI::ValidationError("--min-log2", "must not be above --max-log2");
    } catch (const CLI::ParseError& error) {
        return app.exit(error);
    }
    if (s.rounds % 2 == 0) ++s.rounds; // an odd count has a middle value
    return std::nullopt;
}

// splitmix64: fast and well mixed; std::mt19937_64 would spend seconds on 2^28 values.
struct Rng {
    std::uint64_t state;
    std::uint64_t next() {
        std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
};

/// All the data of the run, made once at the largest size and shared by every size: set k of a
/// size n is elements [k n, (k + 1) n) of each array.
struct Pool {
    std::int64_t elements = 0;
    std::vector<std::int32_t> in, keys;
    std::vector<std::uint8_t> heads;
    DeviceBuffer<std::int32_t> d_in, d_keys, d_heads32;
    // The sort group's keys: every bit random (made only when a sort runs).
    std::vector<std::int32_t> sort_keys;
    DeviceBuffer<std::int32_t> d_sort_keys;
    DeviceBuffer<std::uint8_t> d_heads;
    // The types group: values -1 and +1 (from `in`), so that every sum of them, a random walk of
    // at most 2^28 steps with no drift (typically within a few times 2^14 of 0), stays far below
    // 2^24 and is exact in float too: the outputs of every type can be checked exactly, whatever
    // order the scan adds them in.
    std::vector<std::int32_t> small;
    DeviceBuffer<unsigned char> d_typed[4]; // `small` as each ValueType, made when first needed
    std::vector<unsigned char> staging;     // outputs downloaded for the checks
};

template <class T>
DeviceBuffer<unsigned char> upload_as(const std::vector<std::int32_t>& values) {
    std::vector<T> converted(values.begin(), values.end());
    DeviceBuffer<unsigned char> buffer(converted.size() * sizeof(T));
    SCANLAB_CUDA_CHECK(
        cudaMemcpy(buffer.data(), converted.data(), buffer.size(), cudaMemcpyHostToDevice));
    return buffer;
}

const unsigned char* typed_input(Pool& pool, ValueType type) {
    auto& buffer = pool.d_typed[static_cast<int>(type)];
    if (buffer.size() == 0)
        buffer = labs::with_value_type(type, [&]<class T>() { return upload_as<T>(pool.small); });
    return buffer.data();
}

void make_pool(Pool& pool, std::int64_t elements, std::uint64_t seed, bool segmented, bool sort) {
    pool.elements = elements;
    const auto count = static_cast<std::size_t>(elements);
    Rng rng{seed};
    pool.in.resize(count);
    for (std::size_t i = 0; i < count; i += 16) { // 4 random bits per value, 16 per draw
        std::uint64_t bits = rng.next();
        for (std::size_t j = i; j < std::min(count, i + 16); ++j, bits >>= 4)
            pool.in[j] = kLowValue + static_cast<std::int32_t>(bits & 7);
    }
    pool.d_in = DeviceBuffer<std::int32_t>(pool.in);
    pool.small.resize(count);
    // -1 or +1 with equal chances (the parity of a uniform draw): a walk with no drift.
    for (std::size_t i = 0; i < count; ++i) pool.small[i] = (pool.in[i] - kLowValue) % 2 ? 1 : -1;
    if (sort) {
        pool.sort_keys.resize(count);
        for (auto& key : pool.sort_keys) key = static_cast<std::int32_t>(rng.next() >> 32);
        pool.d_sort_keys = DeviceBuffer<std::int32_t>(pool.sort_keys);
    }
    if (segmented) {
        // Segment ids: consecutive runs of random length, each a new id.
        pool.keys.resize(count);
        pool.heads.assign(count, 0);
        std::vector<std::int32_t> heads32(count, 0);
        std::int32_t id = 0;
        for (std::size_t i = 0; i < count; ++id) {
            const auto length = 1 + rng.next() % (2 * kMeanSegment - 1);
            pool.heads[i] = 1;
            heads32[i] = 1;
            for (std::size_t end = std::min<std::size_t>(count, i + length); i < end; ++i)
                pool.keys[i] = id;
        }
        pool.d_keys = DeviceBuffer<std::int32_t>(pool.keys);
        pool.d_heads = DeviceBuffer<std::uint8_t>(pool.heads);
        pool.d_heads32 = DeviceBuffer<std::int32_t>(heads32);
    }
}

/// `keys` sorted ascending into `out` (as large): a radix sort of 8-bit digits, since std::sort
/// would take seconds for each size's sets (2^28 keys in all at the largest).
void sort_ints(std::span<const std::int32_t> keys, std::span<std::int32_t> out) {
    std::vector<std::uint32_t> a(keys.size()), b(keys.size());
    for (std::size_t i = 0; i < keys.size(); ++i) // the sign bit flipped: unsigned order
        a[i] = static_cast<std::uint32_t>(keys[i]) ^ 0x80000000u;
    for (int shift = 0; shift < 32; shift += 8) {
        std::size_t starts[257] = {};
        for (const std::uint32_t k : a) ++starts[((k >> shift) & 255) + 1];
        for (int d = 0; d < 256; ++d) starts[d + 1] += starts[d];
        for (const std::uint32_t k : a) b[starts[(k >> shift) & 255]++] = k;
        a.swap(b);
    }
    for (std::size_t i = 0; i < a.size(); ++i)
        out[i] = static_cast<std::int32_t>(a[i] ^ 0x80000000u);
}

/// One size: the sets it rotates through and what an inclusive (or segmented) scan of each set
/// must give (the sort group: each set sorted).
struct Plan {
    Group group = Group::global;
    std::int64_t n = 0;
    int sets = 1;
    std::vector<std::int32_t> expected; // sets * n: inclusive, segmented inclusive, or sorted
};

Plan make_plan(const Pool& pool, Group group, std::int64_t n) {
    Plan plan;
    plan.group = group;
    plan.n = n;
    const std::int64_t by_bytes = kRotationBytes / (8 * n); // in + out bytes per set: 8n
    plan.sets = static_cast<int>(std::clamp<std::int64_t>(by_bytes, 1, kMaxSets));
    plan.sets = static_cast<int>(std::min<std::int64_t>(plan.sets, pool.elements / n));
    const auto total = static_cast<std::size_t>(plan.sets * n);
    plan.expected.resize(total);
    for (std::size_t start = 0; start < total; start += static_cast<std::size_t>(n)) {
        if (group == Group::sort) { // each set sorted
            sort_ints(std::span(pool.sort_keys).subspan(start, static_cast<std::size_t>(n)),
                      std::span(plan.expected).subspan(start, static_cast<std::size_t>(n)));
            continue;
        }
        std::int32_t running = 0;
        for (std::size_t i = start; i < start + static_cast<std::size_t>(n); ++i) {
            if (group == Group::segmented && pool.heads[i]) running = 0;
            running += group == Group::types ? pool.small[i] : pool.in[i];
            plan.expected[i] = running;
        }
    }
    return plan;
}

/// Element i of a downloaded output as a double (exact: every valid output is a small integer).
double element(const unsigned char* bytes, ValueType type, std::size_t i) {
    return labs::with_value_type(type, [&]<class T>() {
        T v;
        std::memcpy(&v, bytes + sizeof(T) * i, sizeof(T));
        return static_cast<double>(v);
    });
}

/// Checks out[0, sets * n) (downloaded into pool.staging); empty if right, else where and how.
std::string check(const Entry& e, Pool& pool, const Plan& plan,
                  const DeviceBuffer<unsigned char>& out, int sets) {
    const auto count = static_cast<std::size_t>(sets * plan.n);
    const std::size_t bytes = count * static_cast<std::size_t>(value_bytes(e.value));
    if (pool.staging.size() < bytes) pool.staging.resize(bytes);
    SCANLAB_CUDA_CHECK(cudaMemcpy(pool.staging.data(), out.data(), bytes, cudaMemcpyDeviceToHost));
    const std::int32_t* in = plan.group == Group::types  ? pool.small.data()
                             : plan.group == Group::sort ? pool.sort_keys.data()
                                                         : pool.in.data();
    const std::int32_t* ref = plan.expected.data();
    auto expected = [&](std::size_t i) -> double {
        switch (e.expect) {
        case Expect::copy:
            return in[i];
        case Expect::exclusive:
            return ref[i] - in[i];
        case Expect::inclusive:
        case Expect::segmented_inclusive:
        case Expect::sorted:
            break;
        }
        return ref[i];
    };
    std::size_t wrong = 0, first = 0;
    for (std::size_t i = 0; i < count; ++i) {
        if (element(pool.staging.data(), e.value, i) != expected(i)) {
            if (wrong++ == 0) first = i;
        }
    }
    if (wrong == 0) return "";
    const auto n = static_cast<std::size_t>(plan.n);
    std::ostringstream s;
    s << wrong << " of " << count << " outputs wrong; first: set " << first / n << ", index "
      << first % n << ": expected " << expected(first) << ", got "
      << element(pool.staging.data(), e.value, first);
    if (std::all_of(
            pool.staging.begin() + static_cast<std::ptrdiff_t>(first * value_bytes(e.value)),
            pool.staging.begin() + static_cast<std::ptrdiff_t>((first + 1) * value_bytes(e.value)),
            [](unsigned char c) { return c == kPoisonByte; }))
        s << " (never written)";
    return s.str();
}

/// One entry at one size while its size is measured: its own output buffer (so that the other
/// entries' calls, interleaved with its own, do not overwrite what is checked at the end), the
/// number of calls so far (which set the next call uses) and its result.
struct Slot {
    const Entry* entry = nullptr;
    DeviceBuffer<unsigned char> out;
    std::int64_t calls = 0;
    Result result;
};

Operands operands(Pool& pool, const Plan& plan, Slot& slot) {
    const std::int64_t offset = (slot.calls++ % plan.sets) * plan.n;
    Operands op;
    op.n = plan.n;
    if (plan.group == Group::types) {
        const std::int64_t bytes = offset * value_bytes(slot.entry->value);
        op.typed_in = typed_input(pool, slot.entry->value) + bytes;
        op.typed_out = slot.out.data() + bytes;
        return op;
    }
    op.in = (plan.group == Group::sort ? pool.d_sort_keys.data() : pool.d_in.data()) + offset;
    op.out = reinterpret_cast<std::int32_t*>(slot.out.data()) + offset;
    if (plan.group == Group::segmented) {
        op.keys = pool.d_keys.data() + offset;
        op.heads = pool.d_heads.data() + offset;
        op.heads32 = pool.d_heads32.data() + offset;
    }
    return op;
}

/// Runs `calls` calls of the slot's entry between two events and returns the GPU time per call.
/// The GPU is held while the host enqueues them (gpu_hold.h), except for an entry that waits for
/// the GPU inside its calls: its time then includes the host's part of each call.
double batch(Slot& slot, Pool& pool, const Plan& plan, GpuHold& hold, int calls) {
    const Entry& e = *slot.entry;
    std::uint32_t ticket = 0;
    const double us = time_batch_us(
        calls, [&] { e.call(operands(pool, plan, slot)); },
        [&] {
            if (!e.waits_for_gpu) ticket = hold.hold();
        },
        [&] {
            if (!e.waits_for_gpu) hold.release(ticket);
        });
    SCANLAB_CUDA_CHECK(cudaGetLastError());
    if (hold.timed_out())
        throw std::runtime_error("a call waited for the GPU while the GPU waited for the batch to "
                                 "be enqueued; declare the entry with waits_for_gpu");
    return us;
}

void poison(DeviceBuffer<unsigned char>& out) {
    SCANLAB_CUDA_CHECK(cudaMemset(out.data(), kPoisonByte, out.size()));
    SCANLAB_CUDA_CHECK(cudaDeviceSynchronize());
}

/// Before the rounds: one checked call on poisoned output (a wrong entry is never timed), then a
/// warm-up that also estimates the time per call and so the calls per batch.
void start(Slot& slot, Pool& pool, const Plan& plan, GpuHold& hold, const Settings& settings) {
    const Entry& e = *slot.entry;
    Result& r = slot.result;
    r.entry = &e;
    r.n = plan.n;
    r.sets = plan.sets;
    r.gpu_time = !e.waits_for_gpu;
    (void)cudaGetLastError(); // a non-sticky error left from before is not this entry's
    try {
        if (e.prepare) e.prepare(plan.n);
        slot.out = DeviceBuffer<unsigned char>(static_cast<std::size_t>(plan.sets * plan.n) *
                                               static_cast<std::size_t>(value_bytes(e.value)));
        poison(slot.out);
        e.call(operands(pool, plan, slot));
        SCANLAB_CUDA_CHECK(cudaGetLastError());
        SCANLAB_CUDA_CHECK(cudaDeviceSynchronize());
        if (std::string wrong = check(e, pool, plan, slot.out, 1); !wrong.empty()) {
            r.status = Status::wrong;
            r.detail = wrong;
            return;
        }
        const double estimate_us = std::max(batch(slot, pool, plan, hold, kWarmupCalls), 0.5);
        r.calls_per_batch = static_cast<int>(std::clamp(
            std::ceil(settings.target_batch_us / estimate_us), 1.0, double(kMaxCallsPerBatch)));
        (void)batch(slot, pool, plan, hold, r.calls_per_batch); // warm-up at the final shape
        r.status = Status::ok;
    } catch (const std::exception& ex) {
        r.status = Status::error;
        r.detail = ex.what();
        (void)cudaGetLastError();
    }
}

/// After the rounds: every set the calls wrote must hold the right result; then the statistics.
void finish(Slot& slot, Pool& pool, const Plan& plan) {
    Result& r = slot.result;
    if (r.ok()) {
        try {
            const int written = static_cast<int>(std::min<std::int64_t>(slot.calls, plan.sets));
            if (std::string wrong = check(*slot.entry, pool, plan, slot.out, written);
                !wrong.empty()) {
                r.status = Status::wrong;
                r.detail = "after the timed calls: " + wrong;
            }
        } catch (const std::exception& ex) {
            r.status = Status::error;
            r.detail = ex.what();
            (void)cudaGetLastError();
        }
    }
    if (r.ok()) summarize(r);
    slot.out = DeviceBuffer<unsigned char>(); // the next size needs the memory
}

/// Measures every entry of one size: after each entry's start(), `rounds` rounds in which every
/// entry runs one timed batch, in turn (A B C, then C B A, ...), so that a slow drift of the
/// GPU's clocks or temperature falls on all entries alike and each round's times can be compared
/// pairwise.
std::vector<Result> measure_size(const std::vector<const Entry*>& todo, Pool& pool,
                                 const Plan& plan, GpuHold& hold, const Settings& settings) {
    std::vector<Slot> slots(todo.size());
    for (std::size_t i = 0; i < todo.size(); ++i) {
        slots[i].entry = todo[i];
        start(slots[i], pool, plan, hold, settings);
    }
    for (int round = 0; round < settings.rounds; ++round) {
        for (std::size_t k = 0; k < slots.size(); ++k) {
            Slot& slot = slots[round % 2 == 0 ? k : slots.size() - 1 - k];
            Result& r = slot.result;
            if (!r.ok()) continue;
            try {
                r.per_round_us.push_back(batch(slot, pool, plan, hold, r.calls_per_batch));
            } catch (const std::exception& ex) {
                r.status = Status::error;
                r.detail = ex.what();
                (void)cudaGetLastError(); // clear a non-sticky error so that the others can run
            }
        }
    }
    std::vector<Result> results;
    for (Slot& slot : slots) {
        finish(slot, pool, plan);
        results.push_back(std::move(slot.result));
    }
    return results;
}

/// Copies part of the input for half a second before anything is measured, so that the first
/// entries do not run while the GPU's clocks are still rising from idle.
void warm_up_gpu(const Pool& pool) {
    const std::size_t count =
        static_cast<std::size_t>(std::min<std::int64_t>(pool.elements, 1 << 26));
    DeviceBuffer<std::int32_t> scratch(count);
    const auto begin = std::chrono::steady_clock::now();
    while (std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count() <
           kGpuWarmUpSeconds) {
        for (int k = 0; k < 4; ++k)
            SCANLAB_CUDA_CHECK(cudaMemcpyAsync(scratch.data(), pool.d_in.data(), count * 4,
                                               cudaMemcpyDeviceToDevice, 0));
        SCANLAB_CUDA_CHECK(cudaDeviceSynchronize());
    }
}

std::vector<std::int64_t> sizes_of(Group group, const Settings& s) {
    std::vector<std::int64_t> sizes;
    if (group == Group::single_block) {
        for (std::int64_t n = 256; n <= 2048; n *= 2) sizes.push_back(n);
    } else {
        for (int l = s.min_log2; l <= s.max_log2; l += 2) sizes.push_back(std::int64_t(1) << l);
    }
    return sizes;
}

bool selected(const Entry& e, const Settings& s) {
    if (e.role != Role::lab || s.only.empty()) return true;
    return std::any_of(s.only.begin(), s.only.end(), [&](const std::string& part) {
        return e.name.find(part) != std::string::npos;
    });
}

int role_rank(Role role) {
    switch (role) {
    case Role::memcpy:
        return 0;
    case Role::cub:
        return 1;
    case Role::cub_newest:
        return 2;
    case Role::cub_second:
        return 3;
    case Role::baseline:
        return 4;
    case Role::lab:
        return 5;
    }
    return 6;
}

std::string timestamp_utc() {
    const std::time_t now = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&now, &tm);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return text;
}

// "0000:1B:00.0" and "00000000:1b:00.0" name the same device: the domain as a number, the rest
// in upper case.
std::pair<unsigned long, std::string> bus_key(const std::string& id) {
    const auto colon = id.find(':');
    if (colon == std::string::npos) return {0, id};
    std::string rest = id.substr(colon + 1);
    for (char& c : rest) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return {std::strtoul(id.substr(0, colon).c_str(), nullptr, 16), rest};
}

// Clocks, temperature and power as nvidia-smi reports them now (it is on every machine with the
// driver; cudart has no current clocks), for the GPU with this PCI bus id. Empty if unreadable.
std::vector<std::pair<std::string, std::string>> query_smi(const std::string& pci_bus_id) {
    static const char* const kFields[] = {"pci.bus_id",      "driver_version", "clocks.sm",
                                          "clocks.mem",      "clocks.max.sm",  "clocks.max.mem",
                                          "temperature.gpu", "power.draw",     "pstate"};
    std::string command = "nvidia-smi --format=csv,noheader --query-gpu=";
    for (std::size_t i = 0; i < std::size(kFields); ++i)
        command += std::string(i ? "," : "") + kFields[i];
    command += " 2>/dev/null";
    std::string text;
    if (FILE* pipe = popen(command.c_str(), "r")) {
        char buffer[512];
        while (std::fgets(buffer, sizeof buffer, pipe) != nullptr) text += buffer;
        if (pclose(pipe) != 0) return {};
    }
    std::stringstream lines(text);
    for (std::string line; std::getline(lines, line);) {
        std::vector<std::pair<std::string, std::string>> values;
        std::stringstream fields(line);
        for (std::size_t i = 0; i < std::size(kFields); ++i) {
            std::string value;
            if (!std::getline(fields, value, ',')) break;
            const auto first = value.find_first_not_of(' ');
            values.emplace_back(kFields[i], first == std::string::npos ? "" : value.substr(first));
        }
        if (values.size() == std::size(kFields) && bus_key(values[0].second) == bus_key(pci_bus_id))
            return values;
    }
    return {};
}

RunInfo describe_device(const Settings& s) {
    RunInfo info;
    int device = 0;
    SCANLAB_CUDA_CHECK(cudaGetDevice(&device));
    cudaDeviceProp prop{};
    SCANLAB_CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
    info.device_name = prop.name;
    char bus[32] = {};
    if (cudaDeviceGetPCIBusId(bus, sizeof bus, device) == cudaSuccess) info.pci_bus_id = bus;
    info.cc_major = prop.major;
    info.cc_minor = prop.minor;
    info.sm_count = prop.multiProcessorCount;
    info.l2_bytes = prop.l2CacheSize;
    info.memory_bytes = static_cast<std::int64_t>(prop.totalGlobalMem);
    info.memory_bus_bits = prop.memoryBusWidth;
    (void)cudaDeviceGetAttribute(&info.sm_clock_peak_khz, cudaDevAttrClockRate, device);
    (void)cudaDeviceGetAttribute(&info.memory_clock_peak_khz, cudaDevAttrMemoryClockRate, device);
    info.peak_bandwidth_gbs =
        2.0 * info.memory_clock_peak_khz * 1e3 * (info.memory_bus_bits / 8.0) / 1e9;
    (void)cudaDriverGetVersion(&info.driver_api_version);
    (void)cudaRuntimeGetVersion(&info.runtime_version);
    info.cub_version = cub_version();
    info.cub_algorithm = cub_algorithm(prop.major * 10 + prop.minor);
    info.newest_cub_version = newest_cub_version();
    info.newest_cub_algorithm = newest_cub_algorithm(prop.major * 10 + prop.minor);
    (void)cudaGetLastError(); // an attribute this device lacks is no error of the first entry
    info.timestamp_utc = timestamp_utc();
    info.seed = s.seed;
    info.rounds = s.rounds;
    info.target_batch_us = s.target_batch_us;
    info.rotation_bytes = kRotationBytes;
    info.mean_segment = kMeanSegment;
    return info;
}

int run(const Settings& settings) {
    std::vector<Entry> all = entries();
    // The toolkit's CUB entries (baselines.cu) say their version in the tables, as the newest's do.
    for (Entry& e : all) {
        if (e.version.empty() && e.label.rfind("CUB ", 0) == 0) {
            e.version = cub_version();
            e.label = "CUB " + e.version + e.label.substr(3);
        }
    }
    for (Entry& e : lab_entries()) all.push_back(std::move(e));
    std::stable_sort(all.begin(), all.end(), [](const Entry& a, const Entry& b) {
        if (a.group != b.group) return a.group < b.group;
        if (role_rank(a.role) != role_rank(b.role)) return role_rank(a.role) < role_rank(b.role);
        return a.lab < b.lab; // stable: a lab's entries keep their order in its descriptor
    });
    if (settings.list) {
        for (const Entry& e : all)
            std::printf("%-14s %-40s %s\n", to_string(e.group), e.name.c_str(), e.label.c_str());
        return 0;
    }
    int devices = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
        std::printf("scanlab_bench: no GPU on this machine, nothing to measure\n");
        return 77;
    }
    const auto wall_start = std::chrono::steady_clock::now();
    RunInfo info = describe_device(settings);
    std::filesystem::create_directories(settings.out);
    std::printf(
        "scanlab_bench on %s (%d SMs, L2 %lld MiB), seed %llu, %d rounds; output in %s\n",
        info.device_name.c_str(), info.sm_count, static_cast<long long>(info.l2_bytes >> 20),
        static_cast<unsigned long long>(settings.seed), settings.rounds, settings.out.c_str());
    std::fflush(stdout);

    // A group runs when a lab is in it (its baselines alone would be a waste of the run); the
    // global group always runs, since its baselines are the reference for everything else.
    auto runs = [&](const Entry& e) {
        if (!selected(e, settings)) return false;
        if (e.group == Group::global) return true;
        return std::any_of(all.begin(), all.end(), [&](const Entry& lab) {
            return lab.group == e.group && lab.role == Role::lab && selected(lab, settings);
        });
    };
    bool any_segmented = false, any_sort = false;
    std::int64_t largest = 2048;
    for (const Entry& e : all) {
        if (!runs(e)) continue;
        any_segmented = any_segmented || e.group == Group::segmented;
        any_sort = any_sort || e.group == Group::sort;
        if (e.group != Group::single_block)
            largest = std::max(largest, std::min(e.max_n, sizes_of(e.group, settings).back()));
    }
    Pool pool;
    const std::int64_t pool_elements = std::max(largest, kRotationBytes / 8);
    make_pool(pool, pool_elements, settings.seed, any_segmented, any_sort);

    warm_up_gpu(pool);
    GpuHold hold;
    std::vector<Result> results;
    for (const Group group : kGroups) {
        for (const std::int64_t n : sizes_of(group, settings)) {
            std::vector<const Entry*> todo;
            for (const Entry& e : all)
                if (e.group == group && n <= e.max_n && runs(e)) todo.push_back(&e);
            if (todo.empty()) continue;
            const Plan plan = make_plan(pool, group, n);
            std::printf("%-13s n = %-6s", to_string(group), format_n(n).c_str());
            std::fflush(stdout);
            for (Result& r : measure_size(todo, pool, plan, hold, settings)) {
                if (r.ok())
                    std::printf(" | %s %.1f us", r.entry->label.c_str(), r.median_us);
                else
                    std::printf(" | %s %s", r.entry->label.c_str(), to_string(r.status));
                results.push_back(std::move(r));
            }
            std::printf("\n");
            std::fflush(stdout);
        }
    }
    for (const Entry& e : all)
        if (e.release && runs(e)) e.release();

    info.smi = query_smi(info.pci_bus_id); // after the run: the clocks the card ran at
    info.wall_s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
    fill_ratios(results);
    write_csv(settings.out / "results.csv", results);
    write_json(settings.out / "results.json", info, results);
    write_tables_md(settings.out / "tables.md", info, results);
    print_summary(info, results, settings.out);
    const bool all_ok =
        std::all_of(results.begin(), results.end(), [](const Result& r) { return r.ok(); });
    return all_ok ? 0 : 1;
}

} // namespace
} // namespace scanlab::bench

int main(int argc, char** argv) {
    scanlab::bench::Settings settings;
    if (const auto status = scanlab::bench::parse(argc, argv, settings)) return *status;
    try {
        return scanlab::bench::run(settings);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "scanlab_bench: %s\n", e.what());
        return 1;
    }
}
