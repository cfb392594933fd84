// The memory model's reader side, torn descriptors, read-write races between blocks, races that
// only another dispatch order would show, and programmatic dependent launch: each mistake of
// memory_model_kernels.cuh must be reported at its `// BUG:` line by default (its mode, in-order
// dispatch) and with a shuffled dispatch, and each fixed twin must run clean and right in its,
// lockstep and pre-volta.
#include <doctest/doctest.h>

#include <cuda_runtime.h>

#include <algorithm>
#include <functional>
#include <numeric>
#include <string>
#include <vector>

#include "device_vector.h"
#include "memory_model_kernels.cuh"
#include "planted.h"

namespace {

using simt::Dispatch;
using simt::FaultKind;
using simt::Mode;
namespace mm = memory_model;

constexpr int kBlocks = 8;
constexpr int kThreads = 32;

// The mistake is reported at its marker, by default and with the blocks dispatched shuffled.
simt::FaultReport expect_reported(FaultKind kind, const std::string& marker,
                                  const std::function<void()>& launch) {
    const Expectation e{kind, marker};
    expect_planted_report(mm::kKernelsFile, e, launch, Mode::its, Dispatch::shuffled);
    return expect_planted_report(mm::kKernelsFile, e, launch);
}

// The twin runs clean in every mode, and `check` holds after each run.
void expect_clean_everywhere(const char* what, const std::function<void()>& launch,
                             const std::function<void()>& check) {
    for (const Mode mode : {Mode::its, Mode::lockstep, Mode::pre_volta}) {
        const simt::FaultReport report = run_quietly(launch, mode);
        INFO(what << " in mode " << simt::to_string(mode) << " should run clean, got:\n"
                  << report.message);
        CHECK(report.kind == FaultKind::none);
        CHECK(report.findings.empty());
        check();
    }
}

std::vector<int> one_to(int n) {
    std::vector<int> v(n);
    std::iota(v.begin(), v.end(), 1);
    return v;
}

} // namespace

TEST_CASE("memory model: a value read before its flag") {
    DeviceVector<int> values(std::vector<int>(kBlocks, 0)), flags(std::vector<int>(kBlocks, 0)),
        out(kBlocks);
    auto reset = [&] {
        REQUIRE(cudaMemset(values.data(), 0, kBlocks * sizeof(int)) == cudaSuccess);
        REQUIRE(cudaMemset(flags.data(), 0, kBlocks * sizeof(int)) == cudaSuccess);
    };
    const simt::FaultReport report =
        expect_reported(FaultKind::memory_ordering, "value-before-flag", [&] {
            reset();
            mm::value_before_flag<<<kBlocks, kThreads>>>(values.data(), flags.data(), out.data());
        });
    CHECK(report.message.find("value read before its flag") != std::string::npos);
    CHECK(report.message.find("Read the flag first, then __threadfence(), then the value") !=
          std::string::npos);
    expect_clean_everywhere(
        "flag, fence, value",
        [&] {
            reset();
            mm::flag_then_value<<<kBlocks, kThreads>>>(values.data(), flags.data(), out.data());
        },
        [&] { CHECK(out.download() == one_to(kBlocks)); });
    // A plain read of the value after its write, unordered: a race, reported at the read.
    const simt::FaultReport plain =
        expect_reported(FaultKind::global_race, "plain-value-then-flag", [&] {
            reset();
            mm::plain_value_then_flag<<<2, kThreads>>>(values.data(), flags.data(), out.data());
        });
    CHECK(plain.message.find("read after write") != std::string::npos);
}

