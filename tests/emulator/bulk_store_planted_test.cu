// The mistakes bulk stores (cuda::ptx::cp_async_bulk from shared to global memory) invite,
// planted in one kernel, each reported with its lines (marked `// BUG: name`) under several
// schedules: a shared-memory write without fence.proxy.async before the store, a rewrite of the
// store's source before its wait_group_read, the thread exiting with a store nobody waited for,
// and a misaligned or mis-sized store; and the correct kernel, with the fence in each writing
// thread or in the issuing thread after the barrier, clean under every schedule. simt backend
// only (tests/emulator/bulk_store_test.cu runs the correct kernels on both backends).
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

constexpr int kTile = 64; // ints per tile: one per thread
constexpr std::uint32_t kBytes = kTile * sizeof(int);

enum Mistake : int {
    none,
    fence_in_issuer, // correct too: __syncthreads(), then the issuing thread's fence
    no_fence,
    rewrite_before_read, // no wait_group_read before the buffer is written again
    no_barrier_after_wait,
    exit_without_wait,
    misaligned,
    mis_sized,
    read_before_wait, // another thread reads the destination before the issuer's wait_group
    handoff_no_fence, // handoff(): the writers arrive on an mbarrier without the fence
    refill_early      // refill(): a bulk copy refills the stage before the store read it
};

// Each tile: the threads write it into `buf` (plus one), fence, meet, and thread 0 stores it.
__global__ void store_tiles(const int* in, int* out, int tiles, int mistake) {
    __shared__ alignas(16) int buf[kTile];
    for (int t = 0; t < tiles; ++t) {
        // The store of the tile before has read buf (not waited for: the mistake).
        if (threadIdx.x == 0 && mistake != rewrite_before_read)
            ptx::cp_async_bulk_wait_group_read(ptx::n32_t<0>());
        if (mistake != no_barrier_after_wait) __syncthreads();
        // BUG: smem_write
        buf[threadIdx.x] = in[t * kTile + threadIdx.x] + 1;
        if (mistake != no_fence && mistake != fence_in_issuer)
            ptx::fence_proxy_async(ptx::space_shared);
        __syncthreads();
        if (threadIdx.x == 0) {
            if (mistake == fence_in_issuer) ptx::fence_proxy_async(ptx::space_shared);
            const std::uint32_t bytes = mistake == mis_sized ? kBytes - 4 : kBytes;
            int* to = out + t * kTile + (mistake == misaligned ? 1 : 0);
            // BUG: bulk_store
            ptx::cp_async_bulk(ptx::space_global, ptx::space_shared, to, buf, bytes);
            ptx::cp_async_bulk_commit_group();
        }
    }
    if (threadIdx.x == 0 && mistake != exit_without_wait)
        ptx::cp_async_bulk_wait_group(ptx::n32_t<0>());
    // BUG: destination_read
    if (mistake == read_before_wait && threadIdx.x == 1) out[tiles * kTile] = out[0];
}

void wait_for(std::uint64_t* barrier, unsigned parity) {
    while (!ptx::mbarrier_try_wait_parity(barrier, parity)) {
    }
}

// Warp 1 writes each tile into `stage`, fences and arrives on `full`; lane 0 of warp 0 waits for
// that phase, stores the stage, waits until the store has read it and arrives on `empty`, which
// warp 1 waits for before it writes the next tile (lab 08's style: mbarriers, no __syncthreads()).
__global__ void handoff(const int* in, int* out, int tiles, int mistake) {
    __shared__ alignas(16) int stage[32];
    __shared__ std::uint64_t full, empty;
    if (threadIdx.x == 0) {
        ptx::mbarrier_init(&full, 32);
        ptx::mbarrier_init(&empty, 1);
    }
    __syncthreads();
    if (threadIdx.x < 32) {
        if (threadIdx.x != 0) return;
        for (int t = 0; t < tiles; ++t) {
            wait_for(&full, t & 1);
            // BUG: handoff_store
            ptx::cp_async_bulk(ptx::space_global, ptx::space_shared, out + t * 32, stage,
                               32 * sizeof(int));
            ptx::cp_async_bulk_commit_group();
            ptx::cp_async_bulk_wait_group_read(ptx::n32_t<0>());
            ptx::mbarrier_arrive(&empty);
        }
        ptx::cp_async_bulk_wait_group(ptx::n32_t<0>());
        return;
    }
    const int lane = static_cast<int>(threadIdx.x) - 32;
    for (int t = 0; t < tiles; ++t) {
        if (t > 0) wait_for(&empty, (t - 1) & 1);
        // BUG: handoff_write
        stage[lane] = in[t * 32 + lane] + 1;
        if (mistake != handoff_no_fence) ptx::fence_proxy_async(ptx::space_shared);
        ptx::mbarrier_arrive(&full);
    }
}

