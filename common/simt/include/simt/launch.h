// Kernel launches on the simt backend. The rewriter turns `kernel<<<grid, block, smem, stream>>>(args)`
// into `::simt::launch(kernel, grid, block, smem, stream)(args)`: launch() checks nothing yet and
// returns a Launcher; calling it converts the arguments to the kernel's parameter types (as nvcc
// does), then runs the whole grid on the emulator before returning (launches are synchronous).
#pragma once

#include <tuple>
#include <utility>

#include "simt/types.h"

namespace simt {
namespace detail {

// Everything the engine needs to run one grid. The parameter block is what CUDA calls the kernel's
// parameter space: threads may read it, nothing may write it.
struct LaunchRequest {
    const void* kernel;
    dim3 grid;
    dim3 block;
    size_t dynamic_shared_bytes;
    cudaStream_t stream;
    void (*entry)(void* params);
    void* params;
    size_t params_bytes;
};
void run_launch(const LaunchRequest& request);

} // namespace detail

template <class... Params>
class Launcher {
  public:
    using Kernel = void (*)(Params...);
    Launcher(Kernel kernel, dim3 grid, dim3 block, size_t smem, cudaStream_t stream)
        : kernel_(kernel), grid_(grid), block_(block), smem_(smem), stream_(stream) {}

    template <class... Args>
    void operator()(Args&&... args) const {
        static_assert(sizeof...(Args) == sizeof...(Params),
                      "kernel launched with the wrong number of arguments");
        Packed packed{kernel_, std::tuple<Params...>(std::forward<Args>(args)...)};
        detail::run_launch(detail::LaunchRequest{reinterpret_cast<const void*>(kernel_), grid_,
                                                 block_, smem_, stream_, &entry, &packed,
                                                 sizeof(packed)});
    }

  private:
    struct Packed {
        Kernel kernel;
        std::tuple<Params...> params;
    };
    // Runs in every emulated thread: a by-value copy of the parameters, then the kernel.
    static void entry(void* raw) {
        auto* packed = static_cast<Packed*>(raw);
        std::apply(packed->kernel, packed->params);
    }

    Kernel kernel_;
    dim3 grid_;
    dim3 block_;
    size_t smem_;
    cudaStream_t stream_;
};

template <class... Params>
Launcher<Params...> launch(void (*kernel)(Params...), dim3 grid, dim3 block, size_t smem = 0,
                           cudaStream_t stream = nullptr) {
    return Launcher<Params...>(kernel, grid, block, smem, stream);
}

} // namespace simt
