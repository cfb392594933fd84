// Planted attack "host_scan": no kernel at all. The input is copied to the host, scanned there,
// and the result copied back. Must score 0 (the kernel has to do the work): the emulator sees
// that host code wrote the output (and read the input).
#include "naive_scan.h"

#include <scanlab/cuda_check.h>
#include <scanlab/operators.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace lab01 {

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
    SCANLAB_CUDA_CHECK(cudaMemcpy(d_out, values.data(), n * sizeof(T), cudaMemcpyHostToDevice));
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
