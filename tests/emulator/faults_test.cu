// What the emulator must catch and report instead of crashing or hanging: deadlocks, barrier
// divergence, illegal addresses, warp mask errors, device asserts, bad launches; plus the
// scheduling modes (seeded reproducibility, `its` exposing a missing __syncwarp, shuffled
// dispatch). simt backend only: a GPU would hang or report these differently.
#include <doctest/doctest.h>

#include <cuda_runtime.h>

#undef NDEBUG // the assert test needs assert()
#include <cassert>
#include <random>
#include <string>
#include <vector>

#include "planted.h"
#include "planted_in_header.cuh"
#include "device_vector.h"
#include "simt/options.h"
#include "simt/report.h"

namespace {

// Runs a launch with the emulator's reports silenced and returns the fault it produced.
template <class F>
simt::FaultReport run_expecting_fault(F launch) {
    simt::reset_device();
    const bool loud = simt::options().report_to_stderr;
    simt::options().report_to_stderr = false;
    launch();
    simt::options().report_to_stderr = loud;
    simt::FaultReport report = simt::last_fault();
    simt::reset_device();
    return report;
}

struct ModeScope {
    simt::Options saved = simt::options();
    ModeScope(simt::Mode mode, uint64_t seed, simt::Dispatch dispatch = simt::Dispatch::in_order,
              bool checks = true) {
        simt::options().mode = mode;
        simt::options().seed = seed;
        simt::options().dispatch = dispatch;
        simt::options().checks = checks;
    }
    ~ModeScope() { simt::options() = saved; }
};

__global__ void wait_forever(volatile int* flag) {
    while (*flag == 0) {
    }
}

__global__ void mismatched_sync(int* out) {
    if (threadIdx.x < 16) {
        out[threadIdx.x] = __shfl_sync(0xffffffffu, static_cast<int>(threadIdx.x), 0);
    } else {
        __syncthreads();
    }
}

__global__ void early_return_before_barrier(int* out, int n) {
    __shared__ int tile[64];
    const int t = threadIdx.x;
    if (t >= n) return; // the classic bug: these threads never reach the barrier below
    tile[t] = t;
    __syncthreads();
    out[t] = tile[(t + 1) % n];
}

__global__ void barrier_in_branch(int* out) {
    if (threadIdx.x % 2 == 0) {
        __syncthreads();
        out[threadIdx.x] = 1;
    } else {
        out[threadIdx.x] = 2;
        __syncthreads();
    }
}

__global__ void read_input(const int* in, int* out) {
    out[threadIdx.x] = in[threadIdx.x];
}

__global__ void read_past_end(const int* in, int* out, int n) {
    out[threadIdx.x] = in[threadIdx.x + n]; // every thread reads n elements too far
}

__global__ void shuffle_without_own_lane(int* out) {
    out[threadIdx.x] = __shfl_sync(0x0000ffffu, 1, 0); // lanes 16..31 are not in the mask
}

__global__ void asserting(const int* in) {
    assert(in[threadIdx.x] >= 0 && "inputs must be non-negative");
}

__global__ void shared_out_of_bounds(int* out) {
    __shared__ int tile[32];
    tile[threadIdx.x] = 1; // 64 threads write a 32-element array
    __syncthreads();
    out[threadIdx.x] = tile[threadIdx.x % 32];
}

// 160 KB of locals per thread: more than the emulator's default 64 KiB stack.
constexpr int kBigLocal = 40000;
__global__ void big_local_array(const int* in, int* out) {
    int scratch[kBigLocal];
    for (int i = 0; i < kBigLocal; ++i) scratch[i] = in[threadIdx.x] + i;
    out[threadIdx.x] = scratch[kBigLocal - 1 - static_cast<int>(threadIdx.x)];
}

__device__ int deep_sum(volatile int* path, int depth) {
    volatile int frame[64]; // keeps each level's frame from being optimized away
    frame[depth % 64] = depth;
    if (depth == 0) return path[0];
    return frame[depth % 64] + deep_sum(path, depth - 1);
}
__global__ void deep_recursion(int* out, int depth) {
    volatile int path[1] = {1};
    out[threadIdx.x] = deep_sum(path, depth);
}

// Recursion through frames of several pages but under 64 KiB. GCC probes such a frame only near
// its bottom on aarch64 (its stack-clash probe interval there is 64 KiB, 4 KiB on x86-64), so
// an overflow's first touch can land a whole frame below the stack: the guard below each fiber
// stack must be that deep, or the touch misses it (platform::stack_guard_bytes()).
template <int Bytes>
__device__ int wide_frame_sum(volatile int* path, int depth) {
    volatile char frame[Bytes];
    frame[depth % Bytes] = static_cast<char>(depth);
    if (depth == 0) return path[0];
    return frame[depth % Bytes] + wide_frame_sum<Bytes>(path, depth - 1);
}
template <int Bytes>
__global__ void wide_frame_recursion(int* out, int depth) {
    volatile int path[1] = {1};
    out[threadIdx.x] = wide_frame_sum<Bytes>(path, depth);
}

// Records the order in which threads reach a point: a fingerprint of the schedule.
__global__ void schedule_fingerprint(int* ticket, int* order) {
    __shared__ int scratch[64];
    const int t = threadIdx.x;
    scratch[t] = t;
    int v = scratch[(t + 7) % 64];
    order[blockIdx.x * 64 + t] = atomicAdd(ticket, 1) + 0 * v;
}

// A warp-level scan in shared memory in the 2011 chapter's style: correct only if the lanes of a
// warp run in lockstep. Without __syncwarp() between the read and the write of each step it
// races under independent thread scheduling.
template <bool kSyncwarp>
__global__ void warp_scan_shared(const int* in, int* out) {
    __shared__ volatile int s[64];
    const int lane = threadIdx.x;
    s[lane] = 0; // 32 zeros of padding below the data
    s[lane + 32] = in[lane];
    if (kSyncwarp) __syncwarp();
    for (int offset = 1; offset < 32; offset *= 2) {
        int t = s[lane + 32] + s[lane + 32 - offset];
        if (kSyncwarp) __syncwarp();
        s[lane + 32] = t;
        if (kSyncwarp) __syncwarp();
    }
    out[lane] = s[lane + 32];
}

__global__ void record_dispatch(int* ticket, int* order) {
    if (threadIdx.x == 0) order[blockIdx.x] = atomicAdd(ticket, 1);
}

__global__ void lookback_by_block_index(volatile int* flags) {
    // Waits on the block with the next lower blockIdx: fine only if blocks are dispatched in
    // blockIdx order, a deadlock otherwise.
    const int b = blockIdx.x;
    if (threadIdx.x == 0) {
        if (b > 0)
            while (flags[b - 1] == 0) {
            }
        flags[b] = 1;
    }
}

// Block 0 waits on one flag, the other blocks on another; nobody writes either.
__global__ void spin_apart(volatile int* flags) {
    if (blockIdx.x == 0) {
        while (flags[0] == 0) {
        }
    } else {
        while (flags[1] == 0) {
        }
    }
}

// Spin-waits whose loop holds a warp intrinsic or a barrier: each one completes, but no thread
// ever writes the flag, so the loop never ends.
__global__ void spin_with_syncwarp(const int* flag) {
    while (flag[0] == 0) {
        __syncwarp();
    }
}

__global__ void spin_with_shuffle(const int* value) {
    int seen = 0;
    while (__shfl_sync(0xffffffffu, seen, 0) == 0) {
        seen = value[threadIdx.x];
    }
}

__global__ void spin_with_barrier(const int* flag) {
    while (flag[0] == 0) {
        __syncthreads();
    }
}

// A struct with 4 bytes of padding after `flag`.
struct FlagValue {
    int flag;
    double value;
};

__global__ void copy_padded_structs(FlagValue* out) {
    __shared__ FlagValue slots[32];
    const int t = threadIdx.x;
    slots[t].flag = t; // field by field: the padding is never written
    slots[t].value = 0.5 * t;
    __syncthreads();
    out[t] = slots[(t + 1) % 32]; // a whole-struct copy reads the padding too
}

__global__ void copy_unwritten_structs(FlagValue* out) {
    __shared__ FlagValue slots[32];
    out[threadIdx.x] = slots[threadIdx.x]; // no thread wrote any of it
}

} // namespace

