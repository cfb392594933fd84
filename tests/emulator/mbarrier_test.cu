// Lab 08's mbarriers and bulk copies on the emulator (cuda::ptx, common/simt/src/
// mbarrier_runtime.h): a ring of shared-memory stages that one thread fills with bulk copies and
// two warps consume, run clean, and the mistakes that this style of code invites, each planted
// in the same kernel: the report must name the mistake's line (marked `// BUG: name`) and, for
// a race, the bulk copy's line too. In place (out == in) the copy's read of a tile in global
// memory and the consumers' writes of it are ordered by the phase they wait for, and a write
// that no phase orders is still a race. simt backend only.
#include <doctest/doctest.h>

#include <cuda/ptx>
#include <cuda_runtime.h>

#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "device_vector.h"
#include "planted.h"

namespace {

namespace ptx = cuda::ptx;

constexpr int kStages = 2;
constexpr int kItems = 64; // per stage: one int per consumer thread
constexpr std::uint32_t kBytes = kItems * sizeof(int);
constexpr int kThreads = 32 + kItems; // warp 0: the producer (lane 0); warps 1-2: consumers

constexpr auto release = ptx::sem_release;
constexpr auto cta = ptx::scope_cta;
constexpr auto smem = ptx::space_shared;
constexpr auto gmem = ptx::space_global;

enum Mistake : int {
    none,
    read_before_wait,
    bytes_mismatch,
    refill_before_release,
    wrong_parity,
    store_before_wait
};

// A wait for the wrong parity: a first wait for parity 1 passes at once (as on a GPU), and what
// follows depends on when the copy lands; the emulator lands it at the poll, and the consumers
// then wait for a phase nobody fills (reported as a deadlock at this wait).
__device__ void wait_for_phase(std::uint64_t* barrier, unsigned parity) {
    // BUG: wrong_parity
    while (!ptx::mbarrier_try_wait_parity(barrier, parity)) {
    }
}

// Copies `tiles` tiles of kItems ints from `in` to `out` through the ring (in place if they are
// one array).
__global__ void ring_copy(const int* in, int* out, int tiles, int mistake) {
    __shared__ alignas(16) int stage[kStages][kItems];
    __shared__ std::uint64_t full[kStages];  // the stage's copy has landed
    __shared__ std::uint64_t empty[kStages]; // every consumer has read the stage
    if (threadIdx.x == 0) {
        for (int s = 0; s < kStages; ++s) {
            ptx::mbarrier_init(&full[s], 1);
            ptx::mbarrier_init(&empty[s], kItems);
        }
        ptx::fence_proxy_async(ptx::space_shared);
    }
    __syncthreads();
    if (threadIdx.x < 32) {
        if (threadIdx.x != 0) return;
        for (int t = 0; t < tiles; ++t) {
            const int s = t % kStages;
            const unsigned round = t / kStages;
            // The stage's last copy has landed, but its consumers may still read it.
            std::uint64_t* released = mistake == refill_before_release ? &full[s] : &empty[s];
            if (round > 0) wait_for_phase(released, (round - 1) & 1);
            const std::uint32_t announced = mistake == bytes_mismatch ? 2 * kBytes : kBytes;
            // BUG: bytes_mismatch (announces twice the bytes that the copy delivers)
            ptx::mbarrier_arrive_expect_tx(release, cta, smem, &full[s], announced);
            const int* source = in + t * kItems;
            // BUG: refill_before_release
            ptx::cp_async_bulk(smem, gmem, stage[s], source, kBytes, &full[s]);
        }
        return;
    }
    const int c = static_cast<int>(threadIdx.x) - 32;
    for (int t = 0; t < tiles; ++t) {
        const int s = t % kStages;
        unsigned parity = (t / kStages) & 1;
        if (mistake == wrong_parity) parity ^= 1;
        // In place, the copy of this tile may not have read the element yet: the phases this
        // thread waited for so far (those of the tiles before) do not order it after that read.
        // BUG: store_before_wait
        if (mistake == store_before_wait && t > 0) out[t * kItems + c] = 0;
        if (mistake != read_before_wait || t == 0) wait_for_phase(&full[s], parity);
        // BUG: read_before_wait
        out[t * kItems + c] = stage[s][c];
        ptx::mbarrier_arrive(&empty[s]);
    }
}

struct Run {
    std::vector<int> in, out;
};

Run run_ring(int tiles, Mistake mistake, bool in_place = false) {
    Run run;
    std::mt19937 random(std::random_device{}());
    run.in.resize(static_cast<size_t>(tiles) * kItems);
    for (int& x : run.in) x = static_cast<int>(random());
    DeviceVector<int> in(run.in), out(in_place ? 1 : run.in.size());
    DeviceVector<int>& result = in_place ? in : out;
    ring_copy<<<1, kThreads>>>(in.data(), result.data(), tiles, mistake);
    // After a report the launch's error is sticky: nothing to download then.
    if (cudaDeviceSynchronize() == cudaSuccess) run.out = result.download();
    return run;
}

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

std::string line_of(const std::string& marker) {
    return "mbarrier_test.cu:" + std::to_string(marker_line(__FILE__, marker));
}

} // namespace

