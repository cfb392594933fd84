// Stream capture's side of the runtime (simt/graphs.h): what the runtime's stream calls and
// run_launch ask before they do their work now. Internal to the runtime.
#pragma once

#include "simt/launch.h"
#include "simt/runtime_api.h"

namespace simt::detail {

// A launch that a stream capture (or a kernel node being made) takes instead of running it:
// true if it was taken.
bool capture_launch(const LaunchRequest& request, bool cooperative);
// Whether `stream` is being captured; the call that asks then adds its node with these.
bool capturing(cudaStream_t stream);
cudaError_t capture_memcpy(cudaStream_t stream, void* dst, const void* src, size_t bytes,
                           cudaMemcpyKind kind);
cudaError_t capture_memset(cudaStream_t stream, void* dst, int value, size_t bytes);
cudaError_t capture_memcpy_2d(cudaStream_t stream, void* dst, size_t dpitch, const void* src,
                              size_t spitch, size_t width, size_t height, cudaMemcpyKind kind);
cudaError_t capture_memset_2d(cudaStream_t stream, void* dst, size_t pitch, int value, size_t width,
                              size_t height);
cudaError_t capture_host_function(cudaStream_t stream, cudaHostFn_t fn, void* user_data);
// cudaEventRecord into a captured stream: the event stands for the stream's work so far.
void capture_event_record(cudaEvent_t event, cudaStream_t stream);
// An event destroyed: forget what a capture recorded in it.
void forget_captured_event(cudaEvent_t event);
// A stream destroyed: it leaves its capture, which is invalidated if it began there.
void forget_captured_stream(cudaStream_t stream);
// A call the capture of `stream` does not allow (a synchronization): invalidates the capture
// and returns the error CUDA gives.
cudaError_t refuse_in_capture(cudaStream_t stream, const char* call);

} // namespace simt::detail
