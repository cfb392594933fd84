// The grader's speed harness (grade.py --speed): times the one lab compiled into this program
// through its descriptor (tools/lab_descriptors/labNN.cpp) with CUDA events, and writes what it
// measured as JSON. The grader's CMake hook builds it as lab<NN>_speed_<flavour>_<backend>, with
// the student's or the solution's library; the rubric's [labs.NN.speed] gives the points, and
// the variant, size and kind where they are not the descriptor's.
//
//   labNN_speed_<flavour>_<backend> --out=FILE [--variant=NAME] [--n=N]
//       [--kind=inclusive|exclusive] [--warmup=W] [--batches=B] [--per-batch=K] [--seed=S]
//
// Protocol (docs/grading.md, "Speed grading"):
// 1. one call on random int32 input into a poisoned output, checked against the host reference
//    (a wrong result is never timed);
// 2. W calls to warm up; then B batches of K back-to-back calls, each batch between two CUDA
//    events; the time per call = batch time / K (scanlab/batch_timing.h, as scanlab_bench);
// 3. one more call into a poisoned output, checked again (so a lab that stops writing after
//    its first calls is caught); FILE gets {"median_ms", "min_ms", "correct", "device", ...}.
// Exit status: 0 measured, 3 wrong result, 4 error (the JSON says which).
// Every call is the variant's repeated call: its Workspace is kept from call to call, as the
// lab's interface recommends for repeated calls, so that only the first, untimed call allocates.
#include "lab_descriptor.h"
#include "lab_input.h"

#include <scanlab/batch_timing.h>
#include <scanlab/cuda_check.h>
#include <scanlab/device_buffer.h>
#include <scanlab/json_string.h>
#include <scanlab/scan_kind.h>

#include <cuda_runtime.h>

#include <CLI/CLI.hpp>

#include <cstdint>
#include <cstdio>
#include <exception>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {
using namespace scanlab;
using labs::LabDescriptor;
using labs::Variant;

constexpr int kMeasured = 0;
constexpr int kWrong = 3;
constexpr int kError = 4;
constexpr long long kDefaultN = 1 << 20; // for a lab of any n

struct Args {
    std::string out;
    std::string variant; // "": the descriptor's first int32 variant
    long long n = 0;     // 0: a one-block lab's most, kDefaultN for any other
    ScanKind kind = ScanKind::inclusive;
    bool kind_given = false; // else the kind the descriptor shows
    int warmup = 5;
    int batches = 15;
    int per_batch = 10;
    std::uint64_t seed = 1;
};

CLI::Option* add_options(CLI::App& app, Args& args) {
    app.add_option("--out", args.out, "where the JSON goes")->required();
    app.add_option("--variant", args.variant, "the descriptor's variant (default: its first)");
    app.add_option("--n", args.n, "elements per call (default: the lab's own)")
        ->check(CLI::PositiveNumber);
    CLI::Option* kind =
        app.add_option("--kind", args.kind, "inclusive or exclusive (default: the lab's own)")
            ->transform(CLI::CheckedTransformer(std::map<std::string, ScanKind>{
                {"inclusive", ScanKind::inclusive}, {"exclusive", ScanKind::exclusive}}));
    app.add_option("--warmup", args.warmup, "calls before the timed batches")
        ->check(CLI::NonNegativeNumber);
    app.add_option("--batches", args.batches, "timed batches")->check(CLI::PositiveNumber);
    app.add_option("--per-batch", args.per_batch, "back-to-back calls per batch")
        ->check(CLI::PositiveNumber);
    app.add_option("--seed", args.seed, "the input's random seed");
    return kind;
}

/// The lab this program was built with: exactly one (grader_hooks.cmake links one).
const LabDescriptor& the_lab() {
    const auto& all = labs::lab_descriptors();
    if (all.size() != 1)
        throw std::runtime_error("the speed harness needs exactly one lab compiled in, not " +
                                 std::to_string(all.size()));
    const LabDescriptor& lab = all.front();
    if (lab.runs == labs::Runs::host)
        throw std::runtime_error("lab " + lab.number +
                                 " runs on the host: the speed harness times kernels");
    return lab;
}

/// The int32 variant called `name`, or the first int32 one for "".
const Variant& timed_variant(const LabDescriptor& lab, const std::string& name) {
    std::string known;
    for (const Variant& v : lab.variants) {
        if (v.value != labs::ValueType::i32) continue;
        if (v.name == name || name.empty()) return v;
        known += (known.empty() ? "" : ", ") + v.name;
    }
    throw std::runtime_error("lab " + lab.number + " has no int32 variant '" + name + "'" +
                             (known.empty() ? "" : " (it has: " + known + ")"));
}

