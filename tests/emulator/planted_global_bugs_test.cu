// The planted-bug catalog of global memory: the mistakes of multi-block code (labs 04-07) that a
// GPU usually hides. Each kernel has one mistake after its `// BUG:` marker; the emulator must
// report it with the right kind and that line. The correct versions at the end must run with no
// report at all.
#include <doctest/doctest.h>

#include <cuda_runtime.h>
#include <simt/checks.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "device_vector.h"
#include "planted.h"

namespace {

using simt::FaultKind;

constexpr int kThreads = 32;

// Block 0 publishes a value and raises a flag; block 1 waits for the flag and reads the value.
// (The shape of a look-back with separate flag and value words.)
__device__ void wait_for_flag(volatile int* flag) {
    while (*flag == 0) __nanosleep(100);
}

// 1. The writer forgets the fence between the value and the flag.
__global__ void writer_without_fence(int* value, int* flag, int* out) {
    if (threadIdx.x != 0) return;
    if (blockIdx.x == 0) {
        *reinterpret_cast<volatile int*>(value) = 42;
        // BUG: writer-no-fence
        *reinterpret_cast<volatile int*>(flag) = 1;
    } else {
        wait_for_flag(flag);
        __threadfence();
        *out = *reinterpret_cast<volatile int*>(value);
    }
}

// 2. The reader forgets the fence between the flag and the value.
__global__ void reader_without_fence(int* value, int* flag, int* out) {
    if (threadIdx.x != 0) return;
    if (blockIdx.x == 0) {
        *reinterpret_cast<volatile int*>(value) = 42;
        __threadfence();
        *reinterpret_cast<volatile int*>(flag) = 1;
    } else {
        wait_for_flag(flag);
        // BUG: reader-no-fence
        *out = *reinterpret_cast<volatile int*>(value);
    }
}

// 3. A block-scope fence where the reader is another block.
__global__ void block_fence_across_blocks(int* value, int* flag, int* out) {
    if (threadIdx.x != 0) return;
    if (blockIdx.x == 0) {
        *reinterpret_cast<volatile int*>(value) = 42;
        // BUG: block-fence
        __threadfence_block();
        *reinterpret_cast<volatile int*>(flag) = 1;
    } else {
        wait_for_flag(flag);
        __threadfence();
        *out = *reinterpret_cast<volatile int*>(value);
    }
}

// 4. The data is written through a plain pointer and read before the flag says so: the value is
//    read with no flag at all, a plain race between blocks.
__global__ void read_neighbours_output(int* partial, int* out) {
    const int b = blockIdx.x;
    if (threadIdx.x != 0) return;
    if (b == 0) {
        partial[0] = 7;
    } else {
        for (int i = 0; i < 50; ++i) __nanosleep(100); // let block 0 run first
        // BUG: read-other-block
        *out = partial[b - 1] + 1;
    }
}

// 5. A spin on a flag read through a plain pointer (nvcc may keep it in a register forever).
__global__ void plain_spin(int* flag, int* out) {
    if (threadIdx.x != 0) return;
    if (blockIdx.x == 0) {
        for (int i = 0; i < 50; ++i) __nanosleep(100); // the other block starts spinning first
        __threadfence();
        *reinterpret_cast<volatile int*>(flag) = 1;
    } else {
        // BUG: plain-spin
        while (flag[0] == 0) __nanosleep(100);
        *out = 1;
    }
}

// 5b. The same spin with an empty loop body: g++ (and nvcc) would load the flag once and spin on
//     the register; the rewriter's loop head makes the emulator load it on every turn.
__global__ void plain_spin_empty_body(int* flag, int* out) {
    if (threadIdx.x != 0) return;
    if (blockIdx.x == 0) {
        for (int i = 0; i < 50; ++i) __nanosleep(100);
        __threadfence();
        *reinterpret_cast<volatile int*>(flag) = 1;
    } else {
        // BUG: plain-spin-empty-body
        while (flag[0] == 0) {
        }
        *out = 1;
    }
}

// 6. Tiles that overlap by one element: two blocks write the same word.
__global__ void overlapping_tiles(int* out) {
    const int i = blockIdx.x * kThreads + threadIdx.x;
    // BUG: overlapping-writes
    out[i + (threadIdx.x == kThreads - 1 ? 1 : 0)] = i;
}

// 7. Every block stores "its" total to the one result word.
__global__ void every_block_writes_total(const int* in, int* total) {
    __shared__ int sum;
    if (threadIdx.x == 0) sum = 0;
    __syncthreads();
    atomicAdd(&sum, in[blockIdx.x * kThreads + threadIdx.x]);
    __syncthreads();
    // BUG: one-word-many-blocks
    if (threadIdx.x == 0) *total = sum;
}

// 8. A read of device memory that nothing wrote.
__global__ void read_unwritten_input(const int* in, int* out) {
    // BUG: uninitialized-input
    out[threadIdx.x] = in[threadIdx.x] * 2;
}

// 9. A look-back over tile flags that were never cleared (no cudaMemset): a block looks at its
//    predecessor's flag before the predecessor has set it.
__global__ void flags_never_cleared(int* flags, int* out) {
    if (threadIdx.x != 0) return;
    const int b = blockIdx.x;
    int seen = 0;
    if (b > 0) {
        // BUG: uninitialized-flags
        seen = *reinterpret_cast<volatile int*>(&flags[b - 1]);
    }
    for (int i = 0; i < 50; ++i) __nanosleep(100); // the next block looks meanwhile
    *reinterpret_cast<volatile int*>(&flags[b]) = 1;
    out[b] = seen;
}

// 10. A chained scan whose status words are reused by the next launch without a reset: block 1
//     finds "done" left by the previous launch before block 0 has written this launch's.
__global__ void chained_sum(const int* in, int* status, int* carried, int* out) {
    if (threadIdx.x != 0) return;
    const int b = blockIdx.x;
    int before = 0;
    if (b == 0) {
        for (int i = 0; i < 50; ++i) __nanosleep(100); // block 1 looks first
    } else {
        // BUG: stale-status
        while (*reinterpret_cast<volatile int*>(&status[b - 1]) == 0) __nanosleep(100);
        __threadfence();
        before = *reinterpret_cast<volatile int*>(&carried[b - 1]);
    }
    *reinterpret_cast<volatile int*>(&carried[b]) = before + in[b];
    __threadfence();
    *reinterpret_cast<volatile int*>(&status[b]) = 1;
    out[b] = before + in[b];
}

// What a kernel that clears status words for the next launch does (lab 07 clears the next call's
// tile counter and descriptors inside each scan instead of a cudaMemset between calls).
__global__ void clear_words(int* words, int n) {
    const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (i < n) words[i] = 0;
}

// 10b. Tickets from a counter that only an earlier launch of this kernel reset, as lab 07 clears
//      the next call's half of its workspace: the first block's atomicAdd acts on the value that
//      launch left (the reset is not the host's, nor another kernel's).
__global__ void take_tickets_clear_next(int* counter, int* next_counter, int* out) {
    if (threadIdx.x != 0) return;
    // BUG: stale-counter
    out[blockIdx.x] = atomicAdd(counter, 1);
    if (blockIdx.x == 0) *next_counter = 0;
}

// 11. A full-mask shuffle after half of the warp has left.
__global__ void shuffle_after_early_exit(const int* in, int* out, int n) {
    const int i = threadIdx.x;
    if (i >= n) return;
    // BUG: partial-warp-shuffle
    const int left = __shfl_up_sync(0xffffffffu, in[i], 1);
    out[i] = i > 0 ? left : 0;
}

// 12. A block-scope atomic used as a grid-wide counter.
__global__ void block_atomic_as_grid_counter(unsigned* counter, int* out) {
    if (threadIdx.x != 0) return;
    // BUG: block-atomic
    out[blockIdx.x] = static_cast<int>(atomicAdd_block(counter, 1u));
}

// 13. Within one block: a thread reads what a thread of another warp wrote, with no barrier.
__global__ void neighbour_in_other_warp(int* data, int* out) {
    const int t = threadIdx.x;
    data[t] = t;
    // (the __syncthreads() that belongs here is missing)
    if (t == 32) {
        // BUG: missing-block-barrier
        out[0] = data[t - 1];
    }
}

// 14. Two kernels of one "scan of block sums" fused into one: a block reads the sums of the
//     blocks before it in the same kernel, written through plain stores with no flag.
__global__ void fused_block_sums(const int* in, int* sums, int* out) {
    __shared__ int total;
    if (threadIdx.x == 0) total = 0;
    __syncthreads();
    atomicAdd(&total, in[blockIdx.x * kThreads + threadIdx.x]);
    __syncthreads();
    if (threadIdx.x == 0) {
        sums[blockIdx.x] = total;
        int before = 0;
        for (int i = 0; i < 50; ++i) __nanosleep(100); // let the earlier blocks finish
        for (int b = 0; b < static_cast<int>(blockIdx.x); ++b) {
            // BUG: fused-block-sums
            before += sums[b];
        }
        out[blockIdx.x] = before;
    }
}

// Correct versions: the same patterns with what they need. No report at all.
__global__ void message_passing_done_right(int* value, int* flag, int* out) {
    if (threadIdx.x != 0) return;
    if (blockIdx.x == 0) {
        *reinterpret_cast<volatile int*>(value) = 42;
        __threadfence();
        *reinterpret_cast<volatile int*>(flag) = 1;
    } else {
        wait_for_flag(flag);
        __threadfence();
        *out = *reinterpret_cast<volatile int*>(value);
    }
}

__global__ void atomic_counter_done_right(unsigned* counter, int* out) {
    if (threadIdx.x == 0) out[blockIdx.x] = static_cast<int>(atomicAdd(counter, 1u));
}

// A float maximum as a compare-and-swap loop, in a function each thread calls twice: the plain
// read at its start is the loop's first guess each time, not a poll repeated (the thread's own
// atomicCAS on the word came between).
__device__ __noinline__ float max_float(float* address, float value) {
    int* word = reinterpret_cast<int*>(address);
    int old = *word, assumed;
    do {
        assumed = old;
        old = atomicCAS(word, assumed, __float_as_int(fmaxf(value, __int_as_float(assumed))));
    } while (assumed != old);
    return __int_as_float(old);
}

// (The values come from the thread's index, not from memory: a load between the two calls
// would be the thread's last plain read instead.)
__global__ void max_twice(float* maximum, unsigned a, unsigned b, float second) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    max_float(maximum, static_cast<float>((i * a + b) % 100000u) / 8);
    max_float(maximum, second);
}

