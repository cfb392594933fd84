// Findings in traces: a recorded launch carries every finding of the emulator's checks with its
// accesses (recorded instruction and lane, memory object and offset, step), also for faults that
// end the launch and for blocks that were not recorded; the trace stays valid and round-trips.
#include <doctest/doctest.h>

#include <cuda_runtime.h>

#include <algorithm>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <scanlab/trace/names.h>
#include <scanlab/trace/reader.h>
#include <scanlab/trace/trace.h>
#include <scanlab/trace/writer.h>

#include "device_vector.h"
#include "planted.h"
#include "simt/options.h"
#include "simt/report.h"
#include "simt/trace.h"

namespace {
namespace st = scanlab::trace;

// A fresh seed per run, printed on failure (the checks must not depend on the data).
unsigned fresh_seed() {
    static const unsigned seed = std::random_device{}();
    return seed;
}

std::vector<int> random_ints(size_t n, unsigned seed) {
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int> digit(0, 9);
    std::vector<int> v(n);
    for (int& x : v) x = digit(rng);
    return v;
}

// Hillis-Steele in one shared array: the read of a neighbour races with its update.
__global__ void single_buffer_scan(const int* in, int* out, int n) {
    __shared__ int buf[128];
    const int i = threadIdx.x;
    buf[i] = i < n ? in[i] : 0;
    __syncthreads();
    for (int offset = 1; offset < static_cast<int>(blockDim.x); offset *= 2) {
        // BUG: single buffer read
        const int left = i >= offset ? buf[i - offset] : 0;
        // BUG: single buffer write
        buf[i] += left;
        __syncthreads();
    }
    if (i < n) out[i] = buf[i];
}

// Every thread writes out[i + 1]: the last one writes past the end.
__global__ void shifted_copy(const int* in, int* out) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const int v = in[i];
    // BUG: one past the end
    out[i + 1] = v;
}

// The last thread's word of `s` is never written, and its neighbour reads it.
__global__ void unwritten_neighbour(int* out) {
    __shared__ int s[64];
    const int i = threadIdx.x;
    if (i + 1 < static_cast<int>(blockDim.x)) s[i] = i;
    __syncthreads();
    // BUG: reads the unwritten word
    out[i] = i + 1 < static_cast<int>(blockDim.x) ? s[i + 1] : 0;
}

// Only block `racy_block` skips the barrier between the stores and its neighbour reads.
__global__ void race_in_one_block(int racy_block, int* out) {
    __shared__ int s[64];
    const int i = threadIdx.x;
    // BUG: a store that neighbours read
    s[i] = i;
    if (static_cast<int>(blockIdx.x) != racy_block) __syncthreads();
    // BUG: neighbour read without a barrier
    out[blockIdx.x * blockDim.x + i] = s[(i + 1) % blockDim.x];
}

// Threads below `waiting` wait at a barrier that the others return before.
__global__ void barrier_after_return(int waiting, int* out) {
    if (static_cast<int>(threadIdx.x) >= waiting) return;
    // BUG: a barrier some threads never reach
    __syncthreads();
    out[threadIdx.x] = 1;
}

// Every thread polls a flag that nobody sets.
__global__ void wait_forever(volatile int* flag) {
    // BUG: a flag nobody sets
    while (*flag == 0) {
    }
}

struct Recorded {
    simt::FaultReport report;
    st::Trace trace;
};

// Records one launch of `launch` (checks on, quiet) and returns its report and trace.
template <class Launch>
Recorded record(std::vector<unsigned> blocks, Launch launch) {
    const simt::Options saved = simt::options();
    simt::options().report_to_stderr = false;
    simt::reset_device();
    simt::start_tracing({.blocks = std::move(blocks), .max_instructions = 1u << 20});
    launch();
    cudaDeviceSynchronize();
    std::vector<st::Trace> traces = simt::stop_tracing();
    Recorded r{simt::last_fault(), {}};
    simt::options() = saved;
    simt::reset_device();
    REQUIRE(traces.size() == 1);
    r.trace = std::move(traces[0]);
    return r;
}

std::string path_of(const st::Trace& trace, const st::SourceLocation& where) {
    return base_name(trace.sources[where.file].path) + ":" + std::to_string(where.line);
}