TEST_CASE("deadlock: a spin on a flag nobody writes is reported, not a hang") {
    DeviceVector<int> flag(std::vector<int>{0});
    auto report = run_expecting_fault([&] { wait_forever<<<2, 32>>>(flag.data()); });
    INFO("report: " << report.message);
    CHECK(report.kind == simt::FaultKind::deadlock);
    CHECK(report.error == cudaErrorLaunchTimeout);
    CHECK(report.message.find("polling") != std::string::npos);
    CHECK(report.message.find("faults_test.cu:") != std::string::npos);
}

TEST_CASE("deadlock: lanes at a warp shuffle and others at __syncthreads, each waiting") {
    DeviceVector<int> out(32);
    auto report = run_expecting_fault([&] { mismatched_sync<<<1, 32>>>(out.data()); });
    INFO("report: " << report.message);
    CHECK(report.kind == simt::FaultKind::deadlock);
    CHECK(report.message.find("__syncthreads") != std::string::npos);
    CHECK(report.message.find("warp intrinsic") != std::string::npos);
}

TEST_CASE("deadlock: a spin whose loop holds a warp intrinsic or a barrier is reported") {
    // Completed intrinsics and barriers are not progress; no write happens in the whole grid.
    simt::Options saved = simt::options();
    simt::options().spin_limit = 1u << 16; // the default (4 M) takes seconds
    DeviceVector<int> flag(std::vector<int>{0}), values(std::vector<int>(64, 0));
    const simt::FaultReport reports[] = {
        run_expecting_fault([&] { spin_with_syncwarp<<<2, 32>>>(flag.data()); }),
        run_expecting_fault([&] { spin_with_shuffle<<<1, 32>>>(values.data()); }),
        run_expecting_fault([&] { spin_with_barrier<<<1, 64>>>(flag.data()); }),
    };
    simt::options() = saved;
    for (const simt::FaultReport& report : reports) {
        INFO("report: " << report.message);
        CHECK(report.kind == simt::FaultKind::deadlock);
        CHECK(report.error == cudaErrorLaunchTimeout);
        CHECK(report.message.find("polling") != std::string::npos);
        CHECK(report.message.find("faults_test.cu:") != std::string::npos);
    }
}

TEST_CASE("checks: a struct copied with its padding is no uninitialized read; unwritten is") {
    DeviceVector<FlagValue> out(32);
    copy_padded_structs<<<1, 32>>>(out.data());
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    const auto copies = out.download();
    for (int t = 0; t < 32; ++t) {
        CHECK(copies[t].flag == (t + 1) % 32);
        CHECK(copies[t].value == 0.5 * ((t + 1) % 32));
    }
    auto report = run_expecting_fault([&] { copy_unwritten_structs<<<1, 32>>>(out.data()); });
    INFO("report: " << report.message);
    CHECK(report.kind == simt::FaultKind::uninitialized_read);
    CHECK(report.message.find("'slots'") != std::string::npos);
}

TEST_CASE("barrier divergence: threads that return early never reach the barrier") {
    DeviceVector<int> out(64);
    auto report =
        run_expecting_fault([&] { early_return_before_barrier<<<1, 64>>>(out.data(), 40); });
    INFO("report: " << report.message);
    CHECK(report.kind == simt::FaultKind::barrier_divergence);
    CHECK(report.message.find("exited") != std::string::npos);
    CHECK(report.message.find("faults_test.cu:") != std::string::npos);
}

TEST_CASE("barrier divergence: two different __syncthreads() in the two sides of a branch") {
    DeviceVector<int> out(64);
    auto report = run_expecting_fault([&] { barrier_in_branch<<<1, 64>>>(out.data()); });
    INFO("report: " << report.message);
    CHECK(report.kind == simt::FaultKind::barrier_divergence);
    CHECK(report.message.find("different __syncthreads") != std::string::npos);
}

TEST_CASE("illegal address: a host pointer passed to a kernel") {
    std::vector<int> host(32, 7);
    DeviceVector<int> out(32);
    auto report = run_expecting_fault([&] { read_input<<<1, 32>>>(host.data(), out.data()); });
    INFO("report: " << report.message);
    CHECK(report.kind == simt::FaultKind::illegal_address);
    CHECK(report.error == cudaErrorIllegalAddress);
    CHECK(report.message.find("not device memory") != std::string::npos);
    CHECK(report.message.find("faults_test.cu:") != std::string::npos);
}

TEST_CASE("illegal address: reading past the end of an allocation names the allocation") {
    DeviceVector<int> in(1000), out(32);
    auto report =
        run_expecting_fault([&] { read_past_end<<<1, 32>>>(in.data(), out.data(), 1000); });
    INFO("report: " << report.message);
    CHECK(report.kind == simt::FaultKind::illegal_address);
    // How far the reporting thread's read reaches beyond the 4000 bytes: thread t reads
    // in[1000 + t], 4 * (t + 1) bytes past the end.
    const size_t by = report.message.find("by thread (");
    REQUIRE(by != std::string::npos);
    const int t = std::stoi(report.message.substr(by + 11));
    CHECK(report.message.find(std::to_string(4 * (t + 1)) +
                              " bytes past the end of a device allocation of 4000 bytes") !=
          std::string::npos);
}

TEST_CASE("illegal address: shared memory out of bounds names the variable") {
    DeviceVector<int> out(64);
    auto report = run_expecting_fault([&] { shared_out_of_bounds<<<1, 64>>>(out.data()); });
    INFO("report: " << report.message);
    CHECK(report.kind == simt::FaultKind::illegal_address);
    CHECK(report.message.find("'tile'") != std::string::npos);
}

// Each thread stores its own bytes: three flags per thread, so neighbouring threads share words
// (NVIDIA's simpleVoteIntrinsics sample does this). No two threads store the same byte.
__global__ void flags_per_thread(bool* flags, char* same_byte) {
    bool* mine = flags + 3 * threadIdx.x;
    mine[0] = threadIdx.x % 2 == 0;
    mine[1] = threadIdx.x % 3 == 0;
    mine[2] = true;
    if (same_byte && threadIdx.x < 2) same_byte[0] = static_cast<char>(threadIdx.x); // a race
}

// Thread 0 of each block stores one byte: its block's, or (`same`) the third one.
__global__ void byte_per_block(char* bytes, bool same) {
    if (threadIdx.x == 0) bytes[same ? 2 : blockIdx.x] = static_cast<char>(blockIdx.x + 1);
}

