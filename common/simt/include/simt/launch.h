// Kernel launches on the simt backend. The rewriter turns `kernel<<<grid, block, smem,
// stream>>>(args)` into `::simt::launch(kernel, grid, block, smem, stream)(args)` (launch_template
// for a kernel named with template arguments, below): launch() checks nothing yet and returns a
// Launcher; calling it converts the arguments to the kernel's parameter types (as nvcc does), then
// runs the whole grid on the emulator before returning (launches are synchronous).
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
    // cudaLaunchKernelEx with programmatic stream serialization (simt/programmatic_launch.h).
    bool programmatic_dependency = false;
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
        detail::LaunchRequest request{reinterpret_cast<const void*>(kernel_),
                                      grid_,
                                      block_,
                                      smem_,
                                      stream_,
                                      &entry,
                                      &packed,
                                      sizeof(packed),
                                      infos,
                                      sizeof...(Params)};
        request.programmatic_dependency = programmatic_;
        detail::run_launch(request);
    }
    // A programmatic dependent launch (cudaLaunchKernelEx, simt/programmatic_launch.h).
    Launcher& programmatic_dependency(bool on) {
        programmatic_ = on;
        return *this;
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
    bool programmatic_ = false;
};

template <class... Params>
Launcher<Params...> launch(void (*kernel)(Params...), dim3 grid, dim3 block, size_t smem = 0,
                           cudaStream_t stream = nullptr) {
    return Launcher<Params...>(kernel, grid, block, smem, stream);
}

// A launch that leaves the kernel's last parameters to their default arguments
// (`k<<<g, b>>>(data)` for `__global__ void k(int* data, int* extra = nullptr)`). A function
// pointer carries no default arguments, so the rewriter also passes `call`, a generic lambda that
// calls the kernel by name: each emulated thread calls it with its copy of the given arguments,
// converted to the kernel's first parameter types, and the compiler supplies the rest. (So a
// default argument is evaluated in each thread rather than once on the host: the same for the
// constants that default arguments nearly always are.)
template <class Call, class... Given>
class DefaultArgsLauncher {
  public:
    DefaultArgsLauncher(const void* kernel, const Call& call, dim3 grid, dim3 block, size_t smem,
                        cudaStream_t stream)
        : kernel_(kernel), call_(call), grid_(grid), block_(block), smem_(smem), stream_(stream) {}

    template <class... Args>
    void operator()(Args&&... args) const {
        Packed packed{&call_, std::tuple<Given...>(std::forward<Args>(args)...)};
        detail::ArgumentInfo infos[sizeof...(Given) + 1] = {};
        std::apply(
            [&infos](const auto&... p) {
                size_t i = 0;
                ((infos[i++] = detail::argument_info(p)), ...);
            },
            packed.params);
        detail::run_launch(detail::LaunchRequest{kernel_, grid_, block_, smem_, stream_, &entry,
                                                 &packed, sizeof(packed), infos, sizeof...(Given)});
    }

  private:
    struct Packed {
        const Call* call;
        std::tuple<Given...> params;
    };
    static void entry(void* raw) {
        auto* packed = static_cast<Packed*>(raw);
        std::apply(*packed->call, packed->params);
    }

    const void* kernel_;
    const Call& call_;
    dim3 grid_;
    dim3 block_;
    size_t smem_;
    cudaStream_t stream_;
};

// Launches of a kernel named with template arguments (`k<4><<<g, b>>>(p)`). The remaining
// template arguments may be deduced from the launch arguments, as in a call, so the rewriter
// passes the kernel as a generic lambda `[](auto pick) -> decltype(pick(k<4>)) {...}`: the
// specialization is picked once the argument types are known.
namespace detail {
// The template arguments name one function already.
struct PickPointer {
    template <class F>
    F* operator()(F* f) const {
        return f;
    }
};
// The specialization whose parameters are exactly P... (deduction from a function type).
template <class... P>
struct PickFor {
    using Fn = void (*)(P...);
    Fn operator()(Fn f) const { return f; }
};
template <class A>
struct ConstPointee {
    using type = A;
};
template <class U>
struct ConstPointee<U*> {
    using type = const U*;
};
// Parameters P... are the decayed argument types, except that a pointer argument may also go to
// a pointer-to-const parameter (the usual `const T* in`): the first combination that names a
// specialization.
template <class Ref, class Chosen, class... Rest>
struct KernelSearch;
template <class Ref, class... P>
struct KernelSearch<Ref, std::tuple<P...>> {
    static constexpr bool found = std::is_invocable_v<const Ref&, PickFor<P...>>;
    using Pick = PickFor<P...>;
};
template <class Ref, class... P, class A, class... Rest>
struct KernelSearch<Ref, std::tuple<P...>, A, Rest...> {
    using AsIs = KernelSearch<Ref, std::tuple<P..., A>, Rest...>;
    using AsConst = KernelSearch<Ref, std::tuple<P..., typename ConstPointee<A>::type>, Rest...>;
    using Chosen =
        std::conditional_t<AsIs::found || std::is_same_v<A, typename ConstPointee<A>::type>, AsIs,
                           AsConst>;
    static constexpr bool found = Chosen::found;
    using Pick = typename Chosen::Pick;
};
} // namespace detail

