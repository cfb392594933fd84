// Hidden tests for lab 06 (instructor-only: not in the handout). The grader compiles this file
// into lab06's test program when it grades with hidden tests (tools/grader/cmake/
// grader_hooks.cmake); check_stubs.py makes sure each case fails on the stub and passes on the
// solution. Test cases here are in the doctest suite "hidden"; their names start with "hidden:".
// They use sizes, operators, head flags other than 1 and aliasing that the visible tests do not
// name. Integer operators only: the reference below is exact.
#include "segmented_scan.h"

#include "scan_test_support.h"

#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

using lab06::SegmentedMethod;
using scanlab::Affine;
using scanlab::DeviceBuffer;
using scanlab::Max;
using scanlab::Min;
using scanlab::ScanKind;
using scanlab::Sum;

namespace {

template <class Op>
std::vector<typename Op::value_type> reference(const std::vector<typename Op::value_type>& in,
                                               const std::vector<std::uint8_t>& flags,
                                               ScanKind kind) {
    std::vector<typename Op::value_type> out(in.size());
    auto running = Op::identity();
    for (std::size_t i = 0; i < in.size(); ++i) {
        if (i == 0 || flags[i] != 0) running = Op::identity();
        if (kind == ScanKind::exclusive) out[i] = running;
        running = Op::apply(running, in[i]);
        if (kind == ScanKind::inclusive) out[i] = running;
    }
    return out;
}

/// Heads every `every` elements and at a few fixed places, marked with `mark` (any nonzero byte
/// starts a segment, not only 1).
std::vector<std::uint8_t> flags_for(int n, int every, std::uint8_t mark) {
    std::vector<std::uint8_t> flags(n, 0);
    for (int i = 0; i < n; ++i)
        if (i % every == every - 1 || i == n / 3 || i == n / 3 + 1) flags[i] = mark;
    return flags;
}

const char* method_name(SegmentedMethod method) {
    return method == SegmentedMethod::operator_transform ? "operator_transform"
                                                         : "conditional_index";
}

/// Runs one segmented scan (out of place or in place) and returns "" or what went wrong.
template <class Op, bool Small>
std::string run(int n, int every, std::uint8_t mark, ScanKind kind, SegmentedMethod method,
                bool in_place) {
    using T = typename Op::value_type;
    const std::vector<T> input = scanlab::test::make_input<Op>(n, kind);
    const std::vector<std::uint8_t> flags = flags_for(n, every, mark);
    DeviceBuffer<T> d_in(input);
    DeviceBuffer<std::uint8_t> d_flags(flags);
    DeviceBuffer<T> d_out(std::vector<T>(input.size(), scanlab::test::poison_value<T>()));
    T* const out_ptr = in_place ? d_in.data() : d_out.data();
    scanlab::test::KernelWorkWatch watch;
    watch.input(d_in.data(), input.size()).input(d_flags.data(), flags.size());
    watch.output(out_ptr, input.size());
    if constexpr (Small)
        lab06::segmented_scan<Op, 64, 3>(d_in.data(), d_flags.data(), out_ptr, n, kind, method);
    else
        lab06::segmented_scan<Op>(d_in.data(), d_flags.data(), out_ptr, n, kind, method);
    const std::string what = std::string("lab06::segmented_scan") + (Small ? "<64, 3>" : "") +
                             " (" + to_string(kind) + " " + Op::name + ", " + method_name(method) +
                             ", n = " + std::to_string(n) + ", a head every " +
                             std::to_string(every) + " marked " + std::to_string(mark) +
                             (in_place ? ", in place" : "") + ")";
    if (cudaDeviceSynchronize() != cudaSuccess) return what + ": the kernel failed";
    if (std::string host_work = watch.verdict(what); !host_work.empty()) return host_work;
    const std::vector<T> out = in_place ? d_in.download() : d_out.download();
    const std::vector<T> expected = reference<Op>(input, flags, kind);
    for (int i = 0; i < n; ++i)
        if (out[i] != expected[i])
            return what + ": first wrong at index " + std::to_string(i) +
                   " (a head: " + (i == 0 || flags[i] ? "yes" : "no") + ")";
    if (!in_place && d_in.download() != input) return what + ": the input was modified";
    return "";
}

} // namespace

TEST_SUITE("hidden") {

    TEST_CASE("hidden: heads marked with bytes other than 1, both methods") {
        for (const SegmentedMethod method :
             {SegmentedMethod::operator_transform, SegmentedMethod::conditional_index}) {
            for (const std::uint8_t mark : {std::uint8_t{2}, std::uint8_t{255}}) {
                std::string problem = run<Sum<std::int64_t>, true>(
                    1000, 37, mark, ScanKind::inclusive, method, false);
                if (problem.empty())
                    problem = run<Min<std::int32_t>, true>(5000, 190, mark, ScanKind::exclusive,
                                                           method, false);
                if (!problem.empty()) {
                    FAIL_CHECK(problem);
                    return;
                }
            }
        }
    }

    TEST_CASE("hidden: segments of one tile plus one, default tile shape") {
        // Default tiles: 256 x 16 elements (32-bit), 256 x 8 (64-bit).
        for (const SegmentedMethod method :
             {SegmentedMethod::operator_transform, SegmentedMethod::conditional_index}) {
            std::string problem = run<Affine<std::uint32_t>, false>(
                3 * 4096 + 7, 4097, 1, ScanKind::exclusive, method, false);
            if (problem.empty())
                problem = run<Max<std::uint32_t>, false>(2 * 2048 + 1, 2049, 1, ScanKind::inclusive,
                                                         method, false);
            if (!problem.empty()) {
                FAIL_CHECK(problem);
                return;
            }
        }
    }

    TEST_CASE("hidden: non-commutative operator in place") {
        for (const SegmentedMethod method :
             {SegmentedMethod::operator_transform, SegmentedMethod::conditional_index}) {
            for (const ScanKind kind : {ScanKind::inclusive, ScanKind::exclusive}) {
                const std::string problem =
                    run<Affine<std::int64_t>, true>(7001, 500, 1, kind, method, true);
                if (!problem.empty()) {
                    FAIL_CHECK(problem);
                    return;
                }
            }
        }
    }

} // TEST_SUITE("hidden")