TEST_CASE("a ring of bulk copies guarded by mbarriers runs clean and copies every tile") {
    for (const int tiles : {1, 2, 3, 8, 13}) {
        Run run;
        expect_clean("ring_copy", [&] { run = run_ring(tiles, none); });
        CHECK(run.out == run.in);
    }
}

// The copy reads a tile of global memory at its issue; the consumers overwrite those words after
// their wait for the phase the copy completes (lab 08's scan in place): no race.
TEST_CASE("in place, the phase a consumer waited for orders its write after the copy's read") {
    for (const int tiles : {1, 3, 13}) {
        Run run;
        expect_clean("ring_copy in place", [&] { run = run_ring(tiles, none, true); });
        CHECK(run.out == run.in);
    }
}

// The message of the launch's finding of `kind` (it may also hang afterwards, as on a GPU, and
// report that too), which must name the line after the marker `name`.
std::string finding(simt::FaultKind kind, const std::string& name,
                    const std::function<void()>& launch) {
    const simt::FaultReport report = run_quietly(launch);
    INFO("expected " << simt::to_string(kind) << " at " << line_of(name) << "\nreport:\n"
                     << report.message);
    for (const simt::Finding& f : report.findings)
        if (f.kind == kind && contains(f.message + f.site.to_string(), line_of(name)))
            return f.message + "\n  at " + f.site.to_string();
    FAIL("no such finding");
    return {};
}

TEST_CASE("reading a stage before its phase completed: both lines") {
    const std::string message = finding(simt::FaultKind::shared_race, "read_before_wait",
                                        [] { run_ring(6, read_before_wait); });
    // The read and the bulk copy that writes the stage, in whichever order they ran.
    CHECK(contains(message, line_of("refill_before_release")));
    CHECK(contains(message, "mbarrier_try_wait_parity"));
}

TEST_CASE("expected bytes that the copies do not deliver: the barrier and the counts") {
    const std::string message =
        finding(simt::FaultKind::deadlock, "bytes_mismatch", [] { run_ring(3, bytes_mismatch); });
    CHECK(contains(message, "full[0]"));
    CHECK(contains(message, "delivered " + std::to_string(kBytes) + " of the " +
                                std::to_string(2 * kBytes) + " bytes"));
}

TEST_CASE("refilling a stage before its consumers released it: both lines and the fix") {
    const std::string message = finding(simt::FaultKind::shared_race, "refill_before_release",
                                        [] { run_ring(12, refill_before_release); });
    CHECK(contains(message, line_of("read_before_wait")));
    // The copy reported at its issue, or the read of the refilled stage: each says what to do.
    CHECK((contains(message, "refills a stage") ||
           contains(message, "writes it when its bytes land")));
}

TEST_CASE("in place, a store before the wait races the copy's read of the word: both lines") {
    const std::string message = finding(simt::FaultKind::global_race, "store_before_wait",
                                        [] { run_ring(6, store_before_wait, true); });
    // The copy, as the earlier read of the word or as the read after the store, in whichever
    // order they ran, and what orders the two.
    CHECK(contains(message, line_of("refill_before_release")));
    CHECK((contains(message, "reads it: write it only after a wait") ||
           contains(message, "this bulk copy reads what was written at")));
}

TEST_CASE("waiting on the wrong parity: the consumers wait for a phase that never comes") {
    // A first wait for parity 1 is legal (the phase before the first counts as completed), so
    // the wait itself is not reported; the consumers, one phase out of step, end in a deadlock
    // whose report names the barrier and the parity they wait for.
    const std::string message =
        finding(simt::FaultKind::deadlock, "wrong_parity", [] { run_ring(4, wrong_parity); });
    CHECK(contains(message, "mbarrier full[0]"));
    CHECK(contains(message, "wait for the phase of parity 1"));
}

TEST_CASE("a bulk copy from an address not 16-byte aligned is refused with its line") {
    const std::string message =
        finding(simt::FaultKind::misaligned_address, "refill_before_release", [] {
            DeviceVector<int> in(kItems), out(kItems);
            ring_copy<<<1, kThreads>>>(in.data() + 1, out.data(), 1, none);
            cudaDeviceSynchronize();
        });
    CHECK(contains(message, "16-byte aligned"));
}

namespace {

// One thread: more arrivals than the barrier expects, or an arrive on a barrier never initialized.
__global__ void barrier_misuse(bool initialize) {
    __shared__ std::uint64_t barrier;
    if (initialize) ptx::mbarrier_init(&barrier, 2);
    // BUG: misuse
    ptx::mbarrier_arrive(&barrier, 3);
}

} // namespace

TEST_CASE("more arrivals than initialized, and an arrive before mbarrier_init, are reported") {
    const std::string more = finding(simt::FaultKind::barrier_divergence, "misuse", [] {
        barrier_misuse<<<1, 1>>>(true);
        cudaDeviceSynchronize();
    });
    CHECK(contains(more, "3 arrivals in phase 0, which expects 2"));
    const std::string uninitialized = finding(simt::FaultKind::uninitialized_read, "misuse", [] {
        barrier_misuse<<<1, 1>>>(false);
        cudaDeviceSynchronize();
    });
    CHECK(contains(uninitialized, "which mbarrier_init has not initialized"));
}