std::string marker(const std::string& name) {
    return base_name(__FILE__) + ":" + std::to_string(marker_line(__FILE__, name));
}

// The trace is valid and reads back equal.
void check_round_trip(const st::Trace& trace) {
    std::ostringstream text;
    st::write_trace(trace, text);
    CHECK(text.str().find("\"version\": " + std::to_string(st::kFormatVersion)) !=
          std::string::npos);
    CHECK(st::read_trace_text(text.str()) == trace);
}

// A recorded access's lane: the instruction has the lane, for the access's thread, at its offset.
void check_recorded(const st::Trace& trace, const st::FindingAccess& a) {
    REQUIRE(a.recorded);
    const st::WarpInstruction& w = trace.instructions[a.recorded->instruction];
    CHECK(w.block == a.block);
    CHECK(a.recorded->lane == a.thread % 32);
    const auto lane = std::find_if(w.lanes.begin(), w.lanes.end(),
                                   [&](const st::LaneAccess& l) { return l.thread == a.thread; });
    REQUIRE(lane != w.lanes.end());
    REQUIRE(a.memory);
    CHECK(*a.memory == w.memory);
    CHECK(lane->offset <= a.offset);
    CHECK(a.offset < lane->offset + w.width);
    REQUIRE(a.step);
    CHECK(*a.step == w.step);
    REQUIRE(a.source);
    CHECK(path_of(trace, *a.source) == path_of(trace, w.source));
}
} // namespace

TEST_CASE("trace findings: a shared-memory race with both accesses, recorded lanes and step") {
    INFO("seed " << fresh_seed());
    std::mt19937 rng(fresh_seed());
    const int n = std::uniform_int_distribution<int>(33, 128)(rng);
    const int threads = n <= 64 ? 64 : 128;
    const std::vector<int> in = random_ints(static_cast<size_t>(n), fresh_seed());
    DeviceVector<int> d_in(in), d_out(static_cast<size_t>(n));
    const Recorded r =
        record({0}, [&] { single_buffer_scan<<<1, threads>>>(d_in.data(), d_out.data(), n); });
    // The report: structured findings with the accesses the text speaks of.
    REQUIRE(r.report.kind == simt::FaultKind::shared_race);
    REQUIRE(!r.report.findings.empty());
    const simt::Finding& first = r.report.findings.front();
    CHECK(first.kind == simt::FaultKind::shared_race);
    CHECK(!first.ends_launch);
    REQUIRE(first.accesses.size() == 2);
    for (const simt::FindingAccess& a : first.accesses) {
        CHECK(a.memory == "buf");
        CHECK(a.shared);
        CHECK(a.bytes == 4);
        CHECK(a.warp == a.thread_linear / 32);
        CHECK(a.lane == a.thread_linear % 32);
        CHECK(a.thread.x == a.thread_linear);
        CHECK(first.message.find(a.site.to_string()) != std::string::npos);
    }
    CHECK(first.accesses[0].offset == first.accesses[1].offset);
    CHECK(first.accesses[0].thread_linear != first.accesses[1].thread_linear);
    CHECK(r.report.site.to_string() == first.site.to_string());

    // The trace: every finding, none of them clean.
    const st::Trace& t = r.trace;
    REQUIRE(t.findings.size() == r.report.findings.size());
    const st::Finding& f = t.findings.front();
    CHECK(f.kind == st::FindingKind::shared_race);
    CHECK(f.message == first.message);
    REQUIRE(f.source);
    const std::string read = marker("single buffer read"), write = marker("single buffer write");
    CHECK((path_of(t, *f.source) == read || path_of(t, *f.source) == write));
    REQUIRE(f.accesses.size() == 2);
    bool load = false, store = false;
    for (const st::FindingAccess& a : f.accesses) {
        CHECK(a.block == 0);
        check_recorded(t, a);
        CHECK(t.memory[*a.memory].name == "buf");
        CHECK(a.offset == first.accesses[0].offset);
        const std::string line = path_of(t, *a.source);
        if (a.role == st::FindingRole::load) load = line == read;
        if (a.role == st::FindingRole::store) store = line == write;
    }
    CHECK(load);
    CHECK(store);
    check_round_trip(t);
}

