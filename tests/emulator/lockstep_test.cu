// Lockstep follows SIMT reconvergence: a warp's lanes run as one instruction stream, lanes that
// take different sides of a branch run one side and then the other, and all go on together
// where the branches join (the earliest code position first, as a SIMT stack runs a warp). And
// the race checks do not depend on the mode: lanes of a warp are unordered until a warp
// intrinsic in `its` and lockstep alike; only the explicit pre-volta mode trusts lockstep.
// simt backend only: the modes are the emulator's.
#include <doctest/doctest.h>

#include <cuda_runtime.h>

#include <algorithm>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "chapter_segscan.cuh"
#include "device_vector.h"
#include "planted.h"
#include "simt/options.h"
#include "simt/report.h"
#include "simt/trace.h"
#include <scanlab/trace/trace.h>

namespace {

// One launch in `mode` (planted.h's quiet runner), with the seed set, and what it reported.
struct Run {
    simt::FaultReport report;
    cudaError_t error() const { return report.error; }
    bool race() const {
        for (const simt::Finding& finding : report.findings)
            if (finding.kind == simt::FaultKind::shared_race) return true;
        return false;
    }
};

Run run_in(simt::Mode mode, const std::function<void()>& launch, uint64_t seed = 1) {
    const uint64_t saved_seed = simt::options().seed;
    simt::options().seed = seed;
    Run r{run_quietly(launch, mode)};
    simt::options().seed = saved_seed;
    return r;
}

TEST_CASE("lockstep: the 2011 chapter's segmented warp scan gets pre-Volta's values") {
    std::mt19937 rng(std::random_device{}());
    const int blocks = 3, threads = 256, n = blocks * threads;
    std::vector<int> values(n), flags(n);
    for (int& v : values) v = static_cast<int>(rng() % 1000) - 500;
    // Densities from every element flagged to one in eight, and a warp with no flag at all, so
    // that steps are skipped by few or many lanes.
    const unsigned every = 1 + rng() % 8;
    for (int i = 0; i < n; ++i) flags[i] = rng() % every == 0;
    for (int i = 64; i < 96; ++i) flags[i] = 0;
    const std::vector<int> expect = segmented_reference(values, flags);
    DeviceVector<int> d_values(values), d_flags(flags), d_out(n);
    auto launch = [&] {
        segmented_warp_scans<<<blocks, threads>>>(d_values.data(), d_flags.data(), d_out.data());
    };

    // pre-volta: lockstep, and its lanes count as ordered: right values, nothing reported.
    const Run pre_volta = run_in(simt::Mode::pre_volta, launch);
    INFO("pre-volta report: " << pre_volta.report.message);
    CHECK(pre_volta.error() == cudaSuccess);
    CHECK(d_out.download() == expect);

    // lockstep: the same values, and the race a Volta or later GPU may show is reported.
    const Run lockstep = run_in(simt::Mode::lockstep, launch);
    CHECK(d_out.download() == expect);
    CHECK(lockstep.error() == cudaErrorLaunchFailure);
    CHECK(lockstep.race());

    // its: reported too.
    const Run its = run_in(simt::Mode::its, launch, rng());
    CHECK(its.race());
}

// Each lane stamps the order of its steps through one atomic counter (an atomic is one warp
// instruction here), at four places: before a branch, in its side of the branch, after the
// join, and after a loop whose trip count depends on the lane.
constexpr int kStamps = 4 + 8;

__global__ void stamp_order(int* clock, int* stamps) {
    const int lane = threadIdx.x;
    int* mine = stamps + lane * kStamps;
    mine[0] = atomicAdd(clock, 1);
    if (lane % 3 == 0) {
        mine[1] = atomicAdd(clock, 1);
    } else {
        mine[kStamps - 1] = lane;                // (the sides differ, so no compiler merges them)
        mine[1] = atomicAdd(clock, 1) + 1000000; // marks the else side
    }
    mine[2] = atomicAdd(clock, 1);
    for (int k = 0; k < lane % 5; ++k) {
        if (k == 1 && lane % 2 == 0) continue;
        mine[4 + k] = atomicAdd(clock, 1);
    }
    mine[3] = atomicAdd(clock, 1);
}

TEST_CASE("lockstep: lanes on both sides of a branch meet again where it joins; loops too") {
    const int lanes = 32;
    DeviceVector<int> clock(std::vector<int>{0});
    DeviceVector<int> stamps(std::vector<int>(lanes * kStamps, -1));
    const Run r = run_in(simt::Mode::lockstep,
                         [&] { stamp_order<<<1, lanes>>>(clock.data(), stamps.data()); });
    INFO("report: " << r.report.message);
    REQUIRE(r.error() == cudaSuccess);
    const std::vector<int> s = stamps.download();
    auto at = [&](int lane, int k) { return s[lane * kStamps + k]; };
    int before_max = 0, then_max = 0, else_min = 1 << 30, else_max = 0, join_min = 1 << 30,
        join_max = 0, after_loop_min = 1 << 30;
    for (int l = 0; l < lanes; ++l) {
        before_max = std::max(before_max, at(l, 0));
        if (at(l, 1) >= 1000000) {
            else_min = std::min(else_min, at(l, 1) - 1000000);
            else_max = std::max(else_max, at(l, 1) - 1000000);
        } else {
            then_max = std::max(then_max, at(l, 1));
        }
        join_min = std::min(join_min, at(l, 2));
        join_max = std::max(join_max, at(l, 2));
        after_loop_min = std::min(after_loop_min, at(l, 3));
    }
    // One side runs whole, then the other, and only then the statement after the branch.
    CHECK(before_max < then_max);
    CHECK(then_max < else_min);
    CHECK(else_max < join_min);
    // Iteration k of every lane still looping comes before iteration k + 1 of any lane (a lane
    // that skips iteration 1 with `continue` waits at the loop's test); after the loop, all go on
    // together.
    for (int k = 0; k + 1 < 4; ++k) {
        int this_max = -1, next_min = 1 << 30;
        for (int l = 0; l < lanes; ++l) {
            if (k < l % 5 && at(l, 4 + k) >= 0) this_max = std::max(this_max, at(l, 4 + k));
            if (k + 1 < l % 5 && at(l, 5 + k) >= 0) next_min = std::min(next_min, at(l, 5 + k));
        }
        CAPTURE(k);
        CHECK(join_max < next_min);
        CHECK(this_max < next_min);
    }
    for (int l = 0; l < lanes; ++l)
        for (int k = 0; k < 4; ++k)
            if (at(l, 4 + k) >= 0) CHECK(at(l, 4 + k) < after_loop_min);
}

// Lab 01's classic mistake: Hillis-Steele in one buffer, no barrier between a step's reads and
// writes. Within one warp, lockstep happens to give the right sums (every lane reads before any
// writes); it is still a race on every GPU the labs target, so it is reported in every mode but
// the explicit pre-volta one, traces included.
__global__ void single_buffer_scan(const int* in, int* out) {
    __shared__ int s[32];
    const int t = threadIdx.x;
    s[t] = in[t];
    __syncthreads();
    for (int offset = 1; offset < 32; offset *= 2) {
        if (t >= offset) s[t] += s[t - offset];
        __syncthreads();
    }
    out[t] = s[t];
}

TEST_CASE("checks: a race between lanes of a warp is reported in every mode, traces included") {
    std::vector<int> in(32);
    std::mt19937 rng(std::random_device{}());
    for (int& v : in) v = static_cast<int>(rng() % 100);
    DeviceVector<int> d_in(in), d_out(32);
    auto launch = [&] { single_buffer_scan<<<1, 32>>>(d_in.data(), d_out.data()); };
    CHECK(run_in(simt::Mode::its, launch).race());
    CHECK(run_in(simt::Mode::lockstep, launch).race());
    const Run pre_volta = run_in(simt::Mode::pre_volta, launch);
    CHECK_FALSE(pre_volta.race());
    CHECK(pre_volta.error() == cudaSuccess);

    // Recorded (a trace runs the launch in lockstep): the finding is still made.
    const Run traced = run_in(simt::Mode::its, [&] {
        simt::start_tracing({.blocks = {}, .max_instructions = 1u << 16});
        launch();
        cudaDeviceSynchronize();
        (void)simt::stop_tracing();
    });
    CHECK(traced.race());
}

// A spin on a flag that a later lane of the same warp sets hangs a pre-Volta GPU: the spinning
// lanes hold the warp, and the lane that would set the flag never runs. Lockstep reports it as
// the deadlock it is; `its` runs it.
__global__ void wait_for_lane_31(volatile int* flag, int* out) {
    const int lane = threadIdx.x;
    if (lane < 31) {
        while (*flag == 0) {
        }
        out[lane] = 1;
    } else {
        *flag = 1;
        out[lane] = 1;
    }
}

TEST_CASE("lockstep: a lane waiting on a later lane of its warp deadlocks, as before Volta") {
    DeviceVector<int> flag(std::vector<int>{0}), out(32);
    const Run lockstep =
        run_in(simt::Mode::lockstep, [&] { wait_for_lane_31<<<1, 32>>>(flag.data(), out.data()); });
    CHECK(lockstep.report.kind == simt::FaultKind::deadlock);
    DeviceVector<int> fresh_flag(std::vector<int>{0});
    const Run its = run_in(simt::Mode::its,
                           [&] { wait_for_lane_31<<<1, 32>>>(fresh_flag.data(), out.data()); });
    INFO("its report: " << its.report.message);
    CHECK(its.error() == cudaSuccess);
}

} // namespace
