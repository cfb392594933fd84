// tools.lab_descriptors: every lab descriptor compiled in (the solutions, on the emulator) is
// well formed for the tools that read it, and each of its variants scans right: once on its own
// and twice in a row with its kept Workspace (as the benchmark calls it), on fresh random input
// of a random size, against the host reference. Prints what it checked; exit status 1 on a fault.
#include "lab_descriptor.h"

#include <scanlab/cuda_check.h>
#include <scanlab/device_buffer.h>
#include <scanlab/operators.h>
#include <scanlab/reference_scan.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <random>
#include <set>
#include <string>
#include <vector>

namespace {
using namespace scanlab::labs;

int faults = 0;

void fault(const LabDescriptor& lab, const std::string& what) {
    std::printf("lab %s: %s\n", lab.number.c_str(), what.c_str());
    ++faults;
}

void check_fields(const LabDescriptor& lab, std::set<std::string>& bench_names) {
    if (lab.number.size() != 2 || lab.number.find_first_not_of("0123456789") != std::string::npos)
        fault(lab, "the number is not two digits");
    if (lab.variants.empty()) fault(lab, "no variants");
    std::set<std::string> names;
    int rows = 0, traced = 0;
    for (const Variant& v : lab.variants) {
        if (!v.call) fault(lab, "variant '" + v.name + "' has no call");
        if (!names.insert(v.name).second) fault(lab, "two variants named '" + v.name + "'");
        if (lab.variants.size() > 1 && v.name.empty())
            fault(lab, "an unnamed variant among several");
        rows += !v.run_title.empty();
        traced += !v.trace_caption.empty();
        if (v.value != ValueType::i32 && (!v.run_title.empty() || !v.trace_caption.empty()))
            fault(lab, "variant '" + v.name + "' is not int32: the benchmark alone can run it");
        if (!v.bench_name.empty()) {
            if (!bench_names.insert(v.bench_name).second)
                fault(lab, "benchmark name '" + v.bench_name + "' is taken");
            if (v.bench_name.find(',') != std::string::npos || v.bench_label.empty())
                fault(lab, "benchmark name '" + v.bench_name + "': a comma, or no label");
        }
    }
    if (rows == 0) fault(lab, "no row in the main job (no variant has a run_title)");
    if (lab.runs == Runs::device && (traced == 0 || lab.trace_n <= 0))
        fault(lab, "a device lab the tracer cannot record (no trace_caption or trace_n)");
    if (lab.run_slices < 1 || (lab.run_slices > 1 && !lab.one_block()))
        fault(lab, "run_slices is for one-block labs, and at least 1");
}

template <class T>
std::vector<T> scanned(const std::vector<int>& in, const std::vector<std::uint8_t>& heads,
                       scanlab::ScanKind kind, Input input) {
    std::vector<T> values(in.begin(), in.end()), out(in.size());
    if (input == Input::keys) { // a sort
        std::sort(values.begin(), values.end());
        return values;
    }
    for (size_t start = 0; start < in.size();) {
        size_t end = start + 1;
        while (end < in.size() && (heads.empty() || !heads[end])) ++end;
        scanlab::reference_scan<scanlab::Sum<T>>(values.data() + start, out.data() + start,
                                                 end - start, kind);
        start = end;
    }
    return out;
}

// One variant on n elements: a call on its own, then two calls with one kept Workspace.
template <class T>
void check_calls(const LabDescriptor& lab, const Variant& v, long long n, std::mt19937_64& rng) {
    // A sort's keys: the whole int range, so that every pass has digits to sort by.
    std::uniform_int_distribution<int> value(lab.input == Input::keys ? INT_MIN : -9,
                                             lab.input == Input::keys ? INT_MAX : 9);
    std::bernoulli_distribution head(1.0 / 50);
    std::vector<int> ints(static_cast<size_t>(n));
    for (int& x : ints) x = value(rng);
    std::vector<std::uint8_t> heads;
    if (lab.input == Input::segmented)
        for (long long i = 0; i < n; ++i) heads.push_back(head(rng) ? 1 : 0);
    const auto kind = lab.shown_kind;
    const std::vector<T> expected = scanned<T>(ints, heads, kind, lab.input);
    const std::vector<T> input(ints.begin(), ints.end());
    auto run = [&](const Call& call, const char* how) {
        std::vector<T> out(input.size());
        if (lab.runs == Runs::host) {
            call({.in = input.data(), .out = out.data(), .n = n, .kind = kind});
        } else {
            scanlab::DeviceBuffer<T> d_in(input), d_out(input.size());
            scanlab::DeviceBuffer<std::uint8_t> d_heads(heads);
            call({.in = d_in.data(),
                  .out = d_out.data(),
                  .n = n,
                  .kind = kind,
                  .heads = heads.empty() ? nullptr : d_heads.data()});
            SCANLAB_CUDA_CHECK(cudaDeviceSynchronize());
            out = d_out.download();
        }
        if (out != expected)
            fault(lab, "variant '" + v.name + "', " + how + ", n = " + std::to_string(n) +
                           ": not the host reference's result");
    };
    run(v.call, "on its own");
    const Call repeated = v.repeated_call();
    run(repeated, "repeated, first call");
    run(repeated, "repeated, second call");
}

} // namespace

int main() {
    const std::uint64_t seed = std::random_device{}();
    std::mt19937_64 rng(seed);
    std::printf("lab descriptors, input seed %llu\n", static_cast<unsigned long long>(seed));
    std::set<std::string> bench_names;
    try {
        for (const LabDescriptor& lab : lab_descriptors()) {
            check_fields(lab, bench_names);
            const long long most = lab.one_block() ? lab.max_n : 5000;
            for (const Variant& v : lab.variants) {
                const long long n = std::uniform_int_distribution<long long>(1, most)(rng);
                with_value_type(v.value, [&]<class T>() { check_calls<T>(lab, v, n, rng); });
                std::printf("lab %s variant '%s': n = %lld checked\n", lab.number.c_str(),
                            v.name.c_str(), n);
            }
        }
    } catch (const std::exception& e) {
        std::printf("error: %s\n", e.what());
        return 1;
    }
    std::printf("%zu lab(s), %d fault(s)\n", lab_descriptors().size(), faults);
    return faults == 0 && !lab_descriptors().empty() ? 0 : 1;
}
