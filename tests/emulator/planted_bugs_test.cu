// A catalog of planted bugs: small kernels with one classic mistake each. The emulator must report
// each with the right kind of fault and the line of the mistake (the line after its `// BUG:`
// marker, found by reading this file), without crashing the test program.
#include <doctest/doctest.h>

#include <cuda_runtime.h>

#include <fstream>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "device_vector.h"
#include "planted.h"

namespace {

constexpr int N = 64;

// 1. Hillis-Steele in ONE buffer: a thread overwrites what its neighbour still has to read.
__global__ void single_buffer_scan(const int* in, int* out) {
    __shared__ int x[N];
    const int t = threadIdx.x;
    x[t] = in[t];
    __syncthreads();
    for (int offset = 1; offset < N; offset *= 2) {
        int add = t >= offset ? x[t - offset] : 0;
        // BUG: single-buffer
        x[t] += add;
        __syncthreads();
    }
    out[t] = x[t];
}

// 1b. The same in one warp, with the neighbour's value read first and the thread's own last: in
// lockstep every lane reads its neighbour's word, then its own, then writes it, so the word's last
// reader before the write is the writer itself; the neighbour's read must still be remembered.
__global__ void single_buffer_scan_neighbour_first(const int* in, int* out) {
    __shared__ int x[N];
    const int t = threadIdx.x;
    x[t] = in[t];
    __syncthreads();
    for (int offset = 1; offset < static_cast<int>(blockDim.x); offset *= 2) {
        if (t >= offset) {
            const int neighbour = x[t - offset];
            const int mine = x[t];
            // BUG: single-buffer-neighbour-first
            x[t] = neighbour + mine;
        }
        __syncthreads();
    }
    out[t] = x[t];
}

// 2. Blelloch down-sweep without the barrier between its levels.
__global__ void downsweep_missing_barrier(int* out) {
    __shared__ int x[N];
    const int t = threadIdx.x;
    x[t] = t;
    x[t + N / 2] = t;
    __syncthreads();
    for (int d = 1; d < N; d *= 2) {
        int stride = N / d / 2;
        if (t < d) {
            int ai = stride * (2 * t + 1) - 1, bi = stride * (2 * t + 2) - 1;
            int keep = x[ai];
            // BUG: downsweep-no-barrier
            x[ai] = x[bi];
            x[bi] += keep;
        }
        // (the __syncthreads() that belongs here is missing)
    }
    __syncthreads();
    out[t] = x[t];
}

// 3. A barrier inside a branch that only some threads take.
__global__ void barrier_in_branch(int* out) {
    __shared__ int x[N];
    x[threadIdx.x] = 1;
    if (threadIdx.x < N / 2) {
        // BUG: barrier-in-branch
        __syncthreads();
    }
    out[threadIdx.x] = x[threadIdx.x];
}

// 4. Off by one: the last thread indexes one past the shared array.
__global__ void off_by_one_shared(int* out) {
    __shared__ int x[N];
    x[threadIdx.x] = 1;
    __syncthreads();
    // BUG: off-by-one
    out[threadIdx.x] = x[threadIdx.x + 1];
}

// 5. Only even slots are loaded; odd ones are read anyway.
__global__ void read_unwritten_slot(const int* in, int* out) {
    __shared__ int x[N];
    const int t = threadIdx.x;
    if (t % 2 == 0) x[t] = in[t];
    __syncthreads();
    // BUG: unwritten-slot
    out[t] = x[t ^ 1];
}

// 6. The 2011 chapter's warp scan without __syncwarp(): races under independent scheduling.
__global__ void warp_scan_without_syncwarp(const int* in, int* out) {
    __shared__ volatile int s[64];
    const int lane = threadIdx.x;
    s[lane] = 0;
    s[lane + 32] = in[lane];
    __syncwarp();
    for (int offset = 1; offset < 32; offset *= 2) {
        // BUG: no-syncwarp
        s[lane + 32] = s[lane + 32] + s[lane + 32 - offset];
    }
    out[lane] = s[lane + 32];
}

// 7. Look-back keyed on blockIdx: waits for a block that may not be resident yet.
__global__ void lookback_on_block_index(volatile int* flags) {
    const int b = blockIdx.x;
    if (threadIdx.x == 0) {
        if (b > 0)
            // BUG: blockidx-lookback
            while (flags[b - 1] == 0) {
            }
        flags[b] = 1;
    }
}

// 8. A host array passed where device memory is expected.
__global__ void copy(const int* in, int* out) {
    // BUG: host-pointer
    out[threadIdx.x] = in[threadIdx.x];
}

// 9. Loaded to shared memory, then a neighbour's value used without a barrier.
__global__ void missing_barrier_after_load(const int* in, int* out) {
    __shared__ int x[N];
    const int t = threadIdx.x;
    x[t] = in[t];
    // BUG: no-barrier-after-load
    out[t] = x[(t + 33) % N];
}

// 10. Threads beyond n return before a barrier the others wait at.
__global__ void early_return(const int* in, int* out, int n) {
    __shared__ int x[N];
    const int t = threadIdx.x;
    if (t >= n) return;
    x[t] = in[t];
    // BUG: early-return
    __syncthreads();
    out[t] = x[n - 1 - t];
}

// 11. No bounds guard: the grid has more threads than elements.
__global__ void unguarded(const int* in, int* out) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    // BUG: unguarded
    out[i] = in[i] * 2;
}