TEST_CASE("trace findings: an out-of-bounds store ends the launch and is a finding") {
    INFO("seed " << fresh_seed());
    std::mt19937 rng(fresh_seed());
    const unsigned blocks = std::uniform_int_distribution<unsigned>(1, 3)(rng);
    const size_t n = blocks * 32;
    DeviceVector<int> d_in(random_ints(n, fresh_seed())), d_out(n);
    const Recorded r =
        record({0}, [&] { shifted_copy<<<blocks, 32>>>(d_in.data(), d_out.data()); });
    REQUIRE(r.report.kind == simt::FaultKind::illegal_address);
    REQUIRE(!r.report.findings.empty());
    const simt::Finding& fault = r.report.findings.back();
    CHECK(fault.ends_launch);
    REQUIRE(fault.accesses.size() == 1);
    const simt::FindingAccess& access = fault.accesses[0];
    CHECK(access.role == simt::AccessRole::store);
    CHECK(access.block_linear == blocks - 1); // the last thread of the grid writes past the end
    CHECK(access.thread_linear == 31);
    CHECK(access.memory.empty()); // past the end of every allocation
    CHECK(access.bytes == 4);
    CHECK(access.site.to_string() == marker("one past the end"));

    const st::Finding& f = r.trace.findings.back();
    CHECK(f.kind == st::FindingKind::illegal_address);
    CHECK(f.ends_launch);
    REQUIRE(f.source);
    CHECK(path_of(r.trace, *f.source) == marker("one past the end"));
    REQUIRE(f.accesses.size() == 1);
    const st::FindingAccess& a = f.accesses[0];
    CHECK(a.role == st::FindingRole::store);
    CHECK(a.block == blocks - 1);
    CHECK(a.thread == 31);
    CHECK(!a.memory);                           // outside every object
    CHECK(!a.recorded);                         // it faulted before it happened
    CHECK(a.step.has_value() == (blocks == 1)); // only block 0 was recorded
    if (a.step) CHECK(r.trace.steps[*a.step].block == 0);
    check_round_trip(r.trace);
}

TEST_CASE("trace findings: an uninitialized shared read names the word and the recorded lane") {
    INFO("seed " << fresh_seed());
    std::mt19937 rng(fresh_seed());
    const unsigned threads = std::uniform_int_distribution<unsigned>(2, 64)(rng);
    DeviceVector<int> d_out(threads);
    const Recorded r = record({}, [&] { unwritten_neighbour<<<1, threads>>>(d_out.data()); });
    REQUIRE(r.report.kind == simt::FaultKind::uninitialized_read);
    const simt::Finding& first = r.report.findings.front();
    REQUIRE(first.accesses.size() == 1);
    CHECK(first.accesses[0].memory == "s");
    CHECK(first.accesses[0].offset == 4 * (threads - 1));
    CHECK(first.accesses[0].thread_linear == threads - 2);

    const st::Finding& f = r.trace.findings.front();
    CHECK(f.kind == st::FindingKind::uninitialized_shared_read);
    REQUIRE(f.source);
    CHECK(path_of(r.trace, *f.source) == marker("reads the unwritten word"));
    REQUIRE(f.accesses.size() == 1);
    const st::FindingAccess& a = f.accesses[0];
    CHECK(a.role == st::FindingRole::load);
    CHECK(a.thread == threads - 2);
    check_recorded(r.trace, a);
    CHECK(r.trace.memory[*a.memory].name == "s");
    CHECK(a.offset == 4 * (threads - 1));
    check_round_trip(r.trace);
}

