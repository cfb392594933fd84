// The baselines scanlab_bench measures in the same run as the labs: a device-to-device copy of the
// same bytes (the bandwidth ceiling a scan can approach: it must read n and write n elements),
// and CUB's device-wide scans from the CUDA toolkit (what a tuned library reaches).
// CUB's temporary storage is allocated once per size, before the calls that are timed.
#include "bench.h"

#include <scanlab/cuda_check.h>
#include <scanlab/device_buffer.h>

#include <cub/device/device_scan.cuh>
#include <cub/version.cuh>

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

// The segmented baseline: one segment per run of equal keys (the segment ids the harness makes).
Register cub_by_key{
    {"", "cub.inclusive_sum_by_key", "CUB InclusiveSumByKey", Group::segmented, Role::cub,
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

} // namespace
} // namespace scanlab::bench