// A value published with its flag in one 64-bit word (lab 07's packed descriptors): no fence.
__global__ void packed_word_chain(const int* in, unsigned long long* words, int* out) {
    if (threadIdx.x != 0) return;
    const int b = blockIdx.x;
    int before = 0;
    if (b > 0) {
        unsigned long long w;
        while (((w = *reinterpret_cast<volatile unsigned long long*>(&words[b - 1])) >> 32) == 0)
            __nanosleep(100);
        before = static_cast<int>(static_cast<unsigned>(w));
    }
    const unsigned mine = static_cast<unsigned>(before + in[b]);
    *reinterpret_cast<volatile unsigned long long*>(&words[b]) = (1ull << 32) | mine;
    out[b] = before + in[b];
}

// A chain like packed_word_chain with 8-byte values in tagged pairs: two 64-bit words per block,
// each with the flag in its high half and one half of the value below. A reader that finds the
// two flags different caught the writer between its stores (or saw one store before the other
// became visible): it counts that in *torn and reads again.
__global__ void tagged_pair_chain(const unsigned long long* in, unsigned long long* words,
                                  unsigned long long* out, unsigned* torn) {
    if (threadIdx.x != 0) return;
    const int b = blockIdx.x;
    unsigned long long before = 0;
    if (b > 0) {
        const volatile unsigned long long* pair = &words[2 * (b - 1)];
        for (;;) {
            // BUG: untagged-pair (only without simt::accept_self_tagged_words)
            const unsigned long long low = pair[0];
            const unsigned long long high = pair[1];
            if ((low >> 32) != 0 && (low >> 32) == (high >> 32)) {
                before = (high << 32) | (low & 0xffffffffull);
                break;
            }
            if ((low >> 32) != (high >> 32)) atomicAdd(torn, 1u);
            __nanosleep(100);
        }
    }
    const unsigned long long mine = before + in[b];
    volatile unsigned long long* pair = &words[2 * b];
    pair[0] = (1ull << 32) | (mine & 0xffffffffull);
    pair[1] = (1ull << 32) | (mine >> 32);
    out[b] = mine;
}

