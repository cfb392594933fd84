// The rewrite passes. Each reads the original tokens and records edits; none sees another's
// output. Each throws RewriteError (via SourceFile::fail) for what the emulator cannot run.
#pragma once

#include "edits.h"
#include "rewrite.h"
#include "scope.h"
#include "source_file.h"

namespace simt::rewrite {

// kernel<<<cfg>>>(args)  ->  ::simt::launch(kernel, cfg)(args), in code and #define bodies.
void rewrite_launches(const SourceFile& src, EditList& edits);

// __shared__ T name[N];  ->  a reference bound to the runtime's per-block storage.
void rewrite_static_shared(const SourceFile& src, const ScopeMap& scopes, EditList& edits);

// extern __shared__ T name[];  ->  a ::simt::DynamicShared<T> handle (file scope) or a T*
// taken from one (in a function).
void rewrite_dynamic_shared(const SourceFile& src, const ScopeMap& scopes, EditList& edits);

// T* b = <the extern __shared__ array or a pointer carved from it, plus the same in every
// thread>;  ->  T* b = ::simt::carve(..., "b");  and its later b[i] -> b[::simt::carved_index(b,
// (i), "b")], so that an index past one carved array into the next is reported.
void rewrite_carved_shared(const SourceFile& src, const ScopeMap& scopes, EditList& edits);

// File-scope __device__/__constant__ variables get a ::simt::SymbolRegistration;
// __managed__ is rejected.
void register_device_symbols(const SourceFile& src, const ScopeMap& scopes, EditList& edits);

// while (cond)  ->  while (::simt::detail::loop_tick() && (cond)), and likewise do-while and
// for conditions, so that a polled plain load is reloaded every iteration (loop_ticks.cpp).
void insert_loop_ticks(const SourceFile& src, EditList& edits);

// cudaLaunchCooperativeKernel((void*)k, ...) -> cudaLaunchCooperativeKernel(k, ...), and the
// same for cudaLaunchKernel: the launch needs the kernel's type (launch_api_casts.cpp).
void strip_launch_api_casts(const SourceFile& src, EditList& edits);

// (void*)x, (const void*)x and reinterpret_cast<[const] void*>(x) in host code, x a name ->
// ::simt::VoidCast{} ->* x (or ConstVoidCast), which registers x's launcher when x is a kernel:
// graphs' kernel nodes and cudaLaunchKernel take kernels as `void*` (launch_api_casts.cpp).
void register_void_casts(const SourceFile& src, EditList& edits);

// __noinline__ -> __attribute__((noinline)), except inside __attribute__((...)) (keywords.cpp).
void rewrite_cuda_keywords(const SourceFile& src, EditList& edits);

// #include "name" or <name> -> #include "<path of the rewritten copy>" where `redirect` gives one.
void redirect_quoted_includes(const SourceFile& src, const IncludeRedirect& redirect,
                              EditList& edits);

// new/delete and malloc/free in __global__ and __device__ function bodies -> the emulator's
// device heap (simt/device_heap.h); calloc and realloc there are errors (device_heap.cpp).
void rewrite_device_heap(const SourceFile& src, EditList& edits);

// asm("mov.u32 %0, %%laneid;" : "=r"(x)) (and %lanemask_*) in device code -> x = the lane's
// value; any other asm in a __global__ or __device__ function is an error (inline_ptx.cpp).
void rewrite_inline_ptx(const SourceFile& src, EditList& edits);

// `#if`/`#elif` comparisons with __CUDA_ARCH__ read the emulated device's 900; a conditional that
// also tests defined(__CUDA_ARCH__) gets a compiler warning at its line (cuda_arch_conditions.cpp).
void read_cuda_arch_comparisons(const SourceFile& src, EditList& edits);

// __shared__ and __managed__ inside #define bodies are errors.
void reject_in_macros(const SourceFile& src);

// Names of textures, surfaces, CUDA arrays, graphs and graphics interop are errors that name
// the feature (unsupported_apis.cpp).
void reject_unsupported_apis(const SourceFile& src);

} // namespace simt::rewrite