TEST_CASE("checks: threads storing neighbouring bytes of a global word do not race") {
    DeviceVector<bool> flags(3 * 96);
    DeviceVector<char> shared_byte(4);
    const simt::FaultReport clean =
        run_quietly([&] { flags_per_thread<<<1, 96>>>(flags.data(), nullptr); });
    INFO("report: " << clean.message);
    CHECK(clean.kind == simt::FaultKind::none);
    flags_per_thread<<<1, 96>>>(flags.data(), nullptr);
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    const std::vector<bool> host = [&] {
        std::vector<char> raw(3 * 96);
        REQUIRE(cudaMemcpy(raw.data(), flags.data(), raw.size(), cudaMemcpyDeviceToHost) ==
                cudaSuccess);
        return std::vector<bool>(raw.begin(), raw.end());
    }();
    for (int t = 0; t < 96; ++t) {
        CHECK(host[3 * t] == (t % 2 == 0));
        CHECK(host[3 * t + 1] == (t % 3 == 0));
        CHECK(host[3 * t + 2]);
    }
    // Two threads storing the same byte still race.
    const simt::FaultReport race =
        run_quietly([&] { flags_per_thread<<<1, 96>>>(flags.data(), shared_byte.data()); });
    INFO("report: " << race.message);
    bool found = race.kind == simt::FaultKind::global_race;
    for (const simt::Finding& finding : race.findings)
        found = found || finding.kind == simt::FaultKind::global_race;
    CHECK(found);
}

__global__ void sum_float4(const char* base, int offset_bytes, float* out) {
    const float4 v = *reinterpret_cast<const float4*>(base + offset_bytes);
    *out = v.x + v.y + v.z + v.w;
}

// What the emulator cannot see (docs/emulator.md, the faults' table): g++ reads a float4's
// elements one by one, so a float4 at 8 bytes past a multiple of 16, which faults on a GPU, is
// four aligned loads here. Elements that are misaligned themselves are reported.
TEST_CASE("checks: a misaligned vector load is seen as the element loads g++ makes of it") {
    const std::vector<float> values = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
    DeviceVector<float> floats(values);
    DeviceVector<float> out(1);
    const char* base = reinterpret_cast<const char*>(floats.data());
    const simt::FaultReport split = run_quietly([&] { sum_float4<<<1, 1>>>(base, 8, out.data()); });
    INFO("report: " << split.message);
    CHECK(split.kind == simt::FaultKind::none);
    CHECK(out.download()[0] == 3 + 4 + 5 + 6);
    const simt::FaultReport misaligned =
        run_quietly([&] { sum_float4<<<1, 1>>>(base, 2, out.data()); });
    INFO("report: " << misaligned.message);
    CHECK(misaligned.kind == simt::FaultKind::misaligned_address);
}

__global__ void child_kernel(int* out) {
    out[threadIdx.x] = 1;
}

__global__ void launch_from_device(int* out) {
    if (threadIdx.x == 0) child_kernel<<<1, 32>>>(out);
}

TEST_CASE("unsupported: a kernel launched from device code ends its parent at that line") {
    DeviceVector<int> out(std::vector<int>(32, 0));
    auto report = run_expecting_fault([&] { launch_from_device<<<1, 32>>>(out.data()); });
    INFO("report: " << report.message);
    CHECK(report.kind == simt::FaultKind::unsupported);
    CHECK(report.error == cudaErrorNotSupported);
    CHECK(report.message.find("from device code (dynamic parallelism) is not supported") !=
          std::string::npos);
    CHECK(report.message.find("faults_test.cu:") != std::string::npos);
    CHECK(out.download() == std::vector<int>(32, 0)); // the child never ran
}

__global__ void read_one_byte(const unsigned char* bytes, int at, int* out) {
    *out = bytes[at];
}

TEST_CASE("checks: an uninitialized read of one byte names that byte") {
    DeviceVector<unsigned char> never_written(8);
    DeviceVector<int> out(1);
    const simt::FaultReport report =
        run_quietly([&] { read_one_byte<<<1, 1>>>(never_written.data(), 5, out.data()); });
    INFO("report: " << report.message);
    CHECK(report.kind == simt::FaultKind::uninitialized_global_read);
    CHECK(report.message.find("byte 5 of a device allocation of 8 bytes (1 byte) is read") !=
          std::string::npos);
}

TEST_CASE("checks: blocks storing neighbouring bytes of a global word do not race") {
    DeviceVector<char> bytes(std::vector<char>(4, 0));
    const simt::FaultReport clean =
        run_quietly([&] { byte_per_block<<<4, 32>>>(bytes.data(), false); });
    INFO("report: " << clean.message);
    CHECK(clean.kind == simt::FaultKind::none);
    CHECK(bytes.download() == std::vector<char>{1, 2, 3, 4});
    // Blocks storing the same byte race, and the report names that byte.
    const simt::FaultReport race =
        run_quietly([&] { byte_per_block<<<4, 32>>>(bytes.data(), true); });
    INFO("report: " << race.message);
    bool found = race.kind == simt::FaultKind::global_race;
    for (const simt::Finding& finding : race.findings)
        found = found || finding.kind == simt::FaultKind::global_race;
    CHECK(found);
    CHECK(race.message.find("byte 2 of a device allocation of 4 bytes was written by") !=
          std::string::npos);
}

TEST_CASE("illegal address: a bug in an included header is reported at the header's line") {
    DeviceVector<int> out(32);
    const simt::FaultReport report = expect_planted_report(
        planted_in_header_file(), {simt::FaultKind::illegal_address, "header-past-end"},
        [&] { shared_past_end_in_header<<<1, 32>>>(out.data()); });
    CHECK(report.message.find("past the end of 'tile'") != std::string::npos);
}

TEST_CASE("stack overflow: a large local array is a reported fault, not a crashed process") {
    std::vector<int> host(32);
    for (int i = 0; i < 32; ++i) host[i] = 3 * i + 1;
    DeviceVector<int> in(host), out(32);
    auto report = run_expecting_fault([&] { big_local_array<<<1, 32>>>(in.data(), out.data()); });
    INFO("report: " << report.message);
    CHECK(report.kind == simt::FaultKind::stack_overflow);
    CHECK(report.error == cudaErrorLaunchFailure);
    CHECK(report.message.find("64 KiB of stack") != std::string::npos);
    CHECK(report.message.find("SIMT_STACK_KB") != std::string::npos);
    CHECK(report.message.find("faults_test.cu:") != std::string::npos);
    CHECK(report.message.find("big_local_array(") != std::string::npos);

    // With stacks large enough, the same kernel runs and computes the right values.
    const size_t saved = simt::options().stack_bytes;
    simt::options().stack_bytes = 256 * 1024;
    big_local_array<<<1, 32>>>(in.data(), out.data());
    CHECK(cudaDeviceSynchronize() == cudaSuccess);
    simt::options().stack_bytes = saved;
    const std::vector<int> got = out.download();
    for (int t = 0; t < 32; ++t) CHECK(got[t] == host[t] + kBigLocal - 1 - t);
}

TEST_CASE("stack overflow: runaway recursion is reported; later launches run normally") {
    DeviceVector<int> out(32);
    auto report = run_expecting_fault([&] { deep_recursion<<<1, 32>>>(out.data(), 1 << 20); });
    INFO("report: " << report.message);
    CHECK(report.kind == simt::FaultKind::stack_overflow);
    simt::reset_device();
    deep_recursion<<<1, 32>>>(out.data(), 10);
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    CHECK(out.download() == std::vector<int>(32, 1 + 55));
}