simt::FaultReport expect_report(const Expectation& e, const std::function<void()>& launch) {
    return expect_planted_report(__FILE__, e, launch);
}

} // namespace

TEST_CASE("planted bugs: memory ordering between blocks") {
    DeviceVector<int> value(std::vector<int>{0}), out(std::vector<int>{0});
    auto flag = [] { return DeviceVector<int>(std::vector<int>{0}); };
    {
        auto f = flag();
        expect_report({FaultKind::memory_ordering, "writer-no-fence"}, [&] {
            writer_without_fence<<<2, kThreads>>>(value.data(), f.data(), out.data());
        });
    }
    {
        auto f = flag();
        expect_report({FaultKind::memory_ordering, "reader-no-fence"}, [&] {
            reader_without_fence<<<2, kThreads>>>(value.data(), f.data(), out.data());
        });
    }
    {
        auto f = flag();
        expect_report({FaultKind::memory_ordering, "block-fence"}, [&] {
            block_fence_across_blocks<<<2, kThreads>>>(value.data(), f.data(), out.data());
        });
    }
    {
        auto f = flag();
        const simt::FaultReport report =
            expect_report({FaultKind::plain_load_spin, "plain-spin"},
                          [&] { plain_spin<<<2, kThreads>>>(f.data(), out.data()); });
        // Found at block 0's store, after block 1's polls: the report names the poller as such.
        std::string spin;
        for (const simt::Finding& finding : report.findings) {
            if (finding.kind != FaultKind::plain_load_spin) continue;
            spin = finding.message;
            for (const simt::FindingAccess& a : finding.accesses)
                CHECK(a.block_linear == (a.role == simt::AccessRole::load ? 1u : 0u));
        }
        INFO("the spin's report: " << spin);
        CHECK(spin.find("by thread (0,0,0) of block (1,0,0)") != std::string::npos);
        CHECK(spin.find("by thread (0,0,0) of block (0,0,0)") == std::string::npos);
        CHECK(spin.find("while thread (0,0,0) of block (0,0,0) writes it") != std::string::npos);
    }
    {
        auto f = flag();
        expect_report({FaultKind::plain_load_spin, "plain-spin-empty-body"},
                      [&] { plain_spin_empty_body<<<2, kThreads>>>(f.data(), out.data()); });
    }
}

