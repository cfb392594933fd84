// The baselines scanlab_bench measures in the same run as the labs: a device-to-device copy of the
// same bytes (the bandwidth ceiling a scan can approach: it must read n and write n elements),
// and CUB's device-wide scans from the CUDA toolkit (what a tuned library reaches).
// CUB's temporary storage is allocated once per size, before the calls that are timed.
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

namespace scanlab::bench {

std::string cub_version() {
    return std::to_string(CUB_MAJOR_VERSION) + "." + std::to_string(CUB_MINOR_VERSION) + "." +
           std::to_string(CUB_SUBMINOR_VERSION);
}

namespace {

template <class Policy>
std::string tile_shape() {
    return std::to_string(Policy::BLOCK_THREADS) + " threads x " +
           std::to_string(Policy::ITEMS_PER_THREAD) + " items";
}

} // namespace

// CUB's own tuning tables (an internal header: this names the classes of CUB 3.0).
std::string cub_algorithm(int cc) {
    using Hub = cub::detail::scan::policy_hub<std::int32_t, std::int32_t, std::int32_t, int,
                                              ::cuda::std::plus<>>;
    std::string tile;
    if (cc >= 100)
        tile = tile_shape<Hub::Policy1000::ScanPolicyT>();
    else if (cc >= 90)
        tile = tile_shape<Hub::Policy900::ScanPolicyT>();
    else if (cc >= 86)
        tile = tile_shape<Hub::Policy860::ScanPolicyT>();
    else if (cc >= 80)
        tile = tile_shape<Hub::Policy800::ScanPolicyT>();
    else
        tile = tile_shape<Hub::Policy600::ScanPolicyT>();
    return "cub::DeviceScan: single-pass scan with decoupled look-back, tiles of " + tile +
           " for int32 sums on sm_" + std::to_string(cc);
}

namespace {

// CUB is called with an int num_items, as most callers do: it then indexes with 32-bit offsets
// (an int64 count would select its 64-bit-offset kernels). The sizes here stay below 2^31.
constexpr std::int64_t kCubMaxN = std::numeric_limits<int>::max();
constexpr std::int64_t kAnyN = std::int64_t(1) << 40;
constexpr std::int64_t kSingleBlockN = 2048; // the largest single-block lab size

// Temporary storage that only grows; one per CUB entry, so that entries never share it.
struct TempStorage {
    scanlab::DeviceBuffer<unsigned char> buffer;
    std::size_t bytes = 0; // what the current size needs