// 13. An int read through a pointer that is not 4-byte aligned.
__global__ void misaligned_read(const char* bytes, int* out) {
    // BUG: misaligned
    out[threadIdx.x] = *reinterpret_cast<const int*>(bytes + 1 + 4 * threadIdx.x);
}

// 14. A shuffle whose mask leaves out the lanes that call it.
__global__ void mask_without_self(int* out) {
    // BUG: mask-without-self
    out[threadIdx.x] = __shfl_down_sync(0x0000ffffu, static_cast<int>(threadIdx.x), 1);
}

// 15. A barrier in a loop whose trip count depends on the thread.
__global__ void barrier_in_uneven_loop(int* out) {
    __shared__ int x[N];
    x[threadIdx.x] = 0;
    for (unsigned i = 0; i < threadIdx.x % 3; ++i) {
        x[threadIdx.x] += 1;
        // BUG: uneven-loop
        __syncthreads();
    }
    out[threadIdx.x] = x[threadIdx.x];
}

// 16. Waiting for a flag that nobody ever sets.
__global__ void wait_for_nothing(volatile int* flag) {
    // BUG: spin-forever
    while (*flag == 0) {
    }
}

// 17. Tree reduction that skips the barrier between levels.
__global__ void reduction_missing_barrier(const int* in, int* out) {
    __shared__ int x[N];
    const int t = threadIdx.x;
    x[t] = in[t];
    __syncthreads();
    for (int half = N / 2; half > 0; half /= 2) {
        // BUG: reduction-no-barrier
        if (t < half) x[t] += x[t + half];
    }
    if (t == 0) *out = x[0];
}

// 18. The exclusive-scan shift that forgets thread 0: it reads x[-1].
__global__ void shift_reads_before_start(const int* in, int* out) {
    __shared__ int x[N];
    x[threadIdx.x] = in[threadIdx.x];
    __syncthreads();
    // BUG: shift-minus-one
    out[threadIdx.x] = x[static_cast<int>(threadIdx.x) - 1];
}

// 19. Two warps write the same shared slots.
__global__ void two_warps_same_slot(int* out) {
    __shared__ int x[32];
    // BUG: two-warps-one-slot
    x[threadIdx.x % 32] = threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = x[threadIdx.x % 32];
}

// 20. An atomic on a host counter.
__global__ void atomic_on_host(int* counter) {
    // BUG: atomic-host
    atomicAdd(counter, 1);
}

// 21. __syncwarp with a mask that leaves out half of the calling lanes.
__global__ void syncwarp_half_mask(int* out) {
    out[threadIdx.x] = 1;
    // BUG: syncwarp-half
    __syncwarp(0x0000ffffu);
}

// 22. A null output pointer.
__global__ void write_through_null(int* out) {
    // BUG: null-pointer
    out[threadIdx.x] = 1;
}

// 23. Dynamic shared memory sized for fewer elements than the kernel uses.
__global__ void dynamic_too_small(int* out) {
    extern __shared__ int buffer[];
    // BUG: dynamic-too-small
    buffer[threadIdx.x] = 1;
    __syncthreads();
    out[threadIdx.x] = buffer[threadIdx.x];
}

