// Kernel launches on the simt backend. The rewriter turns `kernel<<<grid, block, smem, stream>>>(args)`
// into `::simt::launch(kernel, grid, block, smem, stream)(args)`: launch() checks nothing yet and
// returns a Launcher; calling it converts the arguments to the kernel's parameter types (as nvcc
// does), then runs the whole grid on the emulator before returning (launches are synchronous).
#pragma once

#include <tuple>
#include <type_traits>
#include <utility>

#include "simt/types.h"
#include "simt/value_types.h"

namespace simt {
namespace detail {

// Everything the engine needs to run one grid. The parameter block is what CUDA calls the kernel's
// parameter space: threads may read it, nothing may write it.
// A kernel argument as traces describe global memory: pointer value and pointee type.
struct ArgumentInfo {
    const void* pointer; // nullptr for arguments that are not pointers
    ElementInfo element;
    bool is_const;
};

struct LaunchRequest {
    const void* kernel;
    dim3 grid;
    dim3 block;
    size_t dynamic_shared_bytes;
    cudaStream_t stream;
    void (*entry)(void* params);
    void* params;
    size_t params_bytes;
    const ArgumentInfo* arguments = nullptr;
    size_t argument_count = 0;
};

template <class P>
ArgumentInfo argument_info(const P& value) {
    if constexpr (std::is_pointer_v<P>) {
        using E = std::remove_pointer_t<P>;
        if constexpr (std::is_void_v<std::remove_cv_t<E>>)
            return {const_cast<const void*>(static_cast<const volatile void*>(value)),
                    ElementInfo{0, 1, "void"}, std::is_const_v<E>};
        else
            return {const_cast<const void*>(static_cast<const volatile void*>(value)),
                    element_info<E>(), std::is_const_v<E>};
    } else {
        return {nullptr, ElementInfo{0, 0, ""}, false};
    }
}
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
        detail::ArgumentInfo infos[sizeof...(Params) + 1] = {};
        std::apply(
            [&infos](const auto&... p) {
                size_t i = 0;
                ((infos[i++] = detail::argument_info(p)), ...);
            },
            packed.params);
        detail::run_launch(detail::LaunchRequest{reinterpret_cast<const void*>(kernel_), grid_,
                                                 block_, smem_, stream_, &entry, &packed,
                                                 sizeof(packed), infos, sizeof...(Params)});
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