TEST_CASE("memory model: a descriptor published or read in two halves") {
    DeviceVector<unsigned long long> words(kBlocks);
    DeviceVector<int> out(kBlocks);
    auto reset = [&] {
        REQUIRE(cudaMemset(words.data(), 0, kBlocks * sizeof(unsigned long long)) == cudaSuccess);
    };
    simt::FaultReport report =
        expect_reported(FaultKind::memory_ordering, "descriptor-two-stores", [&] {
            reset();
            mm::descriptor_in_two_stores<<<kBlocks, kThreads>>>(words.data(), out.data());
        });
    CHECK(report.message.find("torn publication") != std::string::npos);
    expect_clean_everywhere(
        "one 64-bit store",
        [&] {
            reset();
            mm::descriptor_in_one_store<<<kBlocks, kThreads>>>(words.data(), out.data());
        },
        [&] { CHECK(out.download() == one_to(kBlocks)); });
    report = expect_reported(FaultKind::memory_ordering, "descriptor-two-loads", [&] {
        reset();
        mm::descriptor_in_two_loads<<<kBlocks, kThreads>>>(words.data(), out.data());
    });
    CHECK(report.message.find("torn read") != std::string::npos);
    expect_clean_everywhere(
        "one 64-bit load",
        [&] {
            reset();
            mm::descriptor_in_one_load<<<kBlocks, kThreads>>>(words.data(), out.data());
        },
        [&] { CHECK(out.download() == one_to(kBlocks)); });
}

TEST_CASE("memory model: plain loads racing other blocks' atomics and stores") {
    const int n = kBlocks * kThreads;
    std::vector<int> input(n);
    std::iota(input.begin(), input.end(), 0);
    const int expected = static_cast<int>(
        std::count_if(input.begin(), input.end(), [](int x) { return x % 3 == 0; }));
    DeviceVector<int> in(input), count(1), total(1);
    DeviceVector<unsigned> done(1);
    auto reset = [&] {
        REQUIRE(cudaMemset(count.data(), 0, sizeof(int)) == cudaSuccess);
        REQUIRE(cudaMemset(done.data(), 0, sizeof(unsigned)) == cudaSuccess);
        REQUIRE(cudaMemset(total.data(), 0, sizeof(int)) == cudaSuccess);
    };
    const simt::FaultReport report =
        expect_reported(FaultKind::global_race, "count-read-early", [&] {
            reset();
            mm::count_copied_by_last_block<<<kBlocks, kThreads>>>(in.data(), n, count.data(),
                                                                  total.data());
        });
    CHECK(report.message.find("atomic") != std::string::npos);
    expect_clean_everywhere(
        "the last block to finish copies the count",
        [&] {
            reset();
            mm::count_copied_after_all<<<kBlocks, kThreads>>>(in.data(), n, count.data(),
                                                              done.data(), total.data());
        },
        [&] { CHECK(total.download()[0] == expected); });

    DeviceVector<int> partial(std::vector<int>(kBlocks, -1)), out(std::vector<int>(kBlocks, 0));
    expect_reported(FaultKind::global_race, "read-before-neighbour-writes", [&] {
        mm::read_before_neighbour_writes<<<kBlocks, kThreads>>>(partial.data(), out.data());
    });
    expect_clean_everywhere(
        "partials written and read in two kernels",
        [&] {
            mm::write_partials<<<kBlocks, kThreads>>>(partial.data());
            mm::read_next_partial<<<kBlocks, kThreads>>>(partial.data(), out.data());
        },
        [&] {
            const std::vector<int> got = out.download();
            for (int b = 0; b + 1 < kBlocks; ++b) CHECK(got[b] == 10 * (b + 1));
        });
}

TEST_CASE("memory model: a race that the in-order dispatch hides") {
    DeviceVector<unsigned> counter(std::vector<unsigned>{123});
    DeviceVector<int> tickets(kBlocks);
    expect_reported(FaultKind::global_race, "counter-reset-in-kernel", [&] {
        mm::counter_reset_in_kernel<<<kBlocks, kThreads>>>(counter.data(), tickets.data());
    });
    expect_clean_everywhere(
        "a counter the host resets",
        [&] {
            REQUIRE(cudaMemset(counter.data(), 0, sizeof(unsigned)) == cudaSuccess);
            mm::counter_reset_by_host<<<kBlocks, kThreads>>>(counter.data(), tickets.data());
        },
        [&] {
            std::vector<int> got = tickets.download();
            std::sort(got.begin(), got.end());
            std::vector<int> want(kBlocks);
            std::iota(want.begin(), want.end(), 0);
            CHECK(got == want);
        });
}

