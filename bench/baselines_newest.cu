// The newest CUB as a second baseline: the same cub::DeviceScan calls as baselines.cu, compiled
// against the headers of the pinned nvidia-cuda-cccl wheel from PyPI (scripts/newest-cccl.sh puts
// them where CMake finds them; bench/CMakeLists.txt puts them first on this file's include path,
// ahead of the toolkit's own CCCL). Both CUBs live in one program: CUB and Thrust name their
// namespaces after their version, and every helper here is in an unnamed namespace, so nothing of
// this file meets its namesake in baselines.cu.
// Which one a lab is compared with: the faster of the two at each size (report.cpp).
#include "bench.h"

#include <scanlab/cuda_check.h>
#include <scanlab/device_buffer.h>

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/dispatch/tuning/tuning_scan.cuh>
#include <cub/version.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/iterator/transform_output_iterator.h>

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>

#if CUB_VERSION < 300500
#error "baselines_newest.cu: SCANLAB_NEWEST_CCCL does not point at CUB 3.5 or later"
#endif

namespace scanlab::bench {

std::string newest_cub_version() {
    return std::to_string(CUB_MAJOR_VERSION) + "." + std::to_string(CUB_MINOR_VERSION) + "." +
           std::to_string(CUB_SUBMINOR_VERSION);
}

namespace {

// What CUB's own policy selector picks for InclusiveSum of T with an int count (CUB 3.5's
// classes; an internal header).
template <class T>
std::string policy_of(int cc, const char* type) {
    using Selector = cub::detail::scan::policy_selector_from_types<
        const T*, T*, T, cub::detail::choose_offset_t<int>, ::cuda::std::plus<>>;
    const auto policy = Selector{}(::cuda::compute_capability{cc / 10, cc % 10});
    if (policy.algorithm == cub::ScanAlgorithm::lookahead)
        return std::string(type) + ": warp-specialized look-ahead, " +
               std::to_string(policy.lookahead.reduce_and_scan_warps) + " warps x " +
               std::to_string(policy.lookahead.items_per_thread) + " items";
    return std::string(type) + ": " + std::to_string(policy.lookback.threads_per_block) +
           " threads x " + std::to_string(policy.lookback.items_per_thread) + " items";
}

} // namespace

std::string newest_cub_algorithm(int cc) {
    return "cub::DeviceScan: a tile-state init kernel and a single-pass scan kernel, chained by "
           "programmatic dependent launch; look-back tiles on sm_" +
           std::to_string(cc) + " of " + policy_of<std::int32_t>(cc, "int32") + ", " +
           policy_of<float>(cc, "float") + ", " + policy_of<std::int64_t>(cc, "int64") + ", " +
           policy_of<double>(cc, "double");
}

namespace {

constexpr std::int64_t kCubMaxN = std::numeric_limits<int>::max(); // int counts, as baselines.cu

// Temporary storage that only grows (as in baselines.cu).
struct TempStorage {
    scanlab::DeviceBuffer<unsigned char> buffer;
    std::size_t bytes = 0;

    void reserve(std::size_t needed) {
        bytes = needed;
        if (needed == 0) needed = 1;
        if (needed > buffer.size()) buffer = scanlab::DeviceBuffer<unsigned char>(needed);
    }
    void release() {
        buffer = scanlab::DeviceBuffer<unsigned char>();
        bytes = 0;
    }
};

int items(std::int64_t n) {
    return static_cast<int>(n);
}

// InclusiveSum on T; for int32 the global group's entry, otherwise the types group's.
template <class T>
struct NewestInclusiveSum {
    inline static TempStorage temp;

    static const T* in(const Operands& op) {
        if constexpr (std::is_same_v<T, std::int32_t>)
            if (op.in != nullptr) return op.in;
        return static_cast<const T*>(op.typed_in);
    }
    static T* out(const Operands& op) {
        if constexpr (std::is_same_v<T, std::int32_t>)
            if (op.out != nullptr) return op.out;
        return static_cast<T*>(op.typed_out);
    }
    static void call(const Operands& op) {
        std::size_t bytes = temp.bytes;
        SCANLAB_CUDA_CHECK(cub::DeviceScan::InclusiveSum(temp.buffer.data(), bytes, in(op), out(op),
                                                         items(op.n), 0));
    }
    static void size(std::int64_t n) {
        std::size_t bytes = 0;
        SCANLAB_CUDA_CHECK(cub::DeviceScan::InclusiveSum(
            nullptr, bytes, static_cast<const T*>(nullptr), static_cast<T*>(nullptr), items(n), 0));
        temp.reserve(bytes);
    }

