// Times batches of back-to-back calls with CUDA events: the one method behind the GPU benchmark
// (bench/) and the grader's speed harness (tools/grader/speed/). A batch is K calls between two
// events on the legacy default stream; its time per call is the batch's time / K, and a
// measurement is the spread of that over several batches (median, quartiles, extremes).
#pragma once

#include "timing.h"

#include <algorithm>
#include <cstddef>
#include <limits>
#include <vector>

namespace scanlab {

/// Enqueues `calls` calls of call() between two events and returns the GPU time per call in
/// microseconds, once the batch is done. before() runs right before the start event is enqueued
/// and after() right after the end event (the benchmark holds the GPU in between while the host
/// enqueues the batch: bench/gpu_hold.h).
template <class Call, class Before, class After>
double time_batch_us(int calls, Call&& call, Before&& before, After&& after) {
    GpuTimer timer;
    before();
    timer.start();
    for (int c = 0; c < calls; ++c) call();
    timer.stop();
    after();
    return double(timer.elapsed_ms()) * 1e3 / calls;
}

template <class Call>
double time_batch_us(int calls, Call&& call) {
    return time_batch_us(
        calls, call, [] {}, [] {});
}

/// Linear interpolation between the closest ranks of sorted values, q in [0, 1]; NaN if empty.
inline double quantile(const std::vector<double>& sorted, double q) {
    if (sorted.empty()) return std::numeric_limits<double>::quiet_NaN();
    const double at = q * double(sorted.size() - 1);
    const auto below = static_cast<std::size_t>(at);
    const std::size_t above = std::min(below + 1, sorted.size() - 1);
    return sorted[below] + (sorted[above] - sorted[below]) * (at - double(below));
}

/// The spread of a measurement's batches: the median (the mean of the middle two for an even
/// count), the quartiles and the extremes; NaN where there are none.
struct Spread {
    double median = 0, low = 0, high = 0, min = 0, max = 0;
};

inline Spread spread_of(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    const double none = std::numeric_limits<double>::quiet_NaN();
    return {quantile(values, 0.5), quantile(values, 0.25), quantile(values, 0.75),
            values.empty() ? none : values.front(), values.empty() ? none : values.back()};
}

} // namespace scanlab