// One frame size: with the default 64 KiB stacks a deep recursion is reported as an overflow in
// the recursing function (its line, from the fault's PC); with larger stacks the same kernel
// computes the right sums.
template <int Bytes>
void check_wide_frames(std::mt19937& rng) {
    INFO("frames of " << Bytes << " bytes");
    DeviceVector<int> out(32);
    const int too_deep = std::uniform_int_distribution<int>(64, 4096)(rng);
    auto report =
        run_expecting_fault([&] { wide_frame_recursion<Bytes><<<1, 32>>>(out.data(), too_deep); });
    INFO("report: " << report.message);
    CHECK(report.kind == simt::FaultKind::stack_overflow);
    CHECK(report.message.find("64 KiB of stack") != std::string::npos);
    CHECK(report.message.find("faults_test.cu:") != std::string::npos);
    CHECK(report.message.find("wide_frame_sum<" + std::to_string(Bytes) + ">(") !=
          std::string::npos);

    // Depths whose sum stays below 128 (the frames hold chars): 1 + (1 + 2 + ... + depth).
    const int depth = std::uniform_int_distribution<int>(0, 14)(rng);
    const size_t saved = simt::options().stack_bytes;
    // Generous: GCC may inline several levels of the recursion into one frame, whose arrays are
    // then all allocated on the first call, whatever the depth.
    simt::options().stack_bytes = 4 << 20;
    wide_frame_recursion<Bytes><<<1, 32>>>(out.data(), depth);
    CHECK(cudaDeviceSynchronize() == cudaSuccess);
    simt::options().stack_bytes = saved;
    CHECK(out.download() == std::vector<int>(32, 1 + depth * (depth + 1) / 2));
}

TEST_CASE("stack overflow: frames larger than a page but under 64 KiB still hit the guard") {
    std::mt19937 rng(std::random_device{}());
    check_wide_frames<8 * 1024>(rng);
    check_wide_frames<24 * 1024>(rng);
    check_wide_frames<60 * 1024>(rng);
}

TEST_CASE("warp mask: a lane calling a *_sync intrinsic with a mask that excludes it") {
    DeviceVector<int> out(32);
    auto report = run_expecting_fault([&] { shuffle_without_own_lane<<<1, 32>>>(out.data()); });
    INFO("report: " << report.message);
    CHECK(report.kind == simt::FaultKind::warp_mask);
    CHECK(report.message.find("does not include the calling lane") != std::string::npos);
}

TEST_CASE("device assert: a failed assert() in a kernel is cudaErrorAssert, sticky") {
    DeviceVector<int> in(std::vector<int>{1, 2, -3, 4});
    simt::reset_device();
    simt::options().report_to_stderr = false;
    asserting<<<1, 4>>>(in.data());
    INFO("report: " << simt::last_fault().message);
    CHECK(simt::last_fault().kind == simt::FaultKind::assertion);
    CHECK(simt::last_fault().message.find("non-negative") != std::string::npos);
    // Sticky: every later call fails with the same error until the device is reset.
    void* p = nullptr;
    CHECK(cudaMalloc(&p, 16) == cudaErrorAssert);
    CHECK(cudaGetLastError() == cudaErrorAssert);
    CHECK(cudaDeviceSynchronize() == cudaErrorAssert);
    simt::options().report_to_stderr = true;
    CHECK(cudaDeviceReset() == cudaSuccess);
    CHECK(cudaMalloc(&p, 16) == cudaSuccess);
    CHECK(cudaFree(p) == cudaSuccess);
}

TEST_CASE("launch checks: bad configurations fail like on a GPU, and are not sticky") {
    DeviceVector<int> out(32);
    simt::reset_device();
    simt::options().report_to_stderr = false;
    read_input<<<1, 2048>>>(out.data(), out.data());
    CHECK(cudaGetLastError() == cudaErrorInvalidConfiguration);
    CHECK(cudaGetLastError() == cudaSuccess); // cleared by reading it
    read_input<<<0, 32>>>(out.data(), out.data());
    CHECK(cudaGetLastError() == cudaErrorInvalidConfiguration);
    read_input<<<1, 32, 100 * 1024>>>(out.data(), out.data());
    CHECK(cudaGetLastError() == cudaErrorInvalidValue);
    simt::options().report_to_stderr = true;
    void* p = nullptr;
    CHECK(cudaMalloc(&p, 16) == cudaSuccess);
    cudaFree(p);
}

TEST_CASE("runtime API: copies to host pointers and past allocations are refused") {
    simt::reset_device();
    simt::options().report_to_stderr = false;
    DeviceVector<int> d(16);
    std::vector<int> h(32, 1), h2(32, 0);
    CHECK(cudaMemcpy(h2.data(), h.data(), 64, cudaMemcpyHostToDevice) == cudaErrorInvalidValue);
    CHECK(cudaMemcpy(d.data(), h.data(), 32 * sizeof(int), cudaMemcpyHostToDevice) ==
          cudaErrorInvalidValue);
    CHECK(cudaMemcpy(h.data(), d.data(), 16 * sizeof(int), cudaMemcpyHostToDevice) ==
          cudaErrorInvalidValue);
    CHECK(cudaFree(h.data()) == cudaErrorInvalidDevicePointer);
    CHECK(cudaMemcpy(d.data(), h.data(), 16 * sizeof(int), cudaMemcpyHostToDevice) == cudaSuccess);
    simt::options().report_to_stderr = true;
    simt::reset_device();
}

TEST_CASE("modes: the same seed gives the same schedule, another seed another one") {
    auto fingerprint = [](uint64_t seed) {
        ModeScope scope(simt::Mode::its, seed, simt::Dispatch::shuffled);
        DeviceVector<int> ticket(std::vector<int>{0}), order(4 * 64);
        schedule_fingerprint<<<4, 64>>>(ticket.data(), order.data());
        REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
        return order.download();
    };
    const auto a = fingerprint(42), b = fingerprint(42), c = fingerprint(43);
    CHECK(a == b);
    CHECK(a != c);
}

TEST_CASE("modes: `its` exposes a warp scan that is missing __syncwarp(), lockstep runs it as "
          "pre-Volta GPUs did") {
    std::vector<int> in(32);
    for (int i = 0; i < 32; ++i) in[i] = i + 1;
    std::vector<int> expect(32);
    for (int i = 0, acc = 0; i < 32; ++i) expect[i] = acc += in[i];
    DeviceVector<int> d_in(in), d_out(32);
    auto run = [&](auto kernel, simt::Mode mode, uint64_t seed) {
        // Values only: the race checker would stop the racy version (see the next test).
        ModeScope scope(mode, seed, simt::Dispatch::in_order, false);
        kernel<<<1, 32>>>(d_in.data(), d_out.data());
        REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
        return d_out.download() == expect;
    };
    CHECK(run(warp_scan_shared<false>, simt::Mode::lockstep, 1));
    int wrong = 0;
    for (uint64_t seed = 1; seed <= 8; ++seed) {
        CHECK(run(warp_scan_shared<true>, simt::Mode::its, seed));
        if (!run(warp_scan_shared<false>, simt::Mode::its, seed)) ++wrong;
    }
    CHECK(wrong > 0);
}

