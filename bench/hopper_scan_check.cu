// Lab 08's development check on a GPU (scripts/bench-lab08.sh): the solution against a CPU scan
// for several operators, both kinds, many sizes (partial last tiles, one tile, many tiles), every
// shape (DefaultShape's pick for each size of values, each shape it picks from on the other size
// too, SmallShape), in place, a misaligned input, and back-to-back calls that share a Workspace
// (PDL, and the descriptors each call clears for the next). Until lab 08's graded tests run on a
// GPU. The solution, compiled into this program (its graded instantiations come with it).
#include "../solutions/08_hopper_scan/hopper_scan.cu"

#include <scanlab/cuda_check.h>
#include <scanlab/operators.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace {

int failures = 0;

template <class Op>
std::vector<typename Op::value_type> reference(const std::vector<typename Op::value_type>& in,
                                               scanlab::ScanKind kind) {
    using T = typename Op::value_type;
    std::vector<T> out(in.size());
    T running = Op::identity();
    for (std::size_t i = 0; i < in.size(); ++i) {
        if (kind == scanlab::ScanKind::exclusive) out[i] = running;
        running = Op::apply(running, in[i]);
        if (kind == scanlab::ScanKind::inclusive) out[i] = running;
    }
    return out;
}

template <class T>
T random_value(std::mt19937_64& random) {
    if constexpr (std::is_floating_point_v<T>)
        return static_cast<T>(std::uniform_int_distribution<int>(-8, 8)(random));
    else
        return static_cast<T>(random());
}

// One case: `calls` scans in a row with one Workspace, each on fresh input; every output checked.
template <class Op, class RequestedShape>
void check(const char* name, std::int64_t n, scanlab::ScanKind kind, bool in_place, int offset,
           int calls, std::mt19937_64& random) {
    using T = typename Op::value_type;
    using Shape = lab08::ChosenShape<RequestedShape, T>; // the shape the call runs with
    lab08::Workspace workspace;
    const std::size_t total = static_cast<std::size_t>(n + offset);
    std::vector<std::vector<T>> inputs(calls, std::vector<T>(static_cast<std::size_t>(n)));
    std::vector<T*> d_in(calls), d_out(calls);
    for (int c = 0; c < calls; ++c) {
        for (T& x : inputs[c]) x = random_value<T>(random);
        SCANLAB_CUDA_CHECK(cudaMalloc(&d_in[c], total * sizeof(T) + 16));
        SCANLAB_CUDA_CHECK(
            cudaMemcpy(d_in[c] + offset, inputs[c].data(), n * sizeof(T), cudaMemcpyHostToDevice));
        d_out[c] = d_in[c];
        if (!in_place) {
            SCANLAB_CUDA_CHECK(cudaMalloc(&d_out[c], total * sizeof(T) + 16));
            SCANLAB_CUDA_CHECK(cudaMemset(d_out[c], 0xA5, total * sizeof(T))); // poison
        }
    }
    for (int c = 0; c < calls; ++c)
        lab08::scan<Op, RequestedShape>(d_in[c] + offset, d_out[c] + offset, n, kind, &workspace);
    SCANLAB_CUDA_CHECK(cudaGetLastError());
    SCANLAB_CUDA_CHECK(cudaDeviceSynchronize());
    for (int c = 0; c < calls; ++c) {
        std::vector<T> got(static_cast<std::size_t>(n));
        SCANLAB_CUDA_CHECK(
            cudaMemcpy(got.data(), d_out[c] + offset, n * sizeof(T), cudaMemcpyDeviceToHost));
        const std::vector<T> want = reference<Op>(inputs[c], kind);
        for (std::int64_t i = 0; i < n; ++i) {
            if (std::memcmp(&got[i], &want[i], sizeof(T)) != 0) {
                std::printf("FAIL %s shape w%d s%d v%d n=%lld %s%s offset %d call %d: first "
                            "wrong index %lld\n",
                            name, Shape::kScannerWarps, Shape::kStages, Shape::kVectorsPerLane,
                            static_cast<long long>(n),
                            kind == scanlab::ScanKind::inclusive ? "inclusive" : "exclusive",
                            in_place ? " in place" : "", offset, c, static_cast<long long>(i));
                ++failures;
                break;
            }
        }
        SCANLAB_CUDA_CHECK(cudaFree(d_in[c]));
        if (!in_place) SCANLAB_CUDA_CHECK(cudaFree(d_out[c]));
    }
}

