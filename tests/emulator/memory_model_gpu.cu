// Runs the memory-model mistakes of memory_model_kernels.cuh and their fixed twins on a GPU and
// counts the runs that gave a wrong result: what a student would see without the emulator.
//   nvcc -std=c++20 -arch=sm_90 -I tests/emulator tests/emulator/memory_model_gpu.cu -o mm_gpu
//   ./mm_gpu [runs]        (compute-sanitizer --tool racecheck ./mm_gpu 3, and so on)
// Prints one line per program: its name, the runs, the wrong ones, and the first wrong value.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <numeric>
#include <string>
#include <vector>

#include "memory_model_kernels.cuh"

namespace mm = memory_model;

namespace {

void check(cudaError_t e, const char* what) {
    if (e != cudaSuccess) {
        std::printf("CUDA error in %s: %s\n", what, cudaGetErrorString(e));
        std::exit(1);
    }
}

template <class T>
struct Buffer {
    T* p = nullptr;
    size_t n = 0;
    explicit Buffer(size_t count) : n(count) {
        check(cudaMalloc(&p, n * sizeof(T)), "cudaMalloc");
        check(cudaMemset(p, 0, n * sizeof(T)), "cudaMemset");
    }
    ~Buffer() { cudaFree(p); }
    void zero() { check(cudaMemset(p, 0, n * sizeof(T)), "cudaMemset"); }
    std::vector<T> get() const {
        std::vector<T> v(n);
        check(cudaMemcpy(v.data(), p, n * sizeof(T), cudaMemcpyDeviceToHost), "cudaMemcpy");
        return v;
    }
};

// `one` runs the program once and returns "" when its result is right, else what was wrong.
void count(const char* name, int runs, const std::function<std::string()>& one) {
    int wrong = 0;
    std::string first;
    for (int r = 0; r < runs; ++r) {
        const std::string why = one();
        if (!why.empty() && wrong++ == 0) first = why;
    }
    std::printf("%-34s runs %5d  wrong %5d%s%s\n", name, runs, wrong,
                first.empty() ? "" : "  first: ", first.c_str());
}

std::string chain_result(const std::vector<int>& out) {
    for (size_t b = 0; b < out.size(); ++b)
        if (out[b] != static_cast<int>(b) + 1)
            return "out[" + std::to_string(b) + "] = " + std::to_string(out[b]);
    return "";
}

} // namespace