// One thread copies tiles through one stage: a bulk copy in, a bulk store out, and (unless the
// mistake) a wait until the store has read the stage before the next copy refills it.
__global__ void refill(const int* in, int* out, int tiles, int mistake) {
    __shared__ alignas(16) int stage[kTile];
    __shared__ std::uint64_t full;
    if (threadIdx.x != 0) return;
    ptx::mbarrier_init(&full, 1);
    for (int t = 0; t < tiles; ++t) {
        if (t > 0 && mistake != refill_early) ptx::cp_async_bulk_wait_group_read(ptx::n32_t<0>());
        ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &full,
                                       kBytes);
        // BUG: refill_load
        ptx::cp_async_bulk(ptx::space_shared, ptx::space_global, stage, in + t * kTile, kBytes,
                           &full);
        wait_for(&full, t & 1);
        // BUG: refill_store
        ptx::cp_async_bulk(ptx::space_global, ptx::space_shared, out + t * kTile, stage, kBytes);
        ptx::cp_async_bulk_commit_group();
    }
    ptx::cp_async_bulk_wait_group(ptx::n32_t<0>());
}

struct Run {
    std::vector<int> in, out;
};

enum class Kernel { store_tiles, handoff, refill };

Run run_tiles(int tiles, Mistake mistake, Kernel kernel = Kernel::store_tiles) {
    Run run;
    std::mt19937 random(std::random_device{}());
    const int tile = kernel == Kernel::handoff ? 32 : kTile;
    run.in.resize(static_cast<size_t>(tiles) * tile);
    for (int& x : run.in) x = static_cast<int>(random() % 100000);
    DeviceVector<int> in(run.in), out(run.in.size() + 4);
    if (kernel == Kernel::store_tiles)
        store_tiles<<<1, kTile>>>(in.data(), out.data(), tiles, mistake);
    else if (kernel == Kernel::handoff)
        handoff<<<1, 64>>>(in.data(), out.data(), tiles, mistake);
    else
        refill<<<1, 32>>>(in.data(), out.data(), tiles, mistake);
    if (cudaDeviceSynchronize() == cudaSuccess) {
        run.out = out.download();
        run.out.resize(run.in.size());
    }
    return run;
}

struct Schedule {
    simt::Mode mode;
    simt::Dispatch dispatch;
    uint64_t seed;
};
const Schedule kSchedules[] = {{simt::Mode::its, simt::Dispatch::in_order, 1},
                               {simt::Mode::its, simt::Dispatch::shuffled, 4},
                               {simt::Mode::its, simt::Dispatch::in_order, 17},
                               {simt::Mode::lockstep, simt::Dispatch::in_order, 1}};

// The launch under `s`, quietly; its report.
simt::FaultReport under(const Schedule& s, const std::function<void()>& launch) {
    const uint64_t seed = simt::options().seed;
    simt::options().seed = s.seed;
    simt::FaultReport report = run_quietly(launch, s.mode, s.dispatch);
    simt::options().seed = seed;
    return report;
}

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

std::string line_of(const std::string& marker) {
    return "bulk_store_planted_test.cu:" + std::to_string(marker_line(__FILE__, marker));
}

// The finding of `kind` whose text names both marked lines, under every schedule; its text.
void expect_both_lines(simt::FaultKind kind, Mistake mistake, int tiles, const std::string& fix,
                       Kernel kernel = Kernel::store_tiles, const std::string& write = "smem_write",
                       const std::string& store = "bulk_store") {
    for (const Schedule& s : kSchedules) {
        const simt::FaultReport report = under(s, [&] { run_tiles(tiles, mistake, kernel); });
        INFO("mode " << simt::to_string(s.mode) << ", dispatch " << simt::to_string(s.dispatch)
                     << ", seed " << s.seed << "\nreport:\n"
                     << report.message);
        bool found = false;
        for (const simt::Finding& f : report.findings) {
            const std::string text = f.message + "\n" + f.site.to_string();
            if (f.kind == kind && contains(text, line_of(write)) &&
                contains(text, line_of(store)) && contains(text, fix))
                found = true;
        }
        CHECK(found);
    }
}

} // namespace