TEST_CASE("planted bugs: races in global memory") {
    DeviceVector<int> in(std::vector<int>(4 * kThreads, 1)), out(4 * kThreads + 1);
    DeviceVector<int> partial(std::vector<int>(4, 0)), total(std::vector<int>{0});
    expect_report({FaultKind::global_race, "read-other-block"},
                  [&] { read_neighbours_output<<<2, kThreads>>>(partial.data(), out.data()); });
    expect_report({FaultKind::global_race, "overlapping-writes"},
                  [&] { overlapping_tiles<<<4, kThreads>>>(out.data()); });
    expect_report({FaultKind::global_race, "one-word-many-blocks"},
                  [&] { every_block_writes_total<<<4, kThreads>>>(in.data(), total.data()); });
    DeviceVector<unsigned> counter(std::vector<unsigned>{0});
    expect_report({FaultKind::global_race, "block-atomic"}, [&] {
        block_atomic_as_grid_counter<<<4, kThreads>>>(counter.data(), out.data());
    });
    DeviceVector<int> data(64);
    expect_report({FaultKind::global_race, "missing-block-barrier"},
                  [&] { neighbour_in_other_warp<<<1, 64>>>(data.data(), out.data()); });
    DeviceVector<int> sums(4);
    expect_report({FaultKind::global_race, "fused-block-sums"},
                  [&] { fused_block_sums<<<4, kThreads>>>(in.data(), sums.data(), out.data()); });
}