int main(int argc, char** argv) {
    const int runs = argc > 1 ? std::atoi(argv[1]) : 200;
    constexpr int kBlocks = 1024, kThreads = 32;
    cudaDeviceProp prop;
    check(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");
    std::printf("device: %s, %d runs each, chains of %d blocks\n", prop.name, runs, kBlocks);

    Buffer<int> values(kBlocks), flags(kBlocks), out(kBlocks);
    auto flag_chain = [&](auto kernel) {
        return [&, kernel] {
            values.zero();
            flags.zero();
            kernel<<<kBlocks, kThreads>>>(values.p, flags.p, out.p);
            check(cudaDeviceSynchronize(), "chain");
            return chain_result(out.get());
        };
    };
    count("value_before_flag (mistake)", runs, flag_chain(mm::value_before_flag));
    count("flag_then_value (fixed)", runs, flag_chain(mm::flag_then_value));

    Buffer<unsigned long long> words(kBlocks);
    auto word_chain = [&](auto kernel) {
        return [&, kernel] {
            words.zero();
            kernel<<<kBlocks, kThreads>>>(words.p, out.p);
            check(cudaDeviceSynchronize(), "descriptor chain");
            return chain_result(out.get());
        };
    };
    count("descriptor_in_two_stores (mistake)", runs, word_chain(mm::descriptor_in_two_stores));
    count("descriptor_in_one_store (fixed)", runs, word_chain(mm::descriptor_in_one_store));
    count("descriptor_in_two_loads (mistake)", runs, word_chain(mm::descriptor_in_two_loads));
    count("descriptor_in_one_load (fixed)", runs, word_chain(mm::descriptor_in_one_load));

    const int n = kBlocks * 256;
    std::vector<int> input(n);
    std::iota(input.begin(), input.end(), 0);
    const int kept = static_cast<int>(
        std::count_if(input.begin(), input.end(), [](int x) { return x % 3 == 0; }));
    Buffer<int> in(n), counter(1), total(1);
    Buffer<unsigned> done(1);
    check(cudaMemcpy(in.p, input.data(), n * sizeof(int), cudaMemcpyHostToDevice), "upload");
    auto total_result = [&] {
        const int got = total.get()[0];
        return got == kept ? std::string()
                           : "total " + std::to_string(got) + " of " + std::to_string(kept);
    };
    count("count_copied_by_last_block (mistake)", runs, [&] {
        counter.zero();
        mm::count_copied_by_last_block<<<n / 256, 256>>>(in.p, n, counter.p, total.p);
        check(cudaDeviceSynchronize(), "count");
        return total_result();
    });
    count("count_copied_after_all (fixed)", runs, [&] {
        counter.zero();
        done.zero();
        mm::count_copied_after_all<<<n / 256, 256>>>(in.p, n, counter.p, done.p, total.p);
        check(cudaDeviceSynchronize(), "count");
        return total_result();
    });

    Buffer<unsigned> tickets_counter(1);
    Buffer<int> tickets(kBlocks);
    auto tickets_result = [&] {
        std::vector<int> got = tickets.get();
        std::sort(got.begin(), got.end());
        for (int b = 0; b < kBlocks; ++b)
            if (got[b] != b)
                return "sorted tickets[" + std::to_string(b) + "] = " + std::to_string(got[b]);
        return std::string();
    };
    count("counter_reset_in_kernel (mistake)", runs, [&] {
        unsigned stale = 12345; // what an earlier scan left
        check(cudaMemcpy(tickets_counter.p, &stale, sizeof stale, cudaMemcpyHostToDevice), "set");
        mm::counter_reset_in_kernel<<<kBlocks, kThreads>>>(tickets_counter.p, tickets.p);
        check(cudaDeviceSynchronize(), "tickets");
        return tickets_result();
    });
    count("counter_reset_by_host (fixed)", runs, [&] {
        tickets_counter.zero();
        mm::counter_reset_by_host<<<kBlocks, kThreads>>>(tickets_counter.p, tickets.p);
        check(cudaDeviceSynchronize(), "tickets");
        return tickets_result();
    });

    Buffer<int> partial(kBlocks);
    auto partial_result = [&] {
        const std::vector<int> got = out.get();
        for (int b = 0; b + 1 < kBlocks; ++b)
            if (got[b] != 10 * (b + 1))
                return "out[" + std::to_string(b) + "] = " + std::to_string(got[b]);
        return std::string();
    };
    count("read_before_neighbour_writes (mistake)", runs, [&] {
        check(cudaMemset(partial.p, 0xff, kBlocks * sizeof(int)), "memset");
        mm::read_before_neighbour_writes<<<kBlocks, kThreads>>>(partial.p, out.p);
        check(cudaDeviceSynchronize(), "partials");
        return partial_result();
    });
    count("two kernels (fixed)", runs, [&] {
        check(cudaMemset(partial.p, 0xff, kBlocks * sizeof(int)), "memset");
        mm::write_partials<<<kBlocks, kThreads>>>(partial.p);
        mm::read_next_partial<<<kBlocks, kThreads>>>(partial.p, out.p);
        check(cudaDeviceSynchronize(), "partials");
        return partial_result();
    });

    const int m = 1 << 20;
    std::vector<int> pin(m);
    std::iota(pin.begin(), pin.end(), 7);
    Buffer<int> pdl_in(m), mid(m), pdl_out(m);
    check(cudaMemcpy(pdl_in.p, pin.data(), m * sizeof(int), cudaMemcpyHostToDevice), "upload");
    auto pdl_result = [&] {
        const std::vector<int> got = pdl_out.get();
        for (int i = 0; i < m; ++i)
            if (got[i] != 2 * pin[i] + 1)
                return "out[" + std::to_string(i) + "] = " + std::to_string(got[i]);
        return std::string();
    };
    auto pdl = [&](auto second) {
        return [&, second] {
            mid.zero();
            mm::produce<<<m / 256, 256>>>(pdl_in.p, mid.p, m);
            check(mm::launch_dependent(second, mid.p, pdl_out.p, m, 256), "cudaLaunchKernelEx");
            check(cudaDeviceSynchronize(), "pdl");
            return pdl_result();
        };
    };
    count("consume_too_early (mistake, PDL)", runs, pdl(mm::consume_too_early));
    count("consume_after_sync (fixed, PDL)", runs, pdl(mm::consume_after_sync));

    std::vector<int> lanes(32);
    std::iota(lanes.begin(), lanes.end(), 1);
    Buffer<int> lane_in(32), sum(1);
    check(cudaMemcpy(lane_in.p, lanes.data(), 32 * sizeof(int), cudaMemcpyHostToDevice), "upload");
    auto sum_result = [&] {
        const int got = sum.get()[0];
        return got == 20 * 21 / 2 ? std::string() : "sum " + std::to_string(got);
    };
    count("shuffle_after_return (mistake)", runs, [&] {
        mm::shuffle_after_return<<<1, 32>>>(lane_in.p, sum.p, 20);
        check(cudaDeviceSynchronize(), "shuffle");
        return sum_result();
    });
    count("shuffle_with_identity (fixed)", runs, [&] {
        mm::shuffle_with_identity<<<1, 32>>>(lane_in.p, sum.p, 20);
        check(cudaDeviceSynchronize(), "shuffle");
        return sum_result();
    });
    Buffer<unsigned> masks(32);
    for (const int live : {20, 32}) {
        mm::active_masks<<<1, 32>>>(masks.p, live);
        check(cudaDeviceSynchronize(), "masks");
        const std::vector<unsigned> got = masks.get();
        std::printf("__activemask() with %d live lanes: lane 0 0x%08x, lane %d 0x%08x\n", live,
                    got[0], live - 1, got[live - 1]);
    }
    Buffer<unsigned> votes(1);
    mm::active_mask_in_branch<<<1, 32>>>(masks.p, votes.p);
    check(cudaDeviceSynchronize(), "masks in a branch");
    const std::vector<unsigned> in_branch = masks.get();
    std::printf("__activemask() of the even lanes in a branch: lane 0 0x%08x, lane 30 0x%08x; "
                "ballot after it 0x%08x\n",
                in_branch[0], in_branch[30], votes.get()[0]);
    return 0;
}