TEST_CASE("bulk store: the correct kernel runs clean under every schedule, fence in the writers "
          "or in the issuing thread after the barrier") {
    for (const Mistake mistake : {none, fence_in_issuer})
        for (const Schedule& s : kSchedules)
            for (const int tiles : {1, 4}) {
                Run run;
                const simt::FaultReport report = under(s, [&] { run = run_tiles(tiles, mistake); });
                INFO("mistake " << mistake << ", mode " << simt::to_string(s.mode) << ", dispatch "
                                << simt::to_string(s.dispatch) << ", seed " << s.seed
                                << "\nreport:\n"
                                << report.message);
                CHECK(report.findings.empty());
                REQUIRE(run.out.size() == run.in.size());
                for (size_t i = 0; i < run.in.size(); ++i) REQUIRE(run.out[i] == run.in[i] + 1);
            }
}

TEST_CASE("bulk store: handed over through mbarriers with the writers' fences, it runs clean") {
    for (const Kernel kernel : {Kernel::handoff, Kernel::refill})
        for (const Schedule& s : kSchedules)
            for (const int tiles : {1, 5}) {
                Run run;
                const simt::FaultReport report =
                    under(s, [&] { run = run_tiles(tiles, none, kernel); });
                INFO("mode " << simt::to_string(s.mode) << ", dispatch "
                             << simt::to_string(s.dispatch) << ", seed " << s.seed << "\nreport:\n"
                             << report.message);
                CHECK(report.findings.empty());
                REQUIRE(run.out.size() == run.in.size());
                const int plus = kernel == Kernel::handoff ? 1 : 0;
                for (size_t i = 0; i < run.in.size(); ++i) REQUIRE(run.out[i] == run.in[i] + plus);
            }
}

TEST_CASE("bulk store: a shared-memory write without fence.proxy.async is reported, both lines") {
    expect_both_lines(simt::FaultKind::shared_race, no_fence, 3,
                      "no fence.proxy.async between them");
    // Handed over through an mbarrier phase instead of __syncthreads().
    expect_both_lines(simt::FaultKind::shared_race, handoff_no_fence, 3,
                      "no fence.proxy.async between them", Kernel::handoff, "handoff_write",
                      "handoff_store");
}

TEST_CASE("bulk store: rewriting its source before the wait_group_read, both lines") {
    expect_both_lines(simt::FaultKind::shared_race, rewrite_before_read, 3,
                      "cp_async_bulk_wait_group_read");
    // The wait without the barrier after it: the next tile's writes still race the store's read.
    expect_both_lines(simt::FaultKind::shared_race, no_barrier_after_wait, 3,
                      "cp_async_bulk_wait_group_read");
    // A bulk copy into shared memory refills the stage while the store may still read it.
    expect_both_lines(simt::FaultKind::shared_race, refill_early, 3, "could still be reading it",
                      Kernel::refill, "refill_load", "refill_store");
}

TEST_CASE("bulk store: another thread reads the destination before the issuer's wait_group") {
    expect_both_lines(simt::FaultKind::global_race, read_before_wait, 2,
                      "cp_async_bulk_wait_group of its issuing thread", Kernel::store_tiles,
                      "destination_read", "bulk_store");
}

TEST_CASE("bulk store: the thread exits with a store nobody waited for") {
    for (const Schedule& s : kSchedules) {
        const simt::FaultReport report = under(s, [] { run_tiles(2, exit_without_wait); });
        INFO("report:\n" << report.message);
        bool found = false;
        for (const simt::Finding& f : report.findings)
            found = found || (f.kind == simt::FaultKind::shared_race &&
                              contains(f.message, "bulk store still in flight when its thread "
                                                  "exits") &&
                              contains(f.message, line_of("bulk_store")) &&
                              contains(f.message, "cp_async_bulk_wait_group_read"));
        CHECK(found);
    }
}

TEST_CASE("bulk store: a misaligned or mis-sized store is refused with its line") {
    for (const Mistake mistake : {misaligned, mis_sized})
        for (const Schedule& s : kSchedules) {
            const simt::FaultReport report = under(s, [&] { run_tiles(2, mistake); });
            INFO("report:\n" << report.message);
            CHECK(report.kind == simt::FaultKind::misaligned_address);
            CHECK(contains(report.message, "misaligned or mis-sized bulk store"));
            CHECK(contains(report.message, "nonzero multiple of 16 bytes"));
            CHECK(contains(report.message, line_of("bulk_store")));
        }
}