TEST_CASE("planted bugs: uninitialized and stale global memory") {
    DeviceVector<int> out(std::vector<int>(kThreads, 0));
    {
        DeviceVector<int> never_written(kThreads);
        expect_report({FaultKind::uninitialized_global_read, "uninitialized-input"}, [&] {
            read_unwritten_input<<<1, kThreads>>>(never_written.data(), out.data());
        });
    }
    {
        DeviceVector<int> flags(4);
        expect_report({FaultKind::uninitialized_global_read, "uninitialized-flags"},
                      [&] { flags_never_cleared<<<4, kThreads>>>(flags.data(), out.data()); });
    }
    {
        DeviceVector<int> in(std::vector<int>{1, 2}), status(std::vector<int>{0, 0}), carried(2);
        // The first launch is right (status cleared); the second reuses the status words.
        const simt::FaultReport first = run_quietly([&] {
            chained_sum<<<2, kThreads>>>(in.data(), status.data(), carried.data(), out.data());
        });
        CHECK(first.kind == FaultKind::none);
        expect_report({FaultKind::stale_read, "stale-status"}, [&] {
            chained_sum<<<2, kThreads>>>(in.data(), status.data(), carried.data(), out.data());
        });
    }
    {
        // A counter that an earlier launch of the same kernel reset: stale as such...
        DeviceVector<int> first(std::vector<int>{0}), second(std::vector<int>{0}), tickets(2);
        take_tickets_clear_next<<<2, kThreads>>>(first.data(), second.data(), tickets.data());
        REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
        // (a range that still holds what the last launch left is not accepted as reset)
        CHECK_FALSE(simt::accept_reset_by_earlier_launch(first.data(), sizeof(int)));
        expect_report({FaultKind::stale_read, "stale-counter"}, [&] {
            take_tickets_clear_next<<<2, kThreads>>>(second.data(), first.data(), tickets.data());
        });
        // ...unless the host says that the launch before reset it for this one.
        CHECK(simt::accept_reset_by_earlier_launch(first.data(), sizeof(int)));
        expect_clean("tickets from a counter the previous launch reset", [&] {
            take_tickets_clear_next<<<2, kThreads>>>(first.data(), second.data(), tickets.data());
        });
        std::vector<int> got = tickets.download();
        std::sort(got.begin(), got.end());
        CHECK(got == std::vector<int>{0, 1});
        // A counter that another kernel set for this one is what the stream's order hands over
        // (an init kernel before the kernels that count): nothing stale.
        DeviceVector<int> counted(std::vector<int>{5});
        take_tickets_clear_next<<<2, kThreads>>>(counted.data(), second.data(), tickets.data());
        REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
        clear_words<<<1, 32>>>(counted.data(), 1);
        REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
        expect_clean("tickets from a counter an init kernel reset", [&] {
            take_tickets_clear_next<<<2, kThreads>>>(counted.data(), second.data(), tickets.data());
        });
        got = tickets.download();
        std::sort(got.begin(), got.end());
        CHECK(got == std::vector<int>{0, 1});
        // Two words of one allocation (one page of the emulator's shadow) that two kernels
        // left: each word is judged by the kernel that left it. The counter the init kernel
        // reset is not stale for the counting kernel...
        DeviceVector<int> shared_page(std::vector<int>{7, 7});
        int* const counter = shared_page.data();
        int* const beside = shared_page.data() + 1;
        take_tickets_clear_next<<<2, kThreads>>>(counter, beside, tickets.data());
        REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
        clear_words<<<1, 32>>>(counter, 1);
        REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
        expect_clean(
            "tickets from a counter an init kernel reset, beside a word the counting "
            "kernel left",
            [&] { take_tickets_clear_next<<<2, kThreads>>>(counter, beside, tickets.data()); });
        got = tickets.download();
        std::sort(got.begin(), got.end());
        CHECK(got == std::vector<int>{0, 1});
        // ...and the word beside it, which that launch reset for the next, still is.
        expect_report({FaultKind::stale_read, "stale-counter"}, [&] {
            take_tickets_clear_next<<<2, kThreads>>>(beside, counter, tickets.data());
        });
        // Host memory is no device range.
        int host_words[2] = {0, 0};
        CHECK_FALSE(simt::accept_reset_by_earlier_launch(host_words, sizeof host_words));
    }
}

TEST_CASE("planted bugs: warp masks naming absent lanes") {
    DeviceVector<int> in(std::vector<int>(kThreads, 3)), out(kThreads);
    expect_report({FaultKind::warp_mask, "partial-warp-shuffle"},
                  [&] { shuffle_after_early_exit<<<1, kThreads>>>(in.data(), out.data(), 16); });
}