long long size_of(const LabDescriptor& lab, long long asked) {
    if (asked == 0) return lab.one_block() ? lab.max_n : kDefaultN;
    if (lab.one_block() && asked > lab.max_n)
        throw std::runtime_error("n = " + std::to_string(asked) + " is more than one call of lab " +
                                 lab.number + " takes (" + std::to_string(lab.max_n) + ")");
    return asked;
}

std::string what_of(const LabDescriptor& lab, const Variant& v) {
    if (!v.bench_label.empty()) return v.bench_label;
    return "lab" + lab.number + (v.name.empty() ? "" : " " + v.name);
}

/// Writes a JSON object: `fields` is its text without the braces.
void write_object(const std::string& path, const std::string& fields) {
    std::ofstream file(path, std::ios::trunc);
    file << "{" << fields << "}\n";
}

/// Empty when `out` is `expected`, else where it first differs.
std::string difference(const std::vector<int>& expected, const std::vector<int>& out) {
    for (std::size_t i = 0; i < expected.size(); ++i)
        if (out[i] != expected[i])
            return "wrong result at index " + std::to_string(i) + ": expected " +
                   std::to_string(expected[i]) + ", got " + std::to_string(out[i]);
    return "";
}

} // namespace

int main(int argc, char** argv) {
    Args args;
    CLI::App app{"Times the lab compiled into this program, through its descriptor, with CUDA "
                 "events, and writes the result as JSON (docs/grading.md, \"Speed grading\")."};
    const CLI::Option* kind_option = add_options(app, args);
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& help) {
        return app.exit(help);
    } catch (const CLI::ParseError& error) {
        std::fprintf(stderr, "speed harness: %s\n", error.what());
        return kError;
    }
    std::string fields; // what was timed, once known
    auto fail = [&](int status, const std::string& error) {
        write_object(args.out, fields + "\"correct\": false, \"error\": " + json_string(error));
        return status;
    };
    try {
        const LabDescriptor& lab = the_lab();
        const Variant& variant = timed_variant(lab, args.variant);
        const long long n = size_of(lab, args.n);
        const ScanKind kind = kind_option->count() > 0 ? args.kind : lab.shown_kind;
        fields = "\"lab\": " + json_string(lab.number) +
                 ", \"variant\": " + json_string(variant.name) +
                 ", \"what\": " + json_string(what_of(lab, variant)) +
                 ", \"n\": " + std::to_string(n) + ", \"kind\": \"" + to_string(kind) + "\", ";

        const std::vector<int> input = run::random_ints(n, args.seed);
        std::vector<std::uint8_t> heads;
        if (lab.input == labs::Input::segmented) heads = run::random_heads(n, args.seed);
        const std::vector<int> expected =
            run::expected_output(lab.input, input, heads, kind, static_cast<std::size_t>(n));
        DeviceBuffer<int> d_in(input), d_out(input.size());
        DeviceBuffer<std::uint8_t> d_heads(heads);
        const labs::ScanCall operands{.in = d_in.data(),
                                      .out = d_out.data(),
                                      .n = n,
                                      .kind = kind,
                                      .heads = heads.empty() ? nullptr : d_heads.data()};
        const labs::Call call = variant.repeated_call();
        auto checked_call = [&] {
            SCANLAB_CUDA_CHECK(cudaMemset(d_out.data(), 0xCD, d_out.bytes())); // poison
            call(operands);
            SCANLAB_CUDA_CHECK(cudaGetLastError());
            SCANLAB_CUDA_CHECK(cudaDeviceSynchronize());
            return difference(expected, d_out.download());
        };

        if (std::string wrong = checked_call(); !wrong.empty()) return fail(kWrong, wrong);
        for (int i = 0; i < args.warmup; ++i) call(operands);
        SCANLAB_CUDA_CHECK(cudaDeviceSynchronize());
        std::vector<double> per_call_ms;
        for (int b = 0; b < args.batches; ++b)
            per_call_ms.push_back(time_batch_us(args.per_batch, [&] { call(operands); }) / 1e3);
        SCANLAB_CUDA_CHECK(cudaGetLastError());
        if (std::string wrong = checked_call(); !wrong.empty())
            return fail(kWrong, "after repeated calls: " + wrong);

        const Spread spread = spread_of(per_call_ms);
        std::string device = "unknown";
        cudaDeviceProp prop{};
        if (cudaGetDeviceProperties(&prop, 0) == cudaSuccess) device = prop.name;
        std::ostringstream measured;
        measured.precision(9);
        measured << "\"correct\": true, \"median_ms\": " << spread.median
                 << ", \"min_ms\": " << spread.min << ", \"batches\": " << args.batches
                 << ", \"per_batch\": " << args.per_batch << ", \"warmup\": " << args.warmup
                 << ", \"device\": " << json_string(device);
        write_object(args.out, fields + measured.str());
        return kMeasured;
    } catch (const std::exception& error) {
        return fail(kError, error.what());
    }
}
