// Planted attack "host_scan_laundered": the input is copied to the host and scanned there, the
// result is copied into a scratch buffer, and a kernel merely copies that buffer to the output,
// so that a kernel, not host code, writes the output last. Must score 0: the emulator sees the
// graded input copied to the host during the call.
#include "naive_scan.h"

#include <scanlab/cuda_check.h>
#include <scanlab/device_buffer.h>
#include <scanlab/operators.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace lab01 {

template <class T>
__global__ void copy_kernel(const T* from, T* to, int n) {
    const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (i < n) to[i] = from[i];
}

template <class Op>
void naive_scan(const typename Op::value_type* d_in, typename Op::value_type* d_out, int n,
                ScanKind kind) {
    using T = typename Op::value_type;
    if (n < 0 || n > kMaxN)
        throw std::invalid_argument("naive_scan: n out of range: " + std::to_string(n));
    if (n == 0) return;
    if (!d_in || !d_out) throw std::invalid_argument("naive_scan: null pointer");
    std::vector<T> values(static_cast<std::size_t>(n));
    SCANLAB_CUDA_CHECK(cudaMemcpy(values.data(), d_in, n * sizeof(T), cudaMemcpyDeviceToHost));
    T running = Op::identity();
    for (T& value : values) {
        const T next = Op::apply(running, value);
        value = kind == ScanKind::exclusive ? running : next;
        running = next;
    }
    scanlab::DeviceBuffer<T> scratch(values);
    copy_kernel<T><<<(n + 255) / 256, 256>>>(scratch.data(), d_out, n);
    SCANLAB_CUDA_CHECK(cudaGetLastError());
    SCANLAB_CUDA_CHECK(cudaDeviceSynchronize());
}

} // namespace lab01

// ---------------------------------------------------------------------------------------------
// DO NOT EDIT BELOW THIS LINE. The tests call naive_scan with these operators and types;
// since the template is defined in this .cu file, each one has to be instantiated here.
// ---------------------------------------------------------------------------------------------
#define LAB01_INSTANTIATE(Op)                                                                      \
    template void lab01::naive_scan<Op>(const Op::value_type*, Op::value_type*, int,               \
                                        lab01::ScanKind)

LAB01_INSTANTIATE(scanlab::Sum<std::int32_t>);
LAB01_INSTANTIATE(scanlab::Sum<std::uint32_t>);
LAB01_INSTANTIATE(scanlab::Sum<std::int64_t>);
LAB01_INSTANTIATE(scanlab::Sum<float>);
LAB01_INSTANTIATE(scanlab::Sum<double>);
LAB01_INSTANTIATE(scanlab::Max<std::int32_t>);
LAB01_INSTANTIATE(scanlab::Max<std::uint32_t>);
LAB01_INSTANTIATE(scanlab::Max<std::int64_t>);
LAB01_INSTANTIATE(scanlab::Max<float>);
LAB01_INSTANTIATE(scanlab::Max<double>);
LAB01_INSTANTIATE(scanlab::Min<std::int32_t>);
LAB01_INSTANTIATE(scanlab::Min<std::uint32_t>);
LAB01_INSTANTIATE(scanlab::Min<std::int64_t>);
LAB01_INSTANTIATE(scanlab::Min<float>);
LAB01_INSTANTIATE(scanlab::Min<double>);
LAB01_INSTANTIATE(scanlab::Product<std::int32_t>);
LAB01_INSTANTIATE(scanlab::Product<std::uint32_t>);
LAB01_INSTANTIATE(scanlab::Product<std::int64_t>);
LAB01_INSTANTIATE(scanlab::Product<float>);
LAB01_INSTANTIATE(scanlab::Product<double>);
LAB01_INSTANTIATE(scanlab::Affine<std::int32_t>);
LAB01_INSTANTIATE(scanlab::Affine<std::uint32_t>);
LAB01_INSTANTIATE(scanlab::Affine<std::int64_t>);