    NewestInclusiveSum(Group group, ValueType type, const std::string& suffix) {
        Entry e{"",
                "cub_newest.inclusive_sum" + suffix,
                "CUB " + newest_cub_version() + " InclusiveSum" +
                    (suffix.empty() ? std::string() : " " + suffix.substr(1)),
                group,
                Role::cub_newest,
                Expect::inclusive,
                kCubMaxN,
                &call,
                &size,
                [] { temp.release(); }};
        e.value = type;
        e.version = newest_cub_version();
        entries().push_back(e);
    }
};

NewestInclusiveSum<std::int32_t> newest_int32{Group::global, ValueType::i32, ""};
NewestInclusiveSum<float> newest_float{Group::types, ValueType::f32, ".float"};
NewestInclusiveSum<std::int64_t> newest_int64{Group::types, ValueType::i64, ".int64"};
NewestInclusiveSum<double> newest_double{Group::types, ValueType::f64, ".double"};

// The sort group's CUB (lab 09; baselines.cu has the toolkit's).
TempStorage sort_keys_temp;

Entry newest_sort_keys_entry() {
    Entry e{"",
            "cub_newest.sort_keys",
            "CUB " + newest_cub_version() + " DeviceRadixSort::SortKeys",
            Group::sort,
            Role::cub_newest,
            Expect::sorted,
            kCubMaxN,
            [](const Operands& op) {
                std::size_t bytes = sort_keys_temp.bytes;
                SCANLAB_CUDA_CHECK(cub::DeviceRadixSort::SortKeys(
                    sort_keys_temp.buffer.data(), bytes, op.in, op.out, items(op.n), 0, 32, 0));
            },
            [](std::int64_t n) {
                std::size_t bytes = 0;
                SCANLAB_CUDA_CHECK(cub::DeviceRadixSort::SortKeys(
                    nullptr, bytes, static_cast<const std::int32_t*>(nullptr),
                    static_cast<std::int32_t*>(nullptr), items(n), 0, 32, 0));
                sort_keys_temp.reserve(bytes);
            },
            [] { sort_keys_temp.release(); }};
    e.version = newest_cub_version();
    return e;
}
Register newest_sort_keys{newest_sort_keys_entry()};

// The segmented baseline that reads what lab 06 reads (baselines.cu says why this one).
struct SegmentedSum64 {
    __host__ __device__ unsigned long long operator()(unsigned long long a,
                                                      unsigned long long b) const {
        constexpr unsigned long long kFlag = 1ull << 32;
        if (b & kFlag) return b;
        return (a & kFlag) | static_cast<std::uint32_t>(static_cast<std::uint32_t>(a) +
                                                        static_cast<std::uint32_t>(b));
    }
};
struct LoadPair64 {
    const std::uint8_t* heads;
    const std::int32_t* values;
    __host__ __device__ unsigned long long operator()(int i) const {
        return (static_cast<unsigned long long>(heads[i] != 0) << 32) |
               static_cast<std::uint32_t>(values[i]);
    }
};
struct ValueOf64 {
    __host__ __device__ std::int32_t operator()(unsigned long long w) const {
        return static_cast<std::int32_t>(static_cast<std::uint32_t>(w));
    }
};
TempStorage pairs_temp;

Entry newest_pairs_entry() {
    Entry e{"",
            "cub_newest.segmented_pairs",
            "CUB " + newest_cub_version() + " InclusiveScan of (flag, value)",
            Group::segmented,
            Role::cub_newest,
            Expect::segmented_inclusive,
            kCubMaxN,
            [](const Operands& op) {
                std::size_t bytes = pairs_temp.bytes;
                SCANLAB_CUDA_CHECK(cub::DeviceScan::InclusiveScan(
                    pairs_temp.buffer.data(), bytes,
                    thrust::make_transform_iterator(thrust::counting_iterator<int>(0),
                                                    LoadPair64{op.heads, op.in}),
                    thrust::make_transform_output_iterator(op.out, ValueOf64{}), SegmentedSum64{},
                    items(op.n), 0));
            },
            [](std::int64_t n) {
                std::size_t bytes = 0;
                SCANLAB_CUDA_CHECK(cub::DeviceScan::InclusiveScan(
                    nullptr, bytes,
                    thrust::make_transform_iterator(thrust::counting_iterator<int>(0),
                                                    LoadPair64{nullptr, nullptr}),
                    thrust::make_transform_output_iterator(static_cast<std::int32_t*>(nullptr),
                                                           ValueOf64{}),
                    SegmentedSum64{}, items(n), 0));
                pairs_temp.reserve(bytes);
            },
            [] { pairs_temp.release(); }};
    e.version = newest_cub_version();
    return e;
}
Register newest_pairs{newest_pairs_entry()};

} // namespace
} // namespace scanlab::bench