TEST_CASE("checks: the missing __syncwarp() is a reported race in `its` and lockstep, not in "
          "pre-volta") {
    std::vector<int> in(32, 1);
    DeviceVector<int> d_in(in), d_out(32);
    for (simt::Mode mode : {simt::Mode::its, simt::Mode::lockstep}) {
        CAPTURE(simt::to_string(mode));
        ModeScope scope(mode, 3);
        auto report = run_expecting_fault(
            [&] { warp_scan_shared<false><<<1, 32>>>(d_in.data(), d_out.data()); });
        INFO("report: " << report.message);
        // The race can also show first as a read of a word that its lane has not written yet.
        bool race = false;
        for (const simt::Finding& finding : report.findings)
            race = race || finding.kind == simt::FaultKind::shared_race;
        CHECK(race);
        // The report says what it saw (two lanes of one warp), not which fix to apply: the
        // same words come for a single-buffer race, which no __syncwarp() cures.
        CHECK(report.message.find("the two threads are in one warp") != std::string::npos);
        CHECK(report.message.find("faults_test.cu:") != std::string::npos);
    }
    {
        ModeScope scope(simt::Mode::its, 3);
        warp_scan_shared<true><<<1, 32>>>(d_in.data(), d_out.data());
        CHECK(cudaDeviceSynchronize() == cudaSuccess);
    }
    {
        ModeScope scope(simt::Mode::pre_volta, 3);
        warp_scan_shared<false><<<1, 32>>>(d_in.data(), d_out.data());
        CHECK(cudaDeviceSynchronize() == cudaSuccess);
    }
}

TEST_CASE("dispatch: shuffled order differs from blockIdx order and exposes blockIdx look-back") {
    const int blocks = 64;
    {
        ModeScope scope(simt::Mode::lockstep, 7, simt::Dispatch::shuffled);
        DeviceVector<int> ticket(std::vector<int>{0}), order(blocks);
        record_dispatch<<<blocks, 32>>>(ticket.data(), order.data());
        REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
        auto o = order.download();
        bool in_order = true;
        for (int b = 0; b < blocks; ++b) in_order = in_order && o[b] == b;
        CHECK_FALSE(in_order);
    }
    {
        ModeScope scope(simt::Mode::lockstep, 7, simt::Dispatch::in_order);
        DeviceVector<int> flags(std::vector<int>(256, 0));
        lookback_by_block_index<<<256, 256>>>(flags.data());
        CHECK(cudaDeviceSynchronize() == cudaSuccess);
    }
    {
        ModeScope scope(simt::Mode::lockstep, 7, simt::Dispatch::shuffled);
        DeviceVector<int> flags(std::vector<int>(256, 0));
        auto report =
            run_expecting_fault([&] { lookback_by_block_index<<<256, 256>>>(flags.data()); });
        INFO("report: " << report.message);
        CHECK(report.kind == simt::FaultKind::deadlock);
        CHECK(report.message.find("never dispatched") != std::string::npos);
    }
}

TEST_CASE("deadlock: blocks that wait at the same place are reported together, not one by one") {
    // Every resident block's thread 0 spins at the same line: the report names that line once,
    // with the number of blocks and a few of their ids, instead of a paragraph per block.
    ModeScope scope(simt::Mode::lockstep, 7, simt::Dispatch::shuffled);
    DeviceVector<int> flags(std::vector<int>(1024, 0));
    auto report = run_expecting_fault([&] { lookback_by_block_index<<<1024, 32>>>(flags.data()); });
    INFO("report: " << report.message);
    REQUIRE(report.kind == simt::FaultKind::deadlock);
    const std::string& m = report.message;
    auto count = [&](const std::string& text) {
        size_t n = 0;
        for (size_t at = m.find(text); at != std::string::npos; at = m.find(text, at + 1)) ++n;
        return n;
    };
    const std::string resident_marker = "only ";
    const size_t at = m.find(resident_marker);
    REQUIRE(at != std::string::npos);
    const unsigned long resident = std::stoul(m.substr(at + resident_marker.size()));
    CHECK(resident > 3);
    CHECK(m.find("\n  " + std::to_string(resident) + " blocks wait alike: (") != std::string::npos);
    CHECK(m.find(" and " + std::to_string(resident - 3) + " more; in each:") != std::string::npos);
    CHECK(count("1 thread(s) (first 0) keep polling at faults_test.cu:") == 1);
    CHECK(count("\n  block (") == 0);
    CHECK(count("\n") < 8); // the headline, this paragraph, the blocks never dispatched, where
}

TEST_CASE("deadlock: blocks that wait at different places are reported apart") {
    // Block 0 spins at one line, blocks 1-4 at another: two paragraphs, the second for 4 blocks.
    ModeScope scope(simt::Mode::lockstep, 7);
    DeviceVector<int> flags(std::vector<int>{0, 0});
    auto report = run_expecting_fault([&] { spin_apart<<<5, 32>>>(flags.data()); });
    INFO("report: " << report.message);
    REQUIRE(report.kind == simt::FaultKind::deadlock);
    const std::string& m = report.message;
    const size_t first = m.find("\n  block (0,0,0):\n    32 thread(s) (first 0) keep polling at "
                                "faults_test.cu:");
    const size_t rest = m.find("\n  4 blocks wait alike: (1,0,0), (2,0,0), "
                               "(3,0,0) and 1 more; in each:\n    32 thread(s) (first 0) keep "
                               "polling at faults_test.cu:");
    CHECK(first != std::string::npos);
    CHECK(rest != std::string::npos);
    // The two paragraphs name two different lines.
    if (first != std::string::npos && rest != std::string::npos) {
        const std::string marker = "keep polling at faults_test.cu:";
        CHECK(std::stoi(m.substr(m.find(marker, first) + marker.size())) !=
              std::stoi(m.substr(m.find(marker, rest) + marker.size())));
    }
}

#include <scanlab/trace/trace.h>
#include <scanlab/trace/writer.h>

#include <map>
#include <random>
#include <sstream>

#include "simt/checks.h"
#include "simt/trace.h"

namespace {
__global__ void traced_scan(const int* in, int* out) {
    __shared__ int buffer[2][64];
    const int t = threadIdx.x;
    int src = 0;
    buffer[src][t] = in[t];
    __syncthreads();
    for (int offset = 1; offset < 64; offset *= 2) {
        buffer[1 - src][t] =
            t >= offset ? buffer[src][t - offset] + buffer[src][t] : buffer[src][t];
        __syncthreads();
        src = 1 - src;
    }
    out[blockIdx.x * 64 + t] = buffer[src][t];
}

std::string record_text(const std::vector<int>& in, uint64_t seed) {
    ModeScope scope(simt::Mode::its, seed, simt::Dispatch::shuffled);
    DeviceVector<int> d_in(in), d_out(128);
    simt::start_tracing({.blocks = {}, .max_instructions = 1u << 20});
    traced_scan<<<2, 64>>>(d_in.data(), d_out.data());
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    auto traces = simt::stop_tracing();
    REQUIRE(traces.size() == 1);
    std::ostringstream out;
    scanlab::trace::write_trace(traces[0], out);
    return out.str();
}
} // namespace

TEST_CASE("traces: the same seed and input give a byte-identical trace") {
    std::vector<int> in(64);
    for (int i = 0; i < 64; ++i) in[i] = (i * 7) % 10;
    const std::string a = record_text(in, 5), b = record_text(in, 5);
    CHECK(a.size() > 1000);
    CHECK(a == b);
    in[3] += 1; // a different input changes the recorded values
    CHECK(record_text(in, 5) != a);
}

namespace {
// Each block publishes its tile's aggregate (A), then its inclusive prefix (P), look-back style.
__global__ void publish_tiles(unsigned long long* status) {
    if (threadIdx.x == 0) {
        const unsigned long long tile = blockIdx.x;
        atomicExch(&status[tile], (1ull << 32) | (tile + 1));
        __threadfence();
        atomicExch(&status[tile], (2ull << 32) | (100 + tile));
    }
}
} // namespace