// 24. Lanes of one warp at different warp intrinsics with the same full mask.
__global__ void different_intrinsics(int* out) {
    int v;
    if (threadIdx.x % 2 == 0)
        v = __shfl_sync(0xffffffffu, 1, 0);
    else
        // BUG: different-intrinsics
        v = static_cast<int>(__ballot_sync(0xffffffffu, 1));
    out[threadIdx.x] = v;
}

// 25. A broken invariant caught by assert().
__global__ void failing_assert(const int* in) {
    // BUG: assert
    if (in[threadIdx.x] < 0) __trap();
}

// 26. One past the end of the first of two shared arrays: on a GPU the write lands in `second`.
__global__ void write_past_first_of_two(int* out) {
    __shared__ int first[N];
    __shared__ int second[N];
    const int t = threadIdx.x;
    first[t] = t;
    second[t] = -t;
    __syncthreads();
    // BUG: past-first-write
    first[t + 1] = 2 * t;
    __syncthreads();
    out[t] = second[t];
}

// 27. The same overrun as a read: on a GPU the last thread reads second[0].
__global__ void read_past_first_of_two(const int* in, int* out) {
    __shared__ int first[N];
    __shared__ int second[N];
    const int t = threadIdx.x;
    first[t] = in[t];
    second[t] = in[t];
    __syncthreads();
    // BUG: past-first-read
    out[t] = first[t + 1] + second[t];
}

// 28. The shift that forgets thread 0, on the second of two arrays: second[-1] is first[N-1].
__global__ void read_before_second_of_two(const int* in, int* out) {
    __shared__ int first[N];
    __shared__ int second[N];
    const int t = threadIdx.x;
    first[t] = in[t];
    second[t] = in[t];
    __syncthreads();
    // BUG: before-second
    out[t] = second[t - 1] + first[t];
}

// 29. A transpose tile padded to 33 columns, read one column past its row (column 33). Rows 0..30
// read the next row's first element (inside 'tile': not reported); the last row reads past the end.
__global__ void tile_row_overrun(const float* in, float* out, int column) {
    __shared__ float tile[32][33];
    const int t = threadIdx.x;
    for (int r = t; r < 32; r += blockDim.x)
        for (int j = 0; j < 33; ++j) tile[r][j] = in[r * 33 + j];
    __syncthreads();
    // BUG: row-overrun
    out[t] = tile[t][column];
}

// 30. Dynamic shared memory carved into two arrays of n ints; the second one's index runs one
// past its end, which is also the end of the whole buffer.
__global__ void carved_dynamic_overrun(const int* in, int* out, int n) {
    extern __shared__ int smem[];
    int* a = smem;
    int* b = smem + n;
    const int t = threadIdx.x;
    a[t] = in[t];
    b[t] = 0;
    __syncthreads();
    // BUG: carved-overrun
    b[t + 1] = a[t];
    __syncthreads();
    out[t] = b[t];
}

// 31. The same carving, with the FIRST array overrun: a[n] is b[0], inside the buffer, which a
// GPU silently writes. The emulator knows where the carved arrays start (simt::carve).
__global__ void carved_dynamic_first_overrun(const int* in, int* out, int n) {
    extern __shared__ int smem[];
    int* a = smem;
    int* b = smem + n;
    const int t = threadIdx.x;
    b[t] = in[t];
    // BUG: carved-first-overrun
    a[t + 1] = in[t];
    __syncthreads();
    out[t] = a[t] + b[t];
}

// A correct kernel that carves three arrays (of two types), takes addresses one past an array's
// end, and aims a pointer per thread into one of them: nothing to report.
__global__ void carved_dynamic_done_right(const int* in, int* out, int n) {
    extern __shared__ int smem[];
    int* a = smem;
    float* f = reinterpret_cast<float*>(&a[n]);
    int* c = reinterpret_cast<int*>(f + n);
    const int t = threadIdx.x;
    int* mine = a + t; // one per thread: no array's start
    a[t] = in[t];
    f[t] = 0.5f * static_cast<float>(in[t]);
    c[t] = 1;
    __syncthreads();
    const int* end_of_a = &a[n]; // an address, not an access
    out[t] =
        mine[0] + static_cast<int>(2.0f * f[n - 1 - t]) + c[t] + static_cast<int>(end_of_a - a);
}