TEST_CASE("memory model: programmatic dependent launch") {
    const int n = 4 * kThreads;
    std::vector<int> input(n);
    std::iota(input.begin(), input.end(), 5);
    DeviceVector<int> in(input), mid(n), out(n);
    const simt::FaultReport report =
        expect_reported(FaultKind::global_race, "read-before-grid-dependency-sync", [&] {
            mm::produce<<<n / kThreads, kThreads>>>(in.data(), mid.data(), n);
            CHECK(mm::launch_dependent(mm::consume_too_early, mid.data(), out.data(), n,
                                       kThreads) != cudaSuccess);
        });
    CHECK(report.message.find("cudaGridDependencySynchronize()") != std::string::npos);
    expect_clean_everywhere(
        "the dependent kernel reads after cudaGridDependencySynchronize()",
        [&] {
            mm::produce<<<n / kThreads, kThreads>>>(in.data(), mid.data(), n);
            CHECK(mm::launch_dependent(mm::consume_after_sync, mid.data(), out.data(), n,
                                       kThreads) == cudaSuccess);
        },
        [&] {
            const std::vector<int> got = out.download();
            for (int i = 0; i < n; ++i) CHECK(got[i] == 2 * input[i] + 1);
        });
    // Without the attribute the launch is ordered after the one before: no report.
    cudaLaunchAttribute none[1];
    none[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
    none[0].val.programmaticStreamSerializationAllowed = 0;
    cudaLaunchConfig_t config = {};
    config.gridDim = dim3(n / kThreads);
    config.blockDim = dim3(kThreads);
    config.attrs = none;
    config.numAttrs = 1;
    expect_clean_everywhere(
        "a launch without programmatic serialization",
        [&] {
            mm::produce<<<n / kThreads, kThreads>>>(in.data(), mid.data(), n);
            CHECK(cudaLaunchKernelEx(&config, mm::consume_too_early, mid.data(), out.data(), n) ==
                  cudaSuccess);
        },
        [] {});
    // An attribute the emulator does not model is refused by name.
    cudaLaunchAttribute cluster[1];
    cluster[0].id = cudaLaunchAttributeClusterDimension;
    cluster[0].val.clusterDim = {2, 1, 1};
    config.attrs = cluster;
    const simt::Options saved = simt::options();
    simt::options().report_to_stderr = false;
    CHECK(cudaLaunchKernelEx(&config, mm::consume_after_sync, mid.data(), out.data(), n) ==
          cudaErrorNotSupported);
    simt::options() = saved;
    cudaGetLastError();
}

TEST_CASE("memory model: __activemask() and shuffles from lanes that returned") {
    std::vector<int> input(kThreads);
    std::iota(input.begin(), input.end(), 1);
    DeviceVector<int> in(input), out(1);
    const int n = 20;
    const simt::FaultReport report =
        expect_reported(FaultKind::warp_mask, "shuffle-from-exited-lane", [&] {
            mm::shuffle_after_return<<<1, kThreads>>>(in.data(), out.data(), n);
        });
    CHECK(report.message.find("has exited") != std::string::npos);
    expect_clean_everywhere(
        "lanes past n take part with the identity",
        [&] { mm::shuffle_with_identity<<<1, kThreads>>>(in.data(), out.data(), n); },
        [&] { CHECK(out.download()[0] == n * (n + 1) / 2); });
    // A converged warp's lanes get the same mask: the lanes that did not return.
    DeviceVector<unsigned> masks(kThreads);
    for (const int lanes : {n, kThreads}) {
        expect_clean_everywhere(
            "__activemask()", [&] { mm::active_masks<<<1, kThreads>>>(masks.data(), lanes); },
            [&] {
                const std::vector<unsigned> got = masks.download();
                const unsigned want = lanes == 32 ? ~0u : (1u << lanes) - 1;
                for (int l = 0; l < lanes; ++l) CHECK(got[l] == want);
            });
    }
    // In a branch between two full-warp intrinsics: the even lanes' mask, and the ballot after
    // the branch waits for the lanes still at the __activemask() (it once took them for lanes at
    // a different intrinsic, by the mask the shuffle before had left).
    DeviceVector<unsigned> ballot(1);
    expect_clean_everywhere(
        "__activemask() in a branch between a shuffle and a ballot",
        [&] { mm::active_mask_in_branch<<<1, kThreads>>>(masks.data(), ballot.data()); },
        [&] {
            const std::vector<unsigned> got = masks.download();
            for (int l = 0; l < kThreads; ++l) CHECK(got[l] == (l % 2 == 0 ? 0x55555555u : 0u));
            CHECK(ballot.download()[0] == 0xFu);
        });
}
