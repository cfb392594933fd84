// Planted attack "exit0_static": a correct lab, but a static constructor calls exit(0) before the
// tests start, so the program "succeeds" without running them. Must score 0, and say why.
#include <cstdlib>

namespace {
const bool ended = [] {
    std::exit(0);
    return true;
}();
} // namespace

#include "naive_scan.h"

#include <scanlab/cuda_check.h>
#include <scanlab/operators.h>

#include <cstdint>
#include <stdexcept>
#include <string>

namespace lab01 {

template <class Op>
__global__ void naive_scan_kernel(const typename Op::value_type* in, typename Op::value_type* out,
                                  int n, ScanKind kind) {
    using T = typename Op::value_type;
    __shared__ T ping[kMaxN];
    __shared__ T pong[kMaxN];
    const int t = threadIdx.x;
    T* from = ping;
    T* to = pong;
    if (kind == ScanKind::exclusive)
        from[t] = t == 0 ? Op::identity() : in[t - 1];
    else
        from[t] = in[t];
    __syncthreads();
    for (int step = 1; step < n; step <<= 1) {
        to[t] = t < step ? from[t] : Op::apply(from[t - step], from[t]);
        __syncthreads();
        T* swap = from;
        from = to;
        to = swap;
    }
    out[t] = from[t];
}

template <class Op>
void naive_scan(const typename Op::value_type* d_in, typename Op::value_type* d_out, int n,
                ScanKind kind) {
    if (n < 0 || n > kMaxN)
        throw std::invalid_argument("naive_scan: n out of range: " + std::to_string(n));
    if (n == 0) return;
    if (!d_in || !d_out) throw std::invalid_argument("naive_scan: null pointer");
    naive_scan_kernel<Op><<<1, n>>>(d_in, d_out, n, kind);
    SCANLAB_CUDA_CHECK(cudaGetLastError());
}

} // namespace lab01

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
