// Checks a launch the way the CUDA runtime does, then runs the grid on an Engine.
#include <memory>
#include <sstream>

#include "cooperative_launch.h"
#include "device_lock.h"
#include "engine.h"
#include "error_state.h"
#include "fault_format.h"
#include "graphs.h"
#include "memory_registry.h"
#include "launch_recorder.h"
#include "shared_limits.h"

namespace simt::detail {

namespace {
std::string dims(dim3 d) {
    std::ostringstream s;
    s << "(" << d.x << "," << d.y << "," << d.z << ")";
    return s.str();
}

thread_local cudaError_t t_last_launch_error = cudaSuccess;

void reject(cudaError_t error, const LaunchRequest& r, const std::string& why) {
    t_last_launch_error = error;
    FaultReport report;
    report.kind = FaultKind::invalid_launch;
    report.error = error;
    report.message = "simt: invalid launch of kernel " + kernel_name(r.kernel) + " with grid " +
                     dims(r.grid) + " and block " + dims(r.block) + ": " + why + "\n";
    record_fault(report);
}
} // namespace

// A launch runs on the host thread that made it, holding the device (device_lock.h): a launch
// from a second host thread waits for the running one to end.
static thread_local bool t_running_launch = false;

void run_launch(const LaunchRequest& r) {
    const bool cooperative = take_cooperative_request();
    if (t_running_launch) {
        // From a kernel's thread: the launch that made it ends here, at the line of the device
        // launch (a parent that went on without its child would compute something else).
        if (Engine* engine = active_engine(); engine && engine->current()) {
            RuntimeScope scope(engine->current());
            engine->fault(FaultKind::unsupported, cudaErrorNotSupported,
                          "launching kernel " + kernel_name(r.kernel) +
                              " from device code (dynamic parallelism) is not supported by the "
                              "simt emulator",
                          __builtin_return_address(0));
        }
        reject(cudaErrorNotSupported, r,
               "launching a kernel from device code (dynamic parallelism) is not supported by the "
               "simt emulator");
        return;
    }
    const DeviceLock device_lock;
    if (capture_launch(r, cooperative)) return; // a stream capture or a graph's kernel node
    ErrorState& state = error_state();
    t_last_launch_error = state.sticky;
    if (state.sticky != cudaSuccess) return; // a broken context runs nothing, as on a GPU
    struct Running {
        Running() { t_running_launch = true; }
        ~Running() { t_running_launch = false; }
    } running;
    const dim3 b = r.block, g = r.grid;
    const unsigned long long threads = 1ull * b.x * b.y * b.z;
    if (b.x == 0 || b.y == 0 || b.z == 0 || g.x == 0 || g.y == 0 || g.z == 0)
        return reject(cudaErrorInvalidConfiguration, r, "a grid or block dimension is 0");
    if (b.x > 1024 || b.y > 1024 || b.z > 64 || threads > 1024)
        return reject(cudaErrorInvalidConfiguration, r,
                      "a block has at most 1024 threads (x, y <= 1024, z <= 64); this one has " +
                          std::to_string(threads));
    if (g.x > 2147483647u || g.y > 65535 || g.z > 65535)
        return reject(cudaErrorInvalidConfiguration, r,
                      "grid dimensions are limited to (2^31-1, 65535, 65535)");
    const SharedLimits limits = shared_limits_for(r.kernel);
    const size_t limit = limits.dynamic;
    if (r.dynamic_shared_bytes > limit)
        return reject(
            cudaErrorInvalidValue, r,
            std::to_string(r.dynamic_shared_bytes) +
                " bytes of dynamic shared memory requested, the limit is " + std::to_string(limit) +
                (limits.block == 48 * 1024 ? " (raise it with cudaFuncSetAttribute("
                                             "cudaFuncAttributeMaxDynamicSharedMemorySize))"
                                           : ""));

    // A cooperative grid runs all its blocks at once: the engine's window of resident blocks
    // holds co_resident_blocks() of them, so every grid that fits is wholly resident.
    if (cooperative) {
        const unsigned blocks = g.x * g.y * g.z;
        const unsigned fit = co_resident_blocks(r);
        if (blocks > fit)
            return reject(cudaErrorCooperativeLaunchTooLarge, r,
                          "a cooperative launch needs all its blocks on the device at once, and "
                          "at most " +
                              std::to_string(fit) +
                              " blocks of this size and shared memory fit on the emulated device "
                              "(cudaOccupancyMaxActiveBlocksPerMultiprocessor times the "
                              "multiprocessors); this grid has " +
                              std::to_string(blocks));
    }
    GridBarrier grid_barrier(cooperative);

    // The schedule is a function of the seed and the launch alone: rerunning a launch with the
    // same seed reproduces it exactly.
    Options opts = options();
    RecordingStart recording = start_recording(r, opts);
    if (!recording.error.empty()) return reject(cudaErrorNotSupported, r, recording.error);
    std::unique_ptr<LaunchRecorder> recorder = std::move(recording.recorder);
    memory_registry().add(reinterpret_cast<uintptr_t>(r.params), r.params_bytes,
                          RegionKind::parameters, "kernel parameters", false);
    FaultReport result;
    {
        Engine engine(r, opts, limits.block);
        engine.set_recorder(recorder.get());
        result = engine.run();
    }
    if (recorder) recorder->finish(result);
    memory_registry().remove(reinterpret_cast<uintptr_t>(r.params));
    if (result.kind != FaultKind::none) {
        t_last_launch_error = result.error;
        record_fault(result);
    }
}

cudaError_t last_launch_error() {
    return t_last_launch_error;
}

} // namespace simt::detail
