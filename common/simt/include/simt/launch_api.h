// cudaLaunchCooperativeKernel and cudaLaunchKernel: launches whose arguments come as an array of
// pointers to them (`void* args[] = {&in, &out, &n};`). The emulator must know the kernel's
// parameter types to copy them, so the kernel is taken as itself; the rewriter drops the usual
// `(void*)` cast in front of the kernel in these calls (simtcc.md). A kernel that reaches them
// only as a `void*` is launched with the types registered for its address where the program
// cast it to `void*` (simt/graphs.h), or refused with a message that says so.
//
// A cooperative launch runs every block of its grid at once, which the emulator can do for any
// grid a GPU could hold (the occupancy API's blocks per multiprocessor times the
// multiprocessors); a larger grid fails with cudaErrorCooperativeLaunchTooLarge, as on a GPU. Its
// kernels may call cooperative_groups::this_grid().sync().
#pragma once

#include <cstddef>
#include <utility>

#include "simt/launch.h"
#include "simt/types.h"

namespace simt::detail {
// Runs `launch` (which makes one launch through run_launch), cooperatively or not, and returns
// what the launch itself returns in CUDA: its configuration error, else cudaSuccess (a fault
// while it runs is the sticky error that later calls return).
cudaError_t launch_by_pointer(bool cooperative, void (*launch)(void*), void* context);
cudaError_t refuse_untyped_launch(const char* call);

template <class... P, size_t... I>
void launch_with_pointers(void (*kernel)(P...), dim3 grid, dim3 block, size_t smem,
                          cudaStream_t stream, void** args, std::index_sequence<I...>) {
    ::simt::launch(kernel, grid, block, smem,
                   stream)(*static_cast<std::remove_cv_t<P>*>(args[I])...);
}

template <class... P>
cudaError_t launch_typed(bool cooperative, void (*kernel)(P...), dim3 grid, dim3 block, void** args,
                         size_t smem, cudaStream_t stream) {
    if (sizeof...(P) > 0 && !args) return refuse_untyped_launch(nullptr);
    struct Context {
        void (*kernel)(P...);
        dim3 grid, block;
        size_t smem;
        cudaStream_t stream;
        void** args;
    } context{kernel, grid, block, smem, stream, args};
    return launch_by_pointer(
        cooperative,
        [](void* raw) {
            auto* c = static_cast<Context*>(raw);
            launch_with_pointers(c->kernel, c->grid, c->block, c->smem, c->stream, c->args,
                                 std::index_sequence_for<P...>{});
        },
        &context);
}

// Kernels known by their address (simt/graphs.h registers them where the program casts one to
// `void*`): a launch given only the address uses the launcher of its registered type.
using ErasedLauncher = cudaError_t (*)(bool cooperative, const void* kernel, dim3 grid, dim3 block,
                                       void** args, size_t smem, cudaStream_t stream);
void register_kernel(const void* kernel, ErasedLauncher launcher);
ErasedLauncher registered_launcher(const void* kernel); // null if none
// A launch of a kernel known only by its address: through its registered launcher, or refused.
cudaError_t launch_by_address(bool cooperative, const void* kernel, dim3 grid, dim3 block,
                              void** args, size_t smem, cudaStream_t stream, const char* call);

template <class... P>
cudaError_t launch_erased(bool cooperative, const void* kernel, dim3 grid, dim3 block, void** args,
                          size_t smem, cudaStream_t stream) {
    using Kernel = void (*)(P...);
    return launch_typed(cooperative, reinterpret_cast<Kernel>(const_cast<void*>(kernel)), grid,
                        block, args, smem, stream);
}
} // namespace simt::detail

template <class... P>
cudaError_t cudaLaunchCooperativeKernel(void (*kernel)(P...), dim3 grid, dim3 block, void** args,
                                        size_t shared_bytes = 0, cudaStream_t stream = nullptr) {
    return ::simt::detail::launch_typed(true, kernel, grid, block, args, shared_bytes, stream);
}
template <class... P>
cudaError_t cudaLaunchKernel(void (*kernel)(P...), dim3 grid, dim3 block, void** args,
                             size_t shared_bytes = 0, cudaStream_t stream = nullptr) {
    return ::simt::detail::launch_typed(false, kernel, grid, block, args, shared_bytes, stream);
}
// The kernel as a plain pointer: launched with the parameter types it was registered with when
// the program cast it to `void*` (simt/graphs.h), else refused.
inline cudaError_t cudaLaunchCooperativeKernel(const void* kernel, dim3 grid, dim3 block,
                                               void** args, size_t shared_bytes = 0,
                                               cudaStream_t stream = nullptr) {
    return ::simt::detail::launch_by_address(true, kernel, grid, block, args, shared_bytes, stream,
                                             "cudaLaunchCooperativeKernel");
}
inline cudaError_t cudaLaunchKernel(const void* kernel, dim3 grid, dim3 block, void** args,
                                    size_t shared_bytes = 0, cudaStream_t stream = nullptr) {
    return ::simt::detail::launch_by_address(false, kernel, grid, block, args, shared_bytes, stream,
                                             "cudaLaunchKernel");
}