    void reserve(std::size_t needed) {
        bytes = needed;
        // CUB needs a non-null pointer for its run (a size query is what a null pointer means).
        if (needed == 0) needed = 1;
        if (needed > buffer.size()) buffer = scanlab::DeviceBuffer<unsigned char>(needed);
    }
    void release() {
        buffer = scanlab::DeviceBuffer<unsigned char>();
        bytes = 0;
    }
};

TempStorage inclusive_temp, exclusive_temp, by_key_temp;
TempStorage single_inclusive_temp;

void copy(const Operands& op) {
    SCANLAB_CUDA_CHECK(cudaMemcpyAsync(op.out, op.in, static_cast<std::size_t>(op.n) * 4,
                                       cudaMemcpyDeviceToDevice, 0));
}

int items(std::int64_t n) { // entries declare kCubMaxN, so the harness never passes more
    return static_cast<int>(n);
}

void inclusive_size(TempStorage& temp, std::int64_t n) {
    std::size_t bytes = 0;
    SCANLAB_CUDA_CHECK(
        cub::DeviceScan::InclusiveSum(nullptr, bytes, static_cast<const std::int32_t*>(nullptr),
                                      static_cast<std::int32_t*>(nullptr), items(n), 0));
    temp.reserve(bytes);
}
void inclusive_call(TempStorage& temp, const Operands& op) {
    std::size_t bytes = temp.bytes;
    SCANLAB_CUDA_CHECK(
        cub::DeviceScan::InclusiveSum(temp.buffer.data(), bytes, op.in, op.out, items(op.n), 0));
}

Register memcpy_single{{"", "memcpy.single_block", "memcpy d2d", Group::single_block, Role::memcpy,
                        Expect::copy, kSingleBlockN, copy}};
Register cub_single{{"", "cub.inclusive_sum.single_block", "CUB InclusiveSum", Group::single_block,
                     Role::cub, Expect::inclusive, kSingleBlockN,
                     [](const Operands& op) { inclusive_call(single_inclusive_temp, op); },
                     [](std::int64_t n) { inclusive_size(single_inclusive_temp, n); },
                     [] { single_inclusive_temp.release(); }}};

// The sort group (lab 09): its own copy, and CUB's radix sort of the same int32 keys (all 32
// bits, in CUB's own order for signed keys, which is the integers' order).
TempStorage sort_keys_temp;
Register memcpy_sort{
    {"", "memcpy.sort", "memcpy d2d", Group::sort, Role::memcpy, Expect::copy, kAnyN, copy}};
Register cub_sort_keys{
    {"", "cub.sort_keys", "CUB DeviceRadixSort::SortKeys", Group::sort, Role::cub, Expect::sorted,
     kCubMaxN,
     [](const Operands& op) {
         std::size_t bytes = sort_keys_temp.bytes;
         SCANLAB_CUDA_CHECK(cub::DeviceRadixSort::SortKeys(sort_keys_temp.buffer.data(), bytes,
                                                           op.in, op.out, items(op.n), 0, 32, 0));
     },
     [](std::int64_t n) {
         std::size_t bytes = 0;
         SCANLAB_CUDA_CHECK(cub::DeviceRadixSort::SortKeys(
             nullptr, bytes, static_cast<const std::int32_t*>(nullptr),
             static_cast<std::int32_t*>(nullptr), items(n), 0, 32, 0));
         sort_keys_temp.reserve(bytes);
     },
     [] { sort_keys_temp.release(); }}};

// The segmented group's own copy of the values, so that its rounds have one to pair with.
Register memcpy_segmented{{"", "memcpy.segmented", "memcpy d2d", Group::segmented, Role::memcpy,
                           Expect::copy, kAnyN, copy}};
Register memcpy_global{
    {"", "memcpy", "memcpy d2d", Group::global, Role::memcpy, Expect::copy, kAnyN, copy}};
Register cub_inclusive{
    {"", "cub.inclusive_sum", "CUB InclusiveSum", Group::global, Role::cub, Expect::inclusive,
     kCubMaxN, [](const Operands& op) { inclusive_call(inclusive_temp, op); },
     [](std::int64_t n) { inclusive_size(inclusive_temp, n); }, [] { inclusive_temp.release(); }}};
Register cub_exclusive{{"", "cub.exclusive_sum", "CUB ExclusiveSum", Group::global, Role::baseline,
                        Expect::exclusive, kCubMaxN,
                        [](const Operands& op) {
                            std::size_t bytes = exclusive_temp.bytes;
                            SCANLAB_CUDA_CHECK(
                                cub::DeviceScan::ExclusiveSum(exclusive_temp.buffer.data(), bytes,
                                                              op.in, op.out, items(op.n), 0));
                        },
                        [](std::int64_t n) {
                            std::size_t bytes = 0;
                            SCANLAB_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(
                                nullptr, bytes, static_cast<const std::int32_t*>(nullptr),
                                static_cast<std::int32_t*>(nullptr), items(n), 0));
                            exclusive_temp.reserve(bytes);
                        },
                        [] { exclusive_temp.release(); }}};

// The second segmented baseline: one segment per run of equal keys (the segment ids the harness
// makes), read as 4-byte keys.
Register cub_by_key{
    {"", "cub.inclusive_sum_by_key", "CUB InclusiveSumByKey", Group::segmented, Role::cub_second,
     Expect::segmented_inclusive, kCubMaxN,
     [](const Operands& op) {
         std::size_t bytes = by_key_temp.bytes;
         SCANLAB_CUDA_CHECK(cub::DeviceScan::InclusiveSumByKey(by_key_temp.buffer.data(), bytes,
                                                               op.keys, op.in, op.out, items(op.n),
                                                               cuda::std::equal_to<>{}, 0));
     },
     [](std::int64_t n) {
         std::size_t bytes = 0;
         SCANLAB_CUDA_CHECK(cub::DeviceScan::InclusiveSumByKey(
             nullptr, bytes, static_cast<const std::int32_t*>(nullptr),
             static_cast<const std::int32_t*>(nullptr), static_cast<std::int32_t*>(nullptr),
             items(n), cuda::std::equal_to<>{}, 0));
         by_key_temp.reserve(bytes);
     },
     [] { by_key_temp.release(); }}};

// The segmented baseline that reads what lab 06 reads: a head flag byte and a value per element,
// scanned by cub::DeviceScan::InclusiveScan with the segmented operator (lab 06's operator
// transformation) on the pair packed into one 64-bit word, the flag in bit 32 and the value in
// the low 32 bits. (Measured against the same scan on a two-int struct: the packed word is twice
// as fast, so it is the baseline; InclusiveSumByKey above reads 4-byte keys instead of flags.)
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
Register cub_pairs{{"", "cub.segmented_pairs", "CUB InclusiveScan of (flag, value)",
                    Group::segmented, Role::cub, Expect::segmented_inclusive, kCubMaxN,
                    [](const Operands& op) {
                        std::size_t bytes = pairs_temp.bytes;
                        SCANLAB_CUDA_CHECK(cub::DeviceScan::InclusiveScan(
                            pairs_temp.buffer.data(), bytes,
                            thrust::make_transform_iterator(thrust::counting_iterator<int>(0),
                                                            LoadPair64{op.heads, op.in}),
                            thrust::make_transform_output_iterator(op.out, ValueOf64{}),
                            SegmentedSum64{}, items(op.n), 0));
                    },
                    [](std::int64_t n) {
                        std::size_t bytes = 0;
                        SCANLAB_CUDA_CHECK(cub::DeviceScan::InclusiveScan(
                            nullptr, bytes,
                            thrust::make_transform_iterator(thrust::counting_iterator<int>(0),
                                                            LoadPair64{nullptr, nullptr}),
                            thrust::make_transform_output_iterator(
                                static_cast<std::int32_t*>(nullptr), ValueOf64{}),
                            SegmentedSum64{}, items(n), 0));
                        pairs_temp.reserve(bytes);
                    },
                    [] { pairs_temp.release(); }}};

// The types group: for each other value type, a copy of the same bytes and CUB's InclusiveSum.
template <class T>
struct TypedBaselines {
    inline static TempStorage temp;