TEST_CASE("traces: tile status changes of a look-back scan become block events") {
    DeviceVector<unsigned long long> status(std::vector<unsigned long long>(4, 0));
    simt::trace_tile_status(status.data(), 4, simt::TileStatusLayout::packed64, 5);
    simt::start_tracing({.blocks = {}, .max_instructions = 1u << 16});
    publish_tiles<<<4, 32>>>(status.data());
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    auto traces = simt::stop_tracing();
    simt::clear_tile_status();
    REQUIRE(traces.size() == 1);
    int aggregates = 0, prefixes = 0;
    for (const auto& e : traces[0].block_events)
        if (const auto* c = std::get_if<scanlab::trace::TileFlagChange>(&e.what)) {
            CHECK(c->tile == e.block);
            if (c->flag == scanlab::trace::TileFlag::A) {
                ++aggregates;
                CHECK(c->value.as<int>() == static_cast<int>(c->tile) + 1);
            }
            if (c->flag == scanlab::trace::TileFlag::P) {
                ++prefixes;
                CHECK(c->value.as<int>() == 100 + static_cast<int>(c->tile));
            }
        }
    CHECK(aggregates == 4);
    CHECK(prefixes == 4);
    std::ostringstream out;
    scanlab::trace::write_trace(traces[0], out); // valid by the format's rules
    CHECK(out.str().find("\"flag\"") != std::string::npos);
}

namespace {
// A chained scan of tiles: block b waits (volatile polls) until tile b - 1 has P, then publishes
// its own P: prefix of tile b = 1 + 2 + ... + (b + 1).
__global__ void chain_tiles(unsigned long long* status) {
    if (threadIdx.x == 0) {
        const unsigned tile = blockIdx.x;
        unsigned long long before = 0;
        if (tile > 0) {
            const volatile unsigned long long* watched = &status[tile - 1];
            unsigned long long word = *watched;
            while ((word >> 32) != 2) word = *watched;
            before = word & 0xffffffffull;
        }
        atomicExch(&status[tile], (2ull << 32) | (before + tile + 1));
    }
}
} // namespace

TEST_CASE("traces: reads of tile descriptors become look events, polls counted in one") {
    DeviceVector<unsigned long long> status(std::vector<unsigned long long>(4, 0));
    simt::trace_tile_status(status.data(), 4, simt::TileStatusLayout::packed64, 5);
    simt::start_tracing({.blocks = {0}, .max_instructions = 1u << 16});
    chain_tiles<<<4, 32>>>(status.data());
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    auto traces = simt::stop_tracing();
    simt::clear_tile_status();
    REQUIRE(traces.size() == 1);
    // Per reading block: what its reads found, in order; recorded for unrecorded blocks too.
    std::map<unsigned, std::vector<const scanlab::trace::TileLook*>> looks;
    for (const auto& e : traces[0].block_events)
        if (const auto* look = std::get_if<scanlab::trace::TileLook>(&e.what))
            looks[e.block].push_back(look);
    CHECK(looks.count(0) == 0); // tile 0 reads nothing
    for (unsigned block = 1; block < 4; ++block) {
        REQUIRE(looks.count(block) == 1);
        const auto& reads = looks[block];
        for (const auto* look : reads) CHECK(look->tile == block - 1);
        // X (however many polls) until the predecessor's P, which ends the wait.
        const auto* last = reads.back();
        CHECK(last->flag == scanlab::trace::TileFlag::P);
        CHECK(last->value.as<int>() == static_cast<int>(block * (block + 1) / 2));
        for (std::size_t r = 0; r + 1 < reads.size(); ++r) {
            CHECK(reads[r]->flag == scanlab::trace::TileFlag::X);
            CHECK(reads[r]->value_type == scanlab::trace::ValueType::none);
        }
        CHECK(reads.size() <= 2); // repeated X reads are one event with a count
    }
    std::ostringstream out;
    scanlab::trace::write_trace(traces[0], out); // valid by the format's rules
    CHECK(out.str().find("\"look\"") != std::string::npos);
}

namespace {
// Tagged pairs (8-byte values, lab 07): each of a tile's two words carries the status; block 1
// reads both words of tile 0 until both say P.
__global__ void chain_tagged_pair(unsigned long long* words) {
    if (threadIdx.x != 0) return;
    if (blockIdx.x == 0) {
        const unsigned long long value = 0x123456789ull; // both halves matter
        volatile unsigned long long* pair = words;
        pair[0] = (2ull << 32) | (value & 0xffffffffull);
        pair[1] = (2ull << 32) | (value >> 32);
    } else {
        const volatile unsigned long long* pair = words;
        for (;;) {
            const unsigned long long low = pair[0];
            const unsigned long long high = pair[1];
            if ((low >> 32) == 2 && (high >> 32) == 2) break;
        }
    }
}
} // namespace

TEST_CASE("traces: the two words of a tagged pair read are one look, with the 8-byte value") {
    DeviceVector<unsigned long long> words(std::vector<unsigned long long>(4, 0));
    simt::trace_tile_status(words.data(), 2, simt::TileStatusLayout::tagged_pair64, 7); // i64
    REQUIRE(simt::accept_self_tagged_words(words.data(), 4 * sizeof(unsigned long long)));
    simt::start_tracing({.blocks = {0}, .max_instructions = 1u << 16});
    chain_tagged_pair<<<2, 32>>>(words.data());
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    auto traces = simt::stop_tracing();
    simt::clear_tile_status();
    REQUIRE(traces.size() == 1);
    std::vector<const scanlab::trace::TileLook*> reads;
    for (const auto& e : traces[0].block_events)
        if (const auto* look = std::get_if<scanlab::trace::TileLook>(&e.what)) {
            CHECK(e.block == 1);
            reads.push_back(look);
        }
    REQUIRE(!reads.empty());
    std::uint64_t polls = 0;
    for (const auto* look : reads) {
        CHECK(look->tile == 0);
        polls += look->reads;
    }
    // Every loop turn reads the pair once: as many reads as the loop turned, in at most two
    // events (X while unpublished or torn, then P).
    CHECK(reads.size() <= 2);
    CHECK(reads.back()->flag == scanlab::trace::TileFlag::P);
    CHECK(reads.back()->value.as<long long>() == 0x123456789ll);
    CHECK(polls >= 1);
    std::ostringstream out;
    scanlab::trace::write_trace(traces[0], out);
}

namespace {
struct FlagAndValue {
    int flag;
    int value;
};

// Shared memory of a struct type (as lab 06's flag-value pairs): the trace format names no
// such element type, so its accesses are recorded without values.
__global__ void copy_pairs(const int* in, int* out) {
    __shared__ FlagAndValue pairs[32];
    const int t = threadIdx.x;
    pairs[t] = FlagAndValue{t % 3 == 0, in[t]};
    __syncwarp();
    const FlagAndValue left = pairs[(t + 31) % 32];
    out[t] = left.flag ? left.value : -left.value;
}
} // namespace