// 32. Two threads store to one char: a race even though each thread's word holds other chars.
__global__ void two_threads_one_char(int* out) {
    __shared__ char marks[N];
    const int t = threadIdx.x;
    // BUG: two-threads-one-char
    marks[t / 2] = static_cast<char>(t);
    __syncthreads();
    out[t] = marks[t / 2];
}

// 33. Only even chars are stored; a thread reads its odd neighbour, in a word others wrote.
__global__ void read_unwritten_char(const int* in, int* out) {
    __shared__ char marks[N];
    const int t = threadIdx.x;
    if (t % 2 == 0) marks[t] = static_cast<char>(in[t]);
    __syncthreads();
    // BUG: unwritten-char
    out[t] = marks[t ^ 1];
}

// ---------------------------------------------------------------------------------------------

simt::FaultReport expect_report(const Expectation& e, const std::function<void()>& launch,
                                simt::Mode mode = simt::Mode::its,
                                simt::Dispatch dispatch = simt::Dispatch::in_order) {
    return expect_planted_report(__FILE__, e, launch, mode, dispatch);
}

// The report says each of `phrases`.
void expect_saying(const simt::FaultReport& report, std::initializer_list<const char*> phrases) {
    for (const char* phrase : phrases) {
        INFO("expected \"" << phrase << "\" in:\n" << report.message);
        CHECK(report.message.find(phrase) != std::string::npos);
    }
}

using simt::FaultKind;

} // namespace

TEST_CASE("planted bugs: shared-memory races") {
    DeviceVector<int> in(std::vector<int>(N, 1)), out(N);
    expect_report({FaultKind::shared_race, "single-buffer"},
                  [&] { single_buffer_scan<<<1, N>>>(in.data(), out.data()); });
    for (const simt::Mode mode : {simt::Mode::its, simt::Mode::lockstep}) {
        CAPTURE(simt::to_string(mode));
        expect_report(
            {FaultKind::shared_race, "single-buffer-neighbour-first"},
            [&] { single_buffer_scan_neighbour_first<<<1, 32>>>(in.data(), out.data()); }, mode);
    }
    expect_report({FaultKind::shared_race, "downsweep-no-barrier"},
                  [&] { downsweep_missing_barrier<<<1, N / 2>>>(out.data()); });
    expect_report({FaultKind::shared_race, "no-barrier-after-load"},
                  [&] { missing_barrier_after_load<<<1, N>>>(in.data(), out.data()); });
    expect_report({FaultKind::shared_race, "reduction-no-barrier"},
                  [&] { reduction_missing_barrier<<<1, N>>>(in.data(), out.data()); });
    expect_report({FaultKind::shared_race, "two-warps-one-slot"},
                  [&] { two_warps_same_slot<<<1, N>>>(out.data()); });
    expect_report({FaultKind::shared_race, "no-syncwarp"},
                  [&] { warp_scan_without_syncwarp<<<1, 32>>>(in.data(), out.data()); });
    expect_report({FaultKind::shared_race, "two-threads-one-char"},
                  [&] { two_threads_one_char<<<1, N>>>(out.data()); });
}

TEST_CASE("planted bugs: barriers") {
    DeviceVector<int> in(std::vector<int>(N, 1)), out(N);
    expect_report({FaultKind::barrier_divergence, "barrier-in-branch"},
                  [&] { barrier_in_branch<<<1, N>>>(out.data()); });
    expect_report({FaultKind::barrier_divergence, "early-return"},
                  [&] { early_return<<<1, N>>>(in.data(), out.data(), 40); });
    expect_report({FaultKind::barrier_divergence, "uneven-loop"},
                  [&] { barrier_in_uneven_loop<<<1, N>>>(out.data()); });
}