TEST_CASE(
    "trace findings: findings of a block that was not recorded are listed without references") {
    INFO("seed " << fresh_seed());
    std::mt19937 rng(fresh_seed());
    const int racy = std::uniform_int_distribution<int>(0, 1)(rng);
    const unsigned recorded = 1u - static_cast<unsigned>(racy);
    DeviceVector<int> d_out(128);
    const Recorded r =
        record({recorded}, [&] { race_in_one_block<<<2, 64>>>(racy, d_out.data()); });
    REQUIRE(!r.trace.findings.empty());
    CHECK(r.trace.findings.size() == r.report.findings.size());
    for (const st::Finding& f : r.trace.findings) {
        REQUIRE(f.source);
        // A read of a neighbour's word, or a store after another warp's read of it.
        const std::string line = path_of(r.trace, *f.source);
        CHECK((line == marker("neighbour read without a barrier") ||
               line == marker("a store that neighbours read")));
        REQUIRE(!f.accesses.empty());
        for (const st::FindingAccess& a : f.accesses) {
            CHECK(a.block == static_cast<unsigned>(racy));
            CHECK(!a.recorded);
            CHECK(!a.step);
            REQUIRE(a.memory); // still named: a shared object of the racy block
            CHECK(r.trace.memory[*a.memory].block == static_cast<unsigned>(racy));
            CHECK(r.trace.memory[*a.memory].name == "s");
        }
    }
    // The recorded block ran clean: its instructions are there, with no finding pointing at them.
    bool recorded_block_has_instructions = false;
    for (const st::WarpInstruction& w : r.trace.instructions)
        recorded_block_has_instructions = recorded_block_has_instructions || w.block == recorded;
    CHECK(recorded_block_has_instructions);
    check_round_trip(r.trace);
}

TEST_CASE("trace findings: a clean launch has none") {
    DeviceVector<int> d_out(64);
    const Recorded clean = record({0}, [&] { race_in_one_block<<<1, 64>>>(-1, d_out.data()); });
    CHECK(clean.report.kind == simt::FaultKind::none);
    CHECK(clean.report.findings.empty());
    CHECK(clean.trace.findings.empty());
    CHECK(!clean.trace.instructions.empty());
    check_round_trip(clean.trace);
}

TEST_CASE("trace findings: barrier divergence and a deadlock name where the threads wait") {
    INFO("seed " << fresh_seed());
    std::mt19937 rng(fresh_seed());
    const int waiting = std::uniform_int_distribution<int>(1, 31)(rng);
    DeviceVector<int> out(32);
    const Recorded divergence =
        record({0}, [&] { barrier_after_return<<<1, 32>>>(waiting, out.data()); });
    REQUIRE(divergence.report.kind == simt::FaultKind::barrier_divergence);
    const st::Finding& d = divergence.trace.findings.back();
    CHECK(d.kind == st::FindingKind::barrier_divergence);
    CHECK(d.ends_launch);
    bool waits_at_barrier = false, exited = false;
    for (const st::FindingAccess& a : d.accesses) {
        CHECK(a.bytes == 0);
        CHECK(!a.recorded);
        REQUIRE(a.step); // the block was recorded: the step it was in
        if (a.role == st::FindingRole::wait) {
            REQUIRE(a.source);
            waits_at_barrier = path_of(divergence.trace, *a.source) ==
                                   marker("a barrier some threads never reach") &&
                               a.thread < static_cast<unsigned>(waiting);
        }
        if (a.role == st::FindingRole::execute)
            exited = a.thread >= static_cast<unsigned>(waiting) && !a.source;
    }
    CHECK(waits_at_barrier);
    CHECK(exited);
    check_round_trip(divergence.trace);

    DeviceVector<int> flag(std::vector<int>{0});
    const unsigned threads = std::uniform_int_distribution<unsigned>(1, 64)(rng);
    // At the default spin limit (4 M polls) the polls fill the trace's million instructions: 26 s
    // of CPU here and minutes under qemu, for the same deadlock found after 64 K polls.
    const uint64_t default_spin_limit = simt::options().spin_limit;
    simt::options().spin_limit = 1u << 16;
    const Recorded deadlock = record({0}, [&] { wait_forever<<<1, threads>>>(flag.data()); });
    simt::options().spin_limit = default_spin_limit;
    REQUIRE(deadlock.report.kind == simt::FaultKind::deadlock);
    const st::Finding& f = deadlock.trace.findings.back();
    CHECK(f.kind == st::FindingKind::deadlock);
    CHECK(f.ends_launch);
    REQUIRE(!f.accesses.empty());
    for (const st::FindingAccess& a : f.accesses) {
        CHECK(a.role == st::FindingRole::wait);
        CHECK(a.thread < threads);
        REQUIRE(a.source);
        CHECK(path_of(deadlock.trace, *a.source) == marker("a flag nobody sets"));
    }
    check_round_trip(deadlock.trace);
}