TEST_CASE(
    "traces: accesses to shared structs are recorded without values, and the trace is valid") {
    std::vector<int> in(32);
    for (int i = 0; i < 32; ++i) in[i] = i + 1;
    DeviceVector<int> d_in(in), d_out(32);
    simt::start_tracing({.blocks = {}, .max_instructions = 1u << 16});
    copy_pairs<<<1, 32>>>(d_in.data(), d_out.data());
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    auto traces = simt::stop_tracing();
    REQUIRE(traces.size() == 1);
    const auto out = d_out.download();
    for (int t = 0; t < 32; ++t) {
        const int left = (t + 31) % 32;
        CHECK(out[t] == (left % 3 == 0 ? in[left] : -in[left]));
    }
    bool shared_access = false;
    for (const auto& w : traces[0].instructions)
        if (w.space == scanlab::trace::MemorySpace::shared) {
            shared_access = true;
            CHECK(w.value_type == scanlab::trace::ValueType::none);
            for (const auto& lane : w.lanes) CHECK(lane.value == scanlab::trace::ValueBytes{});
        }
    CHECK(shared_access);
    std::ostringstream text;
    CHECK_NOTHROW(scanlab::trace::write_trace(traces[0], text)); // valid by the format's rules
}

// Guard zones lie between a block's shared variables in the emulator's buffer; traces must still
// give each variable the offset a GPU layout gives it (its banks), and the kernel's addresses
// must have the banks that the trace shows.
namespace {
__global__ void three_shared_objects(const int* in, int* out, unsigned* address_banks) {
    extern __shared__ int dynamic_part[];
    __shared__ char pad[20];
    __shared__ int data[32];
    const int t = threadIdx.x;
    if (t < 9) dynamic_part[t] = in[t];
    if (t < 5)
        for (int k = 4 * t; k < 4 * t + 4; ++k) pad[k] = static_cast<char>(k);
    __syncthreads();
    data[t] = in[t] + pad[t % 20] + dynamic_part[t % 9] - in[t % 9];
    __syncthreads();
    out[t] = data[31 - t];
    if (t == 0) {
        address_banks[0] = static_cast<unsigned>(reinterpret_cast<uintptr_t>(dynamic_part) % 128);
        address_banks[1] = static_cast<unsigned>(reinterpret_cast<uintptr_t>(pad) % 128);
        address_banks[2] = static_cast<unsigned>(reinterpret_cast<uintptr_t>(data) % 128);
    }
}
} // namespace

TEST_CASE("traces: shared offsets are those of the layout without guard zones") {
    std::mt19937 rng(std::random_device{}());
    std::vector<int> in(32);
    for (int& v : in) v = static_cast<int>(rng() % 1000) - 500;
    DeviceVector<int> d_in(in), d_out(32);
    DeviceVector<unsigned> d_banks(3);
    const size_t dynamic_bytes = 36; // not a multiple of 16: the next variable is aligned up
    simt::start_tracing({.blocks = {}, .max_instructions = 1u << 16});
    three_shared_objects<<<1, 32, dynamic_bytes>>>(d_in.data(), d_out.data(), d_banks.data());
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    auto traces = simt::stop_tracing();
    REQUIRE(traces.size() == 1);
    const auto& trace = traces[0];
    // Back to back in order of first use, each aligned to 16 bytes: dynamic part, pad, data.
    std::map<std::string, uint64_t> base;
    for (const auto& m : trace.memory)
        if (m.space == scanlab::trace::MemorySpace::shared) base[m.name] = m.base;
    REQUIRE(base.size() == 3);
    const uint64_t pad_base = (dynamic_bytes + 15) / 16 * 16;
    const uint64_t data_base = (pad_base + 20 + 15) / 16 * 16;
    CHECK(base["extern __shared__ (dynamic)"] == 0);
    CHECK(base["pad"] == pad_base);
    CHECK(base["data"] == data_base);
    const auto banks = d_banks.download();
    CHECK(banks[0] == 0);
    CHECK(banks[1] == pad_base % 128);
    CHECK(banks[2] == data_base % 128);
    // The stores to `data` are recorded at the element each lane wrote, with its value.
    bool seen = false;
    for (const auto& w : trace.instructions) {
        if (w.kind != scanlab::trace::AccessKind::store || trace.memory[w.memory].name != "data")
            continue;
        seen = true;
        for (const auto& lane : w.lanes) {
            CHECK(lane.offset == 4 * lane.lane);
            CHECK(lane.value.as<int>() == in[lane.lane] + static_cast<int>(lane.lane % 20));
        }
    }
    CHECK(seen);
    const auto out = d_out.download();
    for (int t = 0; t < 32; ++t) CHECK(out[t] == in[31 - t] + (31 - t) % 20);
}

// The guard zones between shared variables are not the kernel's shared memory: 48 KiB in all
// still fit (semantics_test.cu runs that launch on both backends), 4 bytes more do not.
namespace {
__global__ void shared_over_the_limit(int* out) {
    extern __shared__ int tail[];
    __shared__ int a[4096];
    __shared__ int b[4096];
    __shared__ int c[4096 - 256];
    const int t = threadIdx.x;
    a[t] = b[t] = c[t] = tail[t] = t;
    __syncthreads();
    out[t] = a[t] + b[t] + c[t] + tail[t];
}
} // namespace

TEST_CASE("launch: 4 bytes of shared memory over 48 KiB do not fit") {
    DeviceVector<int> d_out(256);
    const auto fits = run_expecting_fault(
        [&] { shared_over_the_limit<<<1, 256, 256 * sizeof(int)>>>(d_out.data()); });
    CHECK(fits.kind == simt::FaultKind::none);
    const auto over = run_expecting_fault(
        [&] { shared_over_the_limit<<<1, 256, 257 * sizeof(int)>>>(d_out.data()); });
    CHECK(over.error == cudaErrorLaunchOutOfResources);
    CHECK(over.message.find("does not fit") != std::string::npos);
}

// ---- The device heap's misuses ---------------------------------------------------------------

namespace {

// mode 0: past the end; 1: read before any write; 2: use after free; 3: double free; 4: free of
// cudaMalloc memory; 5: free of a pointer into an allocation; 7: two threads write one heap word,
// unordered.
__global__ void heap_misuse(int mode, int* device, int** keep) {
    if (mode == 7) {
        if (threadIdx.x == 0) *keep = static_cast<int*>(malloc(64));
        __syncthreads();
        (*keep)[0] = static_cast<int>(threadIdx.x); // BUG: every thread, no order
        return;
    }
    int* p = static_cast<int*>(malloc(16 * sizeof(int)));
    for (int i = 0; i < 16; ++i) p[i] = i;
    int sink = 0;
    switch (mode) {
    case 0:
        sink = p[16]; // BUG: one past the end
        break;
    case 1: {
        int* fresh = new int[4];
        sink = fresh[2]; // BUG: nothing wrote it
        break;
    }
    case 2:
        free(p);
        sink = p[3]; // BUG: freed
        break;
    case 3:
        free(p);
        free(p); // BUG: twice
        break;
    case 4:
        free(device); // BUG: cudaMalloc's
        break;
    case 5:
        free(p + 4); // BUG: not where the allocation starts
        break;
    }
    *device = sink;
}

} // namespace