TEST_CASE("planted bugs: out of bounds, uninitialized, misaligned") {
    DeviceVector<int> in(std::vector<int>(N, 1)), out(N), small(100);
    expect_report({FaultKind::illegal_address, "off-by-one"},
                  [&] { off_by_one_shared<<<1, N>>>(out.data()); });
    expect_report({FaultKind::illegal_address, "shift-minus-one"},
                  [&] { shift_reads_before_start<<<1, N>>>(in.data(), out.data()); });
    expect_report({FaultKind::uninitialized_read, "unwritten-slot"},
                  [&] { read_unwritten_slot<<<1, N>>>(in.data(), out.data()); });
    expect_saying(expect_report({FaultKind::uninitialized_read, "unwritten-char"},
                                [&] { read_unwritten_char<<<1, N>>>(in.data(), out.data()); }),
                  {"uninitialized shared memory read: marks["});
    expect_report({FaultKind::illegal_address, "unguarded"},
                  [&] { unguarded<<<2, 64>>>(small.data(), small.data()); });
    expect_report({FaultKind::illegal_address, "dynamic-too-small"},
                  [&] { dynamic_too_small<<<1, N, N * 2>>>(out.data()); });
    DeviceVector<char> bytes(1024);
    expect_report({FaultKind::misaligned_address, "misaligned"},
                  [&] { misaligned_read<<<1, 32>>>(bytes.data(), out.data()); });
}

TEST_CASE("planted bugs: bad pointers") {
    DeviceVector<int> out(N);
    std::vector<int> host(N, 1);
    expect_report({FaultKind::illegal_address, "host-pointer"},
                  [&] { copy<<<1, N>>>(host.data(), out.data()); });
    int host_counter = 0;
    expect_report({FaultKind::illegal_address, "atomic-host"},
                  [&] { atomic_on_host<<<1, 32>>>(&host_counter); });
    expect_report({FaultKind::illegal_address, "null-pointer"},
                  [&] { write_through_null<<<1, 32>>>(nullptr); });
    // Use after free: the allocation is gone by the time the kernel runs.
    int* freed = nullptr;
    REQUIRE(cudaMalloc(&freed, N * sizeof(int)) == cudaSuccess);
    REQUIRE(cudaFree(freed) == cudaSuccess);
    expect_report({FaultKind::illegal_address, "host-pointer"},
                  [&] { copy<<<1, N>>>(out.data(), freed); });
}

TEST_CASE("planted bugs: warps, deadlocks, asserts") {
    DeviceVector<int> out(N), flags(std::vector<int>(256, 0));
    expect_report({FaultKind::warp_mask, "mask-without-self"},
                  [&] { mask_without_self<<<1, 32>>>(out.data()); });
    expect_report({FaultKind::warp_mask, "syncwarp-half"},
                  [&] { syncwarp_half_mask<<<1, 32>>>(out.data()); });
    expect_report({FaultKind::warp_mask, "different-intrinsics"},
                  [&] { different_intrinsics<<<1, 32>>>(out.data()); });
    expect_report({FaultKind::deadlock, "spin-forever"},
                  [&] { wait_for_nothing<<<1, 32>>>(flags.data()); });
    expect_report(
        {FaultKind::deadlock, "blockidx-lookback"},
        [&] { lookback_on_block_index<<<256, 256>>>(flags.data()); }, simt::Mode::its,
        simt::Dispatch::shuffled);
    DeviceVector<int> negative(std::vector<int>(32, -1));
    expect_report({FaultKind::trap, "assert"}, [&] { failing_assert<<<1, 32>>>(negative.data()); });
}

TEST_CASE("planted bugs: an index past one __shared__ variable is out of bounds, not the next") {
    DeviceVector<int> in(std::vector<int>(N, 3)), out(N);
    for (const simt::Mode mode : {simt::Mode::its, simt::Mode::lockstep}) {
        CAPTURE(simt::to_string(mode));
        expect_saying(
            expect_report(
                {FaultKind::illegal_address, "past-first-write"},
                [&] { write_past_first_of_two<<<1, N>>>(out.data()); }, mode),
            {"write of 4 bytes, 4 bytes past the end of 'first' (256 bytes: int[64]), at first[64]",
             "thread (63,0,0) of block (0,0,0)"});
        expect_saying(
            expect_report(
                {FaultKind::illegal_address, "past-first-read"},
                [&] { read_past_first_of_two<<<1, N>>>(in.data(), out.data()); }, mode),
            {"read of 4 bytes, 4 bytes past the end of 'first' (256 bytes: int[64]), at first[64]",
             "thread (63,0,0)"});
        expect_saying(expect_report(
                          {FaultKind::illegal_address, "before-second"},
                          [&] { read_before_second_of_two<<<1, N>>>(in.data(), out.data()); },
                          mode),
                      {"4 bytes before the start of 'second' (256 bytes: int[64]), at second[-1]",
                       "thread (0,0,0)"});
    }
    // Bounds are checked with the race checks off, too.
    const bool checks = simt::options().checks;
    simt::options().checks = false;
    expect_saying(expect_report({FaultKind::illegal_address, "past-first-write"},
                                [&] { write_past_first_of_two<<<1, N>>>(out.data()); }),
                  {"4 bytes past the end of 'first' (256 bytes: int[64]), at first[64]"});
    simt::options().checks = checks;
}