    static void copy(const Operands& op) {
        SCANLAB_CUDA_CHECK(cudaMemcpyAsync(op.typed_out, op.typed_in,
                                           static_cast<std::size_t>(op.n) * sizeof(T),
                                           cudaMemcpyDeviceToDevice, 0));
    }
    static void inclusive(const Operands& op) {
        std::size_t bytes = temp.bytes;
        SCANLAB_CUDA_CHECK(cub::DeviceScan::InclusiveSum(
            temp.buffer.data(), bytes, static_cast<const T*>(op.typed_in),
            static_cast<T*>(op.typed_out), items(op.n), 0));
    }
    static void size(std::int64_t n) {
        std::size_t bytes = 0;
        SCANLAB_CUDA_CHECK(cub::DeviceScan::InclusiveSum(
            nullptr, bytes, static_cast<const T*>(nullptr), static_cast<T*>(nullptr), items(n), 0));
        temp.reserve(bytes);
    }

    TypedBaselines(ValueType type, const std::string& name) {
        Entry copy_entry{"",
                         "memcpy." + name,
                         "memcpy d2d " + name,
                         Group::types,
                         Role::memcpy,
                         Expect::copy,
                         kAnyN,
                         &copy};
        copy_entry.value = type;
        entries().push_back(copy_entry);
        Entry cub_entry{"",
                        "cub.inclusive_sum." + name,
                        "CUB InclusiveSum " + name,
                        Group::types,
                        Role::cub,
                        Expect::inclusive,
                        kCubMaxN,
                        &inclusive,
                        &size,
                        [] { temp.release(); }};
        cub_entry.value = type;
        entries().push_back(cub_entry);
    }
};

TypedBaselines<float> float_baselines{ValueType::f32, "float"};
TypedBaselines<std::int64_t> int64_baselines{ValueType::i64, "int64"};
TypedBaselines<double> double_baselines{ValueType::f64, "double"};

} // namespace
} // namespace scanlab::bench