template <class Op, class RequestedShape>
void check_all(const char* name, std::mt19937_64& random) {
    using T = typename Op::value_type;
    // The cases' sizes follow the shape that the call runs with (DefaultShape: the one it picks).
    using Shape = lab08::ChosenShape<RequestedShape, T>;
    constexpr std::int64_t tile = Shape::template kTileItems<T>;
    const std::int64_t sizes[] = {
        1, 5, tile - 1, tile, tile + 1, 3 * tile, 77 * tile + 5, 1 << 20, (1 << 20) + 3, 5'000'011};
    int cases = 0;
    for (std::int64_t n : sizes)
        for (auto kind : {scanlab::ScanKind::inclusive, scanlab::ScanKind::exclusive}) {
            check<Op, RequestedShape>(name, n, kind, false, 0, 1, random);
            ++cases;
        }
    check<Op, RequestedShape>(name, 1 << 20, scanlab::ScanKind::inclusive, true, 0, 1, random);
    check<Op, RequestedShape>(name, 300'001, scanlab::ScanKind::inclusive, false, 1, 1, random);
    check<Op, RequestedShape>(name, 2'000'000, scanlab::ScanKind::exclusive, false, 0, 5, random);
    std::printf("%s shape w%d s%d v%d: %d cases\n", name, Shape::kScannerWarps, Shape::kStages,
                Shape::kVectorsPerLane, cases + 3);
}

} // namespace

// `check --profile N`: only three inclusive int32 sums of N elements with the default shape, for
// a profiler (ncu) to pick one.
int profile(std::int64_t n) {
    std::vector<std::int32_t> values(static_cast<std::size_t>(n));
    std::mt19937 random(1);
    for (auto& x : values) x = static_cast<std::int32_t>(random() % 8) - 3;
    std::int32_t *in = nullptr, *out = nullptr;
    SCANLAB_CUDA_CHECK(cudaMalloc(&in, n * sizeof(std::int32_t)));
    SCANLAB_CUDA_CHECK(cudaMalloc(&out, n * sizeof(std::int32_t)));
    SCANLAB_CUDA_CHECK(
        cudaMemcpy(in, values.data(), n * sizeof(std::int32_t), cudaMemcpyHostToDevice));
    lab08::Workspace workspace;
    for (int i = 0; i < 3; ++i)
        lab08::scan<scanlab::Sum<std::int32_t>>(in, out, n, scanlab::ScanKind::inclusive,
                                                &workspace);
    SCANLAB_CUDA_CHECK(cudaDeviceSynchronize());
    std::int32_t last = 0;
    SCANLAB_CUDA_CHECK(cudaMemcpy(&last, out + n - 1, sizeof last, cudaMemcpyDeviceToHost));
    std::int64_t want = 0;
    for (auto x : values) want += x;
    std::printf("profile run: n = %lld, last = %d, expected %lld\n", static_cast<long long>(n),
                last, static_cast<long long>(want));
    return last == static_cast<std::int32_t>(want) ? 0 : 1;
}

int main(int argc, char** argv) {
    if (argc == 3 && std::string(argv[1]) == "--profile") return profile(std::stoll(argv[2]));
    std::mt19937_64 random(std::random_device{}());
    using scanlab::Affine;
    using scanlab::Max;
    using scanlab::Sum;
    check_all<Sum<std::int32_t>, lab08::DefaultShape>("Sum<int32>", random);
    check_all<Sum<std::int32_t>, lab08::SmallShape>("Sum<int32>", random);
    check_all<Affine<std::int32_t>, lab08::DefaultShape>("Affine<int32>", random);
    check_all<Affine<std::int32_t>, lab08::SmallShape>("Affine<int32>", random);
    check_all<Affine<std::int64_t>, lab08::DefaultShape>("Affine<int64>", random);
    check_all<Max<float>, lab08::DefaultShape>("Max<float>", random);
    check_all<Sum<double>, lab08::DefaultShape>("Sum<double>", random);
    check_all<Sum<double>, lab08::SmallShape>("Sum<double>", random);
    // Each shape that DefaultShape picks from, also on the other size of values.
    check_all<Sum<std::int32_t>, lab08::EightByteShape>("Sum<int32>", random);
    check_all<Affine<std::int64_t>, lab08::FourByteShape>("Affine<int64>", random);
    std::printf(failures == 0 ? "CHECK PASSED\n" : "CHECK FAILED: %d\n", failures);
    return failures == 0 ? 0 : 1;
}