TEST_CASE("planted bugs: a row overrun inside a 2-D __shared__ array is caught at its last row") {
    std::vector<float> values(32 * 33);
    std::mt19937 rng(std::random_device{}());
    for (float& v : values) v = static_cast<float>(rng() % 1000);
    DeviceVector<float> in(values), out(32);
    expect_saying(expect_report({FaultKind::illegal_address, "row-overrun"},
                                [&] { tile_row_overrun<<<1, 32>>>(in.data(), out.data(), 33); }),
                  {"4 bytes past the end of 'tile' (4224 bytes: float[32][33]), at tile[32][0]",
                   "thread (31,0,0)"});
    // Rows 0..30 alone: tile[t][33] is tile[t + 1][0], inside the variable. C++ calls the index
    // undefined, a GPU reads the next row, and so does the emulator, without a report: it checks
    // the bounds of variables, not of rows.
    const simt::FaultReport report =
        run_quietly([&] { tile_row_overrun<<<1, 31>>>(in.data(), out.data(), 33); });
    CHECK(report.kind == FaultKind::none);
    const std::vector<float> got = out.download();
    for (int t = 0; t < 31; ++t) CHECK(got[t] == values[(t + 1) * 33]);
}

TEST_CASE("planted bugs: dynamic shared memory carved into two arrays") {
    const int n = 64;
    DeviceVector<int> in(std::vector<int>(n, 5)), out(n);
    const size_t bytes = 2 * n * sizeof(int);
    // Past the end of the second array, which is the end of the whole buffer.
    expect_saying(
        expect_report({FaultKind::illegal_address, "carved-overrun"},
                      [&] { carved_dynamic_overrun<<<1, n, bytes>>>(in.data(), out.data(), n); }),
        {"out-of-bounds shared memory access through 'b' at index 64: 4 bytes past the end of "
         "'b', which is carved out of the dynamic shared memory at bytes 256 to 512 (the end of "
         "the 512 bytes given at launch)"});
    // No dynamic shared memory at all.
    expect_saying(expect_report({FaultKind::illegal_address, "dynamic-too-small"},
                                [&] { dynamic_too_small<<<1, N, 0>>>(out.data()); }),
                  {"4 bytes past the end of the dynamic shared memory (0 bytes given at launch)"});
    // The first array run into the second: out of bounds of the first, in every mode.
    for (const simt::Mode mode : {simt::Mode::its, simt::Mode::lockstep, simt::Mode::pre_volta}) {
        expect_saying(
            expect_report(
                {FaultKind::illegal_address, "carved-first-overrun"},
                [&] { carved_dynamic_first_overrun<<<1, n, bytes>>>(in.data(), out.data(), n); },
                mode),
            {"out-of-bounds shared memory access through 'a' at index 64: 4 bytes past the end of "
             "'a', which is carved out of the dynamic shared memory at bytes 0 to 256 (where 'b' "
             "starts); on a GPU it would hit 'b'"});
    }
    // Carved right: no report, the right values.
    std::vector<int> values(n);
    for (int t = 0; t < n; ++t) values[t] = 3 * t;
    DeviceVector<int> ramp(values), result(n);
    expect_clean("three arrays carved out of dynamic shared memory", [&] {
        carved_dynamic_done_right<<<1, n, 3 * n * 4>>>(ramp.data(), result.data(), n);
    });
    const std::vector<int> got = result.download();
    for (int t = 0; t < n; ++t) CHECK(got[t] == values[t] + values[n - 1 - t] + 1 + n);
}