namespace detail {
// The DefaultArgsLauncher for a kernel of parameters P... given the first N of them.
template <class Call, class Fn, class Indices>
struct DefaultArgs;
template <class Call, class... P, size_t... I>
struct DefaultArgs<Call, void (*)(P...), std::index_sequence<I...>> {
    using Given = std::tuple<std::tuple_element_t<I, std::tuple<P...>>...>;
    // Whether the kernel can be called with the given ones alone (the rest have defaults).
    static constexpr bool callable =
        std::is_invocable_v<const Call&, std::tuple_element_t<I, std::tuple<P...>>&...>;
    using Launcher = DefaultArgsLauncher<Call, std::tuple_element_t<I, std::tuple<P...>>...>;
};
template <class Fn>
struct ParameterCount;
template <class... P>
struct ParameterCount<void (*)(P...)> {
    static constexpr size_t value = sizeof...(P);
};
} // namespace detail

template <class Ref, class Call = void>
class TemplateLauncher {
  public:
    TemplateLauncher(Ref ref, const Call* call, dim3 grid, dim3 block, size_t smem,
                     cudaStream_t stream)
        : ref_(ref), call_(call), grid_(grid), block_(block), smem_(smem), stream_(stream) {}

    template <class... Args>
    void operator()(Args&&... args) const {
        if constexpr (std::is_invocable_v<const Ref&, detail::PickPointer>) {
            using Fn = decltype(ref_(detail::PickPointer{}));
            constexpr size_t params = detail::ParameterCount<Fn>::value;
            if constexpr (sizeof...(Args) < params && !std::is_void_v<Call>) {
                using Defaults =
                    detail::DefaultArgs<Call, Fn, std::make_index_sequence<sizeof...(Args)>>;
                static_assert(Defaults::callable,
                              "kernel launched with fewer arguments than it has parameters, and "
                              "the parameters left out have no default arguments");
                if constexpr (Defaults::callable)
                    typename Defaults::Launcher(
                        reinterpret_cast<const void*>(ref_(detail::PickPointer{})), *call_, grid_,
                        block_, smem_, stream_)(std::forward<Args>(args)...);
            } else {
                launch(ref_(detail::PickPointer{}), grid_, block_, smem_,
                       stream_)(std::forward<Args>(args)...);
            }
        } else {
            using Search = detail::KernelSearch<Ref, std::tuple<>, std::decay_t<Args>...>;
            static_assert(Search::found,
                          "simt: cannot tell which specialization of this kernel template the "
                          "launch calls. The emulator deduces the remaining template arguments "
                          "only from arguments of exactly the parameter types (pointers may "
                          "gain const) and all parameters given (none left to default "
                          "arguments): cast the arguments, or name all template arguments");
            if constexpr (Search::found)
                launch(ref_(typename Search::Pick{}), grid_, block_, smem_,
                       stream_)(std::forward<Args>(args)...);
        }
    }

  private:
    Ref ref_;
    const Call* call_;
    dim3 grid_;
    dim3 block_;
    size_t smem_;
    cudaStream_t stream_;
};

template <class Ref>
TemplateLauncher<Ref> launch_template(Ref ref, dim3 grid, dim3 block, size_t smem = 0,
                                      cudaStream_t stream = nullptr) {
    return TemplateLauncher<Ref>(ref, nullptr, grid, block, smem, stream);
}
// What the rewriter writes: `call` calls the kernel by name, for launches that leave parameters
// to their default arguments. It lives until the end of the launch's full expression.
template <class Ref, class Call,
          class = std::enable_if_t<std::is_class_v<Call> && !std::is_convertible_v<Call, dim3>>>
TemplateLauncher<Ref, Call> launch_template(Ref ref, const Call& call, dim3 grid, dim3 block,
                                            size_t smem = 0, cudaStream_t stream = nullptr) {
    return TemplateLauncher<Ref, Call>(ref, &call, grid, block, smem, stream);
}

} // namespace simt