TEST_CASE("correct multi-block patterns run with no report") {
    {
        const unsigned seed = std::random_device{}();
        INFO("seed " << seed);
        std::mt19937 random(seed);
        const unsigned a = random() % 9973 + 1, b = random() % 100000;
        const float second = static_cast<float>(random() % 100000) / 8;
        float want = second;
        for (unsigned i = 0; i < 2 * 64; ++i)
            want = std::max(want, static_cast<float>((i * a + b) % 100000u) / 8);
        DeviceVector<float> maximum(std::vector<float>{0});
        expect_clean("a compare-and-swap maximum in a function called twice",
                     [&] { max_twice<<<2, 64>>>(maximum.data(), a, b, second); });
        CHECK(maximum.download()[0] == want);
    }
    DeviceVector<int> value(std::vector<int>{0}), flag(std::vector<int>{0}),
        out(std::vector<int>(8, 0));
    expect_clean("message passing with both fences", [&] {
        message_passing_done_right<<<2, kThreads>>>(value.data(), flag.data(), out.data());
    });
    CHECK(out.download()[0] == 42);
    DeviceVector<unsigned> counter(std::vector<unsigned>{0});
    expect_clean("a device-wide atomic counter",
                 [&] { atomic_counter_done_right<<<8, kThreads>>>(counter.data(), out.data()); });
    DeviceVector<int> in(std::vector<int>{1, 2, 3, 4, 5, 6, 7, 8});
    DeviceVector<unsigned long long> words(std::vector<unsigned long long>(8, 0));
    expect_clean("a chain of packed flag-and-value words",
                 [&] { packed_word_chain<<<8, kThreads>>>(in.data(), words.data(), out.data()); });
    CHECK(out.download() == std::vector<int>{1, 3, 6, 10, 15, 21, 28, 36});
    // Two launches of the chain, with the words cleared in between: nothing stale.
    CHECK(cudaMemset(words.data(), 0, 8 * sizeof(unsigned long long)) == cudaSuccess);
    expect_clean("the chain launched again after a reset",
                 [&] { packed_word_chain<<<8, kThreads>>>(in.data(), words.data(), out.data()); });
}

TEST_CASE("tagged pairs: reported as data behind a flag unless declared self-tagged") {
    constexpr int kBlocks = 16;
    std::vector<unsigned long long> values(kBlocks), expected(kBlocks);
    unsigned long long running = 0;
    for (int b = 0; b < kBlocks; ++b) {
        values[b] = (0x1234567ull + b) << 28 | (0x9abcdefull * (b + 1)); // both halves busy
        expected[b] = running += values[b];
    }
    DeviceVector<unsigned long long> in(values), out(kBlocks);
    DeviceVector<unsigned> torn(std::vector<unsigned>{0});
    const auto chain = [&](DeviceVector<unsigned long long>& words) {
        tagged_pair_chain<<<kBlocks, kThreads>>>(in.data(), words.data(), out.data(), torn.data());
    };
    {
        // Without the declaration the first word read after the second looks like a value that
        // the second word's flag announced, with no fence: reported.
        DeviceVector<unsigned long long> words(std::vector<unsigned long long>(2 * kBlocks, 0));
        expect_report({FaultKind::memory_ordering, "untagged-pair"}, [&] { chain(words); });
    }
    // Declared, the chain is clean and right under many schedules, and relaxed visibility still
    // shows some reader one word new and the other old, which it must (and does) reject.
    for (std::uint64_t seed = 1; seed <= 8; ++seed) {
        DeviceVector<unsigned long long> words(std::vector<unsigned long long>(2 * kBlocks, 0));
        CHECK(simt::accept_self_tagged_words(words.data(), 2 * kBlocks * sizeof(std::uint64_t)));
        const std::uint64_t saved = simt::options().seed;
        simt::options().seed = seed;
        expect_clean("a chain of tagged pairs", [&] { chain(words); });
        simt::options().seed = saved;
        CHECK(out.download() == expected);
    }
    CHECK(torn.download()[0] > 0); // counted over all the runs
    // Only device memory can be declared.
    unsigned long long host_words[2] = {0, 0};
    CHECK_FALSE(simt::accept_self_tagged_words(host_words, sizeof host_words));
}
