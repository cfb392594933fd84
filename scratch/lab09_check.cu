// Scratch driver: correctness against std::stable_sort, and (on a GPU) speed against CUB.
#include "radix_sort.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <numeric>
#include <random>
#include <vector>
#if defined(WITH_CUB)
#include <cub/device/device_radix_sort.cuh>
#endif

static uint32_t order_bits(uint32_t k) {
    return k;
}
static uint32_t order_bits(int32_t k) {
    return uint32_t(k) ^ 0x80000000u;
}
static uint32_t order_bits(float f) {
    uint32_t b;
    std::memcpy(&b, &f, 4);
    return (b & 0x80000000u) ? ~b : b ^ 0x80000000u;
}

template <class K>
K random_key(std::mt19937& rng) {
    uint32_t b = rng();
    if constexpr (std::is_same_v<K, float>) {
        float f = std::uniform_real_distribution<float>(-1e6f, 1e6f)(rng);
        if (b % 17 == 0) f = -0.0f;
        if (b % 19 == 0) f = 0.0f;
        return f;
    } else {
        if (b % 5 == 0) b &= 0xff00ff0fu; // repeated digits
        K k;
        std::memcpy(&k, &b, 4);
        return k;
    }
}

template <class K>
bool check(long long n, unsigned seed, bool pairs, bool in_place) {
    std::mt19937 rng(seed);
    std::vector<K> keys(n);
    for (auto& k : keys) k = random_key<K>(rng);
    std::vector<uint32_t> values(n);
    std::iota(values.begin(), values.end(), 0u);
    std::vector<uint32_t> idx(n);
    std::iota(idx.begin(), idx.end(), 0u);
    std::stable_sort(idx.begin(), idx.end(), [&](uint32_t a, uint32_t b) {
        return order_bits(keys[a]) < order_bits(keys[b]);
    });
    K *d_in = nullptr, *d_out = nullptr;
    uint32_t *d_vin = nullptr, *d_vout = nullptr;
    cudaMalloc(&d_in, n * 4 + 4);
    cudaMalloc(&d_out, n * 4 + 4);
    cudaMalloc(&d_vin, n * 4 + 4);
    cudaMalloc(&d_vout, n * 4 + 4);
    cudaMemcpy(d_in, keys.data(), n * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(d_vin, values.data(), n * 4, cudaMemcpyHostToDevice);
    K* out = in_place ? d_in : d_out;
    uint32_t* vout = in_place ? d_vin : d_vout;
    if (pairs)
        lab09::sort_pairs<K, uint32_t>(d_in, out, d_vin, vout, n);
    else
        lab09::sort_keys<K>(d_in, out, n);
    std::vector<K> got(n);
    std::vector<uint32_t> gotv(n);
    if (cudaDeviceSynchronize() != cudaSuccess) {
        std::printf("CUDA error\n");
        return false;
    }
    cudaMemcpy(got.data(), out, n * 4, cudaMemcpyDeviceToHost);
    cudaMemcpy(gotv.data(), vout, n * 4, cudaMemcpyDeviceToHost);
    bool ok = true;
    for (long long i = 0; i < n && ok; ++i) {
        if (std::memcmp(&got[i], &keys[idx[i]], 4) != 0) {
            std::printf("n=%lld key mismatch at %lld\n", n, i);
            ok = false;
        } else if (pairs && gotv[i] != idx[i]) {
            std::printf("n=%lld value mismatch at %lld: %u vs %u\n", n, i, gotv[i], idx[i]);
            ok = false;
        }
    }
    cudaFree(d_in);
    cudaFree(d_out);
    cudaFree(d_vin);
    cudaFree(d_vout);
    return ok;
}

int main(int argc, char** argv) {
    long long max_n = argc > 1 ? atoll(argv[1]) : 20000;
    if (argc > 2 && std::strcmp(argv[2], "profile") == 0) { // one sort of max_n random keys
        std::vector<uint32_t> keys(max_n);
        std::mt19937 rng(5);
        for (auto& k : keys) k = rng();
        uint32_t *d_in, *d_out;
        cudaMalloc(&d_in, max_n * 4);
        cudaMalloc(&d_out, max_n * 4);
        cudaMemcpy(d_in, keys.data(), max_n * 4, cudaMemcpyHostToDevice);
        lab09::Workspace ws;
        for (int r = 0; r < 2; ++r) lab09::sort_keys<uint32_t>(d_in, d_out, max_n, &ws);
        return cudaDeviceSynchronize() != cudaSuccess;
    }
    int bad = 0, runs = 0;
    for (long long n : {0LL, 1LL, 2LL, 31LL, 4095LL, 4096LL, 4097LL, 12289LL, max_n}) {
        if (n > max_n) continue;
        for (int variant = 0; variant < 4; ++variant) {
            bool pairs = variant & 1, in_place = variant & 2;
            ++runs;
            bad += !check<uint32_t>(n, 1 + n, pairs, in_place);
            bad += !check<int32_t>(n, 2 + n, pairs, in_place);
            bad += !check<float>(n, 3 + n, pairs, in_place);
        }
    }
    std::printf("%d runs x 3 types, %d wrong\n", runs, bad);
#if defined(WITH_CUB)
    for (int lg : {16, 18, 20, 22, 24, 26, 28}) {
        long long n = 1LL << lg;
        std::vector<uint32_t> keys(n);
        std::mt19937 rng(lg);
        for (auto& k : keys) k = rng();
        uint32_t *d_in, *d_out;
        cudaMalloc(&d_in, n * 4);
        cudaMalloc(&d_out, n * 4);
        cudaMemcpy(d_in, keys.data(), n * 4, cudaMemcpyHostToDevice);
        size_t temp_bytes = 0;
        cub::DeviceRadixSort::SortKeys(nullptr, temp_bytes, d_in, d_out, (int)n);
        void* temp;
        cudaMalloc(&temp, temp_bytes);
        lab09::Workspace ws;
        cudaEvent_t a, b;
        cudaEventCreate(&a);
        cudaEventCreate(&b);
        std::vector<float> tl, tc, tm;
        for (int r = 0; r < 15; ++r) {
            float ms;
            cudaEventRecord(a);
            lab09::sort_keys<uint32_t>(d_in, d_out, n, &ws);
            cudaEventRecord(b);
            cudaEventSynchronize(b);
            cudaEventElapsedTime(&ms, a, b);
            tl.push_back(ms);
            cudaEventRecord(a);
            cub::DeviceRadixSort::SortKeys(temp, temp_bytes, d_in, d_out, (int)n);
            cudaEventRecord(b);
            cudaEventSynchronize(b);
            cudaEventElapsedTime(&ms, a, b);
            tc.push_back(ms);
            cudaEventRecord(a);
            cudaMemcpy(d_out, d_in, n * 4, cudaMemcpyDeviceToDevice);
            cudaEventRecord(b);
            cudaEventSynchronize(b);
            cudaEventElapsedTime(&ms, a, b);
            tm.push_back(ms);
        }
        std::sort(tl.begin(), tl.end());
        std::sort(tc.begin(), tc.end());
        std::sort(tm.begin(), tm.end());
        std::printf("2^%d: lab09 %.3f ms  cub %.3f ms  memcpy %.3f ms  lab09/cub speed %.2f  (%.2f "
                    "Gkeys/s)\n",
                    lg, tl[7], tc[7], tm[7], tc[7] / tl[7], n / tl[7] / 1e6);
        cudaFree(d_in);
        cudaFree(d_out);
        cudaFree(temp);
    }
#endif
    return bad != 0;
}