TEST_CASE("device heap: misuses of malloc/free and new/delete are reported by name") {
    DeviceVector<int> device(1);
    DeviceVector<int*> keep(1);
    const struct {
        int mode;
        simt::FaultKind kind;
        const char* says;
    } cases[] = {
        {0, simt::FaultKind::illegal_address, "past the end of a device heap allocation of 64"},
        {1, simt::FaultKind::uninitialized_global_read, "device heap allocation of 16 bytes"},
        {2, simt::FaultKind::illegal_address,
         "already freed (free or delete in a kernel: a use "
         "after free)"},
        {3, simt::FaultKind::illegal_address, "a double free"},
        {4, simt::FaultKind::illegal_address, "memory from cudaMalloc"},
        {5, simt::FaultKind::illegal_address, "16 bytes into a device heap allocation"},
        {7, simt::FaultKind::global_race, "device heap allocation of 64 bytes"},
    };
    for (const auto& c : cases) {
        CAPTURE(c.mode);
        auto report = run_expecting_fault(
            [&] { heap_misuse<<<1, 32>>>(c.mode, device.data(), keep.data()); });
        INFO("report: " << report.message);
        CHECK(report.kind == c.kind);
        CHECK(report.message.find(c.says) != std::string::npos);
        CHECK(report.message.find("faults_test.cu:") != std::string::npos);
    }
}

namespace {
__global__ void heap_pointer_out(int** out) {
    *out = static_cast<int*>(malloc(64));
    **out = 1;
}
} // namespace

TEST_CASE("device heap: the runtime's copies and cudaFree refuse heap memory, as on a GPU") {
    simt::reset_device();
    simt::options().report_to_stderr = false;
    DeviceVector<int*> out(1);
    heap_pointer_out<<<1, 1>>>(out.data());
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    int* heap = out.download()[0];
    int host = 0;
    CHECK(cudaMemcpy(&host, heap, sizeof host, cudaMemcpyDeviceToHost) == cudaErrorInvalidValue);
    CHECK(cudaMemset(heap, 0, sizeof(int)) == cudaErrorInvalidValue);
    CHECK(cudaFree(heap) == cudaErrorInvalidDevicePointer);
    // cudaDeviceReset frees the heap: a later kernel's use of what it held is a use after free.
    REQUIRE(cudaDeviceReset() == cudaSuccess);
    DeviceVector<int> sink(1);
    auto report = run_expecting_fault([&] { read_input<<<1, 1>>>(heap, sink.data()); });
    INFO("report: " << report.message);
    CHECK(report.kind == simt::FaultKind::illegal_address);
    CHECK(report.message.find("device heap allocation of 64 bytes that was already freed") !=
          std::string::npos);
    simt::options().report_to_stderr = true;
    simt::reset_device();
}

namespace {
// An atomic whose stored value depends on what shared memory held before anything wrote it.
__global__ void atomic_on_unwritten_shared(int mode, int* out) {
    __shared__ int word;
    int old = 0;
    if (mode == 0) old = atomicAdd(&word, 1);      // BUG: adds to garbage
    if (mode == 1) old = atomicCAS(&word, 0, 1);   // BUG: compares garbage
    if (mode == 2) old = atomicExch(&word, 1) & 0; // stores 1 whatever was there
    __syncthreads();
    out[threadIdx.x] = old + word;
}
} // namespace

TEST_CASE("checks: atomics on unwritten shared memory are uninitialized reads, but atomicExch") {
    DeviceVector<int> out(32);
    for (int mode : {0, 1}) {
        CAPTURE(mode);
        auto report =
            run_expecting_fault([&] { atomic_on_unwritten_shared<<<1, 32>>>(mode, out.data()); });
        INFO("report: " << report.message);
        CHECK(report.kind == simt::FaultKind::uninitialized_read);
        CHECK(report.message.find("'word'") != std::string::npos);
    }
    auto report =
        run_expecting_fault([&] { atomic_on_unwritten_shared<<<1, 32>>>(2, out.data()); });
    INFO("report: " << report.message);
    CHECK(report.kind == simt::FaultKind::none);
}

namespace {
__global__ void graph_kernel(int* out) {
    out[threadIdx.x] = 1;
}
} // namespace

TEST_CASE("CUDA graphs: what the emulator cannot do is refused with its reason") {
    simt::reset_device();
    simt::options().report_to_stderr = false;
    cudaGraph_t graph = nullptr;
    REQUIRE(cudaGraphCreate(&graph, 0) == cudaSuccess);
    cudaGraphNode_t first = nullptr, second = nullptr, node = nullptr;
    // A kernel node whose func the emulator never saw cast to void*.
    DeviceVector<int> out(32);
    int* o = out.data();
    void* args[] = {&o};
    cudaKernelNodeParams params{};
    params.func = nullptr;
    params.gridDim = dim3(1);
    params.blockDim = dim3(32);
    params.kernelParams = args;
    CHECK(cudaGraphAddKernelNode(&node, graph, nullptr, 0, &params) ==
          cudaErrorInvalidDeviceFunction);
    params.func = (void*)graph_kernel;
    void* extra[] = {nullptr};
    params.extra = extra;
    CHECK(cudaGraphAddKernelNode(&node, graph, nullptr, 0, &params) == cudaErrorNotSupported);
    // An edge against the order the nodes were added in.
    REQUIRE(cudaGraphAddEmptyNode(&first, graph, nullptr, 0) == cudaSuccess);
    REQUIRE(cudaGraphAddEmptyNode(&second, graph, nullptr, 0) == cudaSuccess);
    CHECK(cudaGraphAddDependencies(graph, &first, &second, 1) == cudaSuccess);
    CHECK(cudaGraphAddDependencies(graph, &second, &first, 1) == cudaErrorNotSupported);
    cudaGraphEdgeData edge{};
    cudaGraphNode_t third = nullptr;
    REQUIRE(cudaGraphAddEmptyNode(&third, graph, nullptr, 0) == cudaSuccess);
    CHECK(cudaGraphAddDependencies(graph, &second, &third, &edge, 1) == cudaSuccess);
    size_t count = 4;
    cudaGraphNode_t got[4] = {};
    cudaGraphEdgeData got_edges[4];
    REQUIRE(cudaGraphNodeGetDependencies(third, got, got_edges, &count) == cudaSuccess);
    CHECK(count == 1);
    CHECK(got[0] == second);
    edge.to_port = 1; // programmatic ports are not modelled
    CHECK(cudaGraphAddDependencies(graph, &first, &third, &edge, 1) == cudaErrorNotSupported);
    CHECK(cudaGraphDestroy(graph) == cudaSuccess);
    // A synchronization inside a capture invalidates it, as on a GPU.
    cudaStream_t stream = nullptr;
    REQUIRE(cudaStreamCreate(&stream) == cudaSuccess);
    REQUIRE(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal) == cudaSuccess);
    graph_kernel<<<1, 32, 0, stream>>>(out.data());
    {
        cudaGraph_t empty = nullptr;
        cudaGraphExec_t exec = nullptr;
        REQUIRE(cudaGraphCreate(&empty, 0) == cudaSuccess);
        REQUIRE(cudaGraphInstantiate(&exec, empty, 0) == cudaSuccess);
        CHECK(cudaGraphLaunch(exec, stream) == cudaErrorNotSupported); // a child graph node
        CHECK(cudaGraphExecDestroy(exec) == cudaSuccess);
        CHECK(cudaGraphDestroy(empty) == cudaSuccess);
    }
    CHECK(cudaStreamSynchronize(stream) == cudaErrorStreamCaptureUnsupported);
    CHECK(cudaStreamEndCapture(stream, &graph) == cudaErrorStreamCaptureInvalidated);
    CHECK(graph == nullptr);
    CHECK(cudaStreamBeginCapture(nullptr, cudaStreamCaptureModeGlobal) ==
          cudaErrorStreamCaptureUnsupported);
    CHECK(cudaStreamDestroy(stream) == cudaSuccess);
    (void)cudaGetLastError();
    simt::options().report_to_stderr = true;
    simt::reset_device();
}
