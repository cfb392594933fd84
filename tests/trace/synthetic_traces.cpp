#include "synthetic_traces.h"

#include <array>
#include <stdexcept>
#include <vector>

#include "trace_recorder.h"

namespace scanlab::trace::testing {
namespace {

using Lane = TraceRecorder::Lane;

LaunchInfo launch_of(const char* kernel, std::uint32_t blocks, std::uint32_t threads) {
    LaunchInfo launch;
    launch.kernel = kernel;
    launch.grid = {blocks, 1, 1};
    launch.block = {threads, 1, 1};
    launch.seed = 1;
    return launch;
}

template <class T>
Lane lane_at(std::uint32_t lane, std::uint64_t index, T value) {
    return {lane, index * sizeof(T), ValueBytes::of(value), {}};
}

constexpr const char* kNaiveSource =
    R"(// Hillis-Steele inclusive scan of one block, double-buffered in shared memory.
__global__ void naive_scan(const int* in, int* out, int n) {
    __shared__ int temp[2 * BLOCK];
    int tid = threadIdx.x;
    int pout = 0, pin = 1;
    temp[pout * n + tid] = in[tid];
    __syncthreads();
    for (int offset = 1; offset < n; offset *= 2) {
        pout = 1 - pout;
        pin = 1 - pout;
        if (tid >= offset)
            temp[pout * n + tid] = temp[pin * n + tid - offset] + temp[pin * n + tid];
        else
            temp[pout * n + tid] = temp[pin * n + tid];
        __syncthreads();
    }
    out[tid] = temp[pout * n + tid];
}
)";

constexpr const char* kBankSource =
    R"(// Shared-memory access patterns and the bank conflicts they cause (32 banks of 4 bytes).
#define PAD(k) ((k) + (k) / 32)
__global__ void bank_patterns(int* out) {
    __shared__ int words[1024];
    __shared__ double wide[512];
    __shared__ int4 quads[64];
    int i = threadIdx.x;
    words[i] = i;                             // stride 1: conflict-free
    __syncthreads();
    words[2 * i] = i;                         // stride 2: 1 conflict
    __syncthreads();
    words[4 * i] = i;                         // stride 4: 3 conflicts
    __syncthreads();
    words[8 * i] = i;                         // stride 8: 7 conflicts
    __syncthreads();
    words[16 * i] = i;                        // stride 16: 15 conflicts
    __syncthreads();
    words[32 * i] = i;                        // stride 32: 31 conflicts
    __syncthreads();
    words[PAD(32 * i)] = i;                   // stride 32, padded: conflict-free
    __syncthreads();
    out[i] = words[0];                        // broadcast: conflict-free
    __syncthreads();
    wide[i] = 0.5 * i;                        // 64-bit stride 1: conflict-free
    __syncthreads();
    wide[2 * i] = 0.5 * i;                    // 64-bit stride 2: 2 conflicts
    __syncthreads();
    wide[16 * i] = 0.5 * i;                   // 64-bit stride 16: 30 conflicts
    __syncthreads();
    quads[i] = make_int4(i, i, i, i);         // 128-bit stride 1: conflict-free
    __syncthreads();
    quads[2 * i] = make_int4(i, i, i, i);     // 128-bit stride 2: 4 conflicts
}
)";

constexpr const char* kLookbackSource =
    R"(// Single-pass scan with decoupled look-back: one warp and one 32-item tile per block.
__global__ void lookback_scan(const int* in, int* out, unsigned long long* status,
                              unsigned* tile_counter) {
    __shared__ unsigned s_tile;
    int lane = threadIdx.x;
    if (lane == 0) s_tile = atomicAdd(tile_counter, 1u);  // dynamic tile id
    __syncthreads();
    unsigned tile = s_tile;
    int inclusive = warp_inclusive_scan(in[tile * 32 + lane]);
    if (lane == 31) publish(status, tile, tile == 0 ? FLAG_P : FLAG_A, inclusive);
    int prefix = 0;
    if (lane == 0 && tile > 0) prefix = look_back(status, tile);  // spins while FLAG_X
    prefix = __shfl_sync(0xffffffffu, prefix, 0);
    if (lane == 31 && tile > 0) publish(status, tile, FLAG_P, prefix + inclusive);
    out[tile * 32 + lane] = prefix + inclusive;
}
)";

constexpr const char* kPrescanSource =
    R"(// Work-efficient (Blelloch) exclusive scan, GPU Gems 3 chapter 39 layout.
#define CONFLICT_FREE_OFFSET(k) (PADDED ? (k) >> 5 : 0)
__global__ void prescan(int* g_odata, const int* g_idata, int n) {
    extern __shared__ int temp[];
    int thid = threadIdx.x;
    int offset = 1;
    int ai = thid, bi = thid + n / 2;
    temp[ai + CONFLICT_FREE_OFFSET(ai)] = g_idata[ai];
    temp[bi + CONFLICT_FREE_OFFSET(bi)] = g_idata[bi];
    for (int d = n >> 1; d > 0; d >>= 1) {
        __syncthreads();
        if (thid < d) {
            int a = offset * (2 * thid + 1) - 1, b = offset * (2 * thid + 2) - 1;
            temp[b + CONFLICT_FREE_OFFSET(b)] += temp[a + CONFLICT_FREE_OFFSET(a)];
        }
        offset *= 2;
    }
    if (thid == 0) temp[n - 1 + CONFLICT_FREE_OFFSET(n - 1)] = 0;
    for (int d = 1; d < n; d *= 2) {
        offset >>= 1;
        __syncthreads();
        if (thid < d) {
            int a = offset * (2 * thid + 1) - 1, b = offset * (2 * thid + 2) - 1;
            int t = temp[a + CONFLICT_FREE_OFFSET(a)];
            temp[a + CONFLICT_FREE_OFFSET(a)] = temp[b + CONFLICT_FREE_OFFSET(b)];
            temp[b + CONFLICT_FREE_OFFSET(b)] += t;
        }
    }
    __syncthreads();
    g_odata[ai] = temp[ai + CONFLICT_FREE_OFFSET(ai)];
    g_odata[bi] = temp[bi + CONFLICT_FREE_OFFSET(bi)];
}
)";

constexpr const char* kMinimalSource = R"(// Reverse four ints through shared memory.
__global__ void reverse4(const int* in, int* out) {
    __shared__ int s[4];
    int i = threadIdx.x;
    s[i] = in[i];
    __syncthreads();
    out[i] = s[3 - i];
}
)";

} // namespace

Trace hillis_steele_trace(std::uint32_t n) {
    if (n == 0 || n > 1024) throw std::invalid_argument("hillis_steele_trace: n must be 1..1024");
    TraceRecorder r(launch_of("naive_scan", 1, n));
    const std::uint32_t file = r.add_source("labs/01_naive/naive_scan.cu", kNaiveSource);
    const std::uint32_t in = r.add_global("in", 4 * n, "int", 4);
    const std::uint32_t out = r.add_global("out", 4 * n, "int", 4);
    const std::uint32_t temp = r.add_shared("temp", 0, 0, 8 * n, "int", 4);
    constexpr std::array<int, 16> kInput{3, 1, 7, 0, 4, 1, 6, 3, 5, 2, 8, 1, 9, 4, 2, 6};
    std::array<std::vector<int>, 2> buffer{std::vector<int>(n), std::vector<int>(n)};
    const std::uint32_t warps = (n + kWarpSize - 1) / kWarpSize;

    // The active lanes of warp w whose thread satisfies `active`.
    const auto lanes = [&](std::uint32_t w, auto active, auto make) {
        std::vector<Lane> result;
        for (std::uint32_t lane = 0; lane < kWarpSize; ++lane) {
            const std::uint32_t t = w * kWarpSize + lane;
            if (t < n && active(t)) result.push_back(make(lane, t));
        }
        return result;
    };
    const auto all = [](std::uint32_t) { return true; };
    const auto record = [&](std::uint32_t w, std::uint32_t line, AccessKind kind,
                            std::uint32_t memory, const std::vector<Lane>& active) {
        if (!active.empty())
            r.access(0, w, r.at(file, line), kind, memory, 4, ValueType::i32, active);
    };

    r.block_start(0, 0);
    int pout = 0;
    int pin = 1;
    for (std::uint32_t w = 0; w < warps; ++w) {
        const auto input = [&](std::uint32_t lane, std::uint32_t t) {
            buffer[pout][t] = kInput[t % kInput.size()];
            return lane_at(lane, t, buffer[pout][t]);
        };
        record(w, 6, AccessKind::load, in, lanes(w, all, input));
        record(w, 6, AccessKind::store, temp,
               lanes(w, all, [&](std::uint32_t lane, std::uint32_t t) {
                   return lane_at(lane, pout * n + t, buffer[pout][t]);
               }));
    }
    r.barrier(0, r.at(file, 7));
    for (std::uint32_t offset = 1; offset < n; offset *= 2) {
        pout = 1 - pout;
        pin = 1 - pout;
        const auto read = [&](std::uint32_t delta) {
            return [&, delta](std::uint32_t lane, std::uint32_t t) {
                return lane_at(lane, pin * n + t - delta, buffer[pin][t - delta]);
            };
        };
        const auto write = [&](std::uint32_t lane, std::uint32_t t) {
            return lane_at(lane, pout * n + t, buffer[pout][t]);
        };
        const auto taken = [&](std::uint32_t t) { return t >= offset; };
        const auto not_taken = [&](std::uint32_t t) { return t < offset; };
        for (std::uint32_t t = 0; t < n; ++t)
            buffer[pout][t] =
                t >= offset ? buffer[pin][t - offset] + buffer[pin][t] : buffer[pin][t];
        for (std::uint32_t w = 0; w < warps; ++w) {
            // Lockstep: the taken branch runs first, then the other, as on pre-Volta SIMT.
            record(w, 12, AccessKind::load, temp, lanes(w, taken, read(offset)));
            record(w, 12, AccessKind::load, temp, lanes(w, taken, read(0)));
            record(w, 12, AccessKind::store, temp, lanes(w, taken, write));
            record(w, 14, AccessKind::load, temp, lanes(w, not_taken, read(0)));
            record(w, 14, AccessKind::store, temp, lanes(w, not_taken, write));
        }
        r.barrier(0, r.at(file, 15));
    }
    for (std::uint32_t w = 0; w < warps; ++w) {
        record(w, 17, AccessKind::load, temp,
               lanes(w, all, [&](std::uint32_t lane, std::uint32_t t) {
                   return lane_at(lane, pout * n + t, buffer[pout][t]);
               }));
        record(w, 17, AccessKind::store, out,
               lanes(w, all, [&](std::uint32_t lane, std::uint32_t t) {
                   return lane_at(lane, t, buffer[pout][t]);
               }));
    }
    r.block_end(0);
    return r.finish();
}

Trace bank_patterns_trace() {
    TraceRecorder r(launch_of("bank_patterns", 1, 32));
    const std::uint32_t file = r.add_source("tests/trace/bank_patterns.cu", kBankSource);
    const std::uint32_t words = r.add_shared("words", 0, 0, 4096, "int", 4);
    const std::uint32_t wide = r.add_shared("wide", 0, 4096, 4096, "double", 8);
    const std::uint32_t quads = r.add_shared("quads", 0, 8192, 1024, "int4", 16);
    const std::uint32_t out = r.add_global("out", 128, "int", 4);

    const auto warp = [](auto make) {
        std::vector<Lane> lanes;
        for (std::uint32_t i = 0; i < kWarpSize; ++i) lanes.push_back(make(i));
        return lanes;
    };
    const auto words_store = [&](std::uint32_t line, auto index) {
        r.access(0, 0, r.at(file, line), AccessKind::store, words, 4, ValueType::i32,
                 warp([&](std::uint32_t i) { return lane_at(i, index(i), static_cast<int>(i)); }));
        r.barrier(0, r.at(file, line + 1));
    };

    r.block_start(0, 0);
    std::uint32_t line = 8;
    for (std::uint32_t stride = 1; stride <= 32; stride *= 2, line += 2)
        words_store(line, [stride](std::uint32_t i) { return stride * i; });
    words_store(line, [](std::uint32_t i) { return 32 * i + (32 * i) / 32; });
    line += 2;
    r.access(0, 0, r.at(file, line), AccessKind::load, words, 4, ValueType::i32,
             warp([](std::uint32_t i) { return lane_at(i, 0, 0); }));
    r.access(0, 0, r.at(file, line), AccessKind::store, out, 4, ValueType::i32,
             warp([](std::uint32_t i) { return lane_at(i, i, 0); }));
    r.barrier(0, r.at(file, line + 1));
    line += 2;
    for (const std::uint32_t stride : {1u, 2u, 16u}) {
        r.access(0, 0, r.at(file, line), AccessKind::store, wide, 8, ValueType::f64,
                 warp([stride](std::uint32_t i) { return lane_at(i, stride * i, 0.5 * i); }));
        r.barrier(0, r.at(file, line + 1));
        line += 2;
    }
    for (const std::uint32_t stride : {1u, 2u}) {
        r.access(0, 0, r.at(file, line), AccessKind::store, quads, 16, ValueType::i32,
                 warp([stride](std::uint32_t i) {
                     const int v = static_cast<int>(i);
                     return lane_at(i, stride * i, std::array<int, 4>{v, v, v, v});
                 }));
        if (stride == 1) r.barrier(0, r.at(file, line + 1));
        line += 2;
    }
    r.block_end(0);
    return r.finish();
}

Trace lookback_trace() {
    constexpr std::uint32_t kBlocks = 4;
    constexpr std::uint32_t kTile = 32;
    TraceRecorder r(launch_of("lookback_scan", kBlocks, kTile));
    const std::uint32_t file =
        r.add_source("labs/07_decoupled_lookback/lookback_scan.cu", kLookbackSource);
    const std::uint32_t in = r.add_global("in", 4 * kBlocks * kTile, "int", 4);
    const std::uint32_t out = r.add_global("out", 4 * kBlocks * kTile, "int", 4);
    const std::uint32_t status = r.add_global("status", 8 * kBlocks, "unsigned long long", 8);
    const std::uint32_t counter = r.add_global("tile_counter", 4, "unsigned", 4);
    const std::array<std::uint32_t, 2> s_tile{r.add_shared("s_tile", 0, 0, 4, "unsigned", 4),
                                              r.add_shared("s_tile", 1, 0, 4, "unsigned", 4)};

    std::array<int, kBlocks * kTile> input{};
    for (std::size_t i = 0; i < input.size(); ++i) input[i] = static_cast<int>((i * 7) % 10);
    std::array<int, kBlocks> aggregate{};
    for (std::size_t i = 0; i < input.size(); ++i) aggregate[i / kTile] += input[i];

    // Packed tile descriptor: flag in the high word, value in the low word.
    const auto descriptor = [](TileFlag flag, int value) {
        return (std::uint64_t{static_cast<std::uint8_t>(flag)} << 32) |
               static_cast<std::uint32_t>(value);
    };
    const auto one_lane = [](std::uint32_t lane, std::uint64_t index, auto value) {
        return std::vector<Lane>{lane_at(lane, index, value)};
    };
    const auto warp = [](auto make) {
        std::vector<Lane> lanes;
        for (std::uint32_t i = 0; i < kTile; ++i) lanes.push_back(make(i));
        return lanes;
    };
    const auto flag = [&](std::uint32_t block, std::uint32_t tile, TileFlag f, int value) {
        r.tile_flag(block, tile, f, ValueType::i32, ValueBytes::of(value));
    };
    const auto look = [&](std::uint32_t block, std::uint32_t tile, TileFlag f, int value,
                          std::uint64_t reads = 1) {
        if (f == TileFlag::X)
            r.tile_look(block, tile, f, ValueType::none, {}, reads);
        else
            r.tile_look(block, tile, f, ValueType::i32, ValueBytes::of(value), reads);
    };
    const auto publish = [&](std::uint32_t block, std::uint32_t tile, TileFlag f, int value) {
        r.access(block, 0, r.at(file, f == TileFlag::P && tile > 0 ? 14 : 10), AccessKind::store,
                 status, 8, ValueType::u64, one_lane(31, tile, descriptor(f, value)));
        flag(block, tile, f, value);
    };
    // Block b takes tile b (in-order dispatch); only blocks 0 and 1 record instructions.
    const auto take_tile = [&](std::uint32_t block) {
        Lane lane = lane_at(0, 0, block + 1);
        lane.old = ValueBytes::of(block);
        r.access(block, 0, r.at(file, 6), AccessKind::atomic, counter, 4, ValueType::u32, {lane});
        r.access(block, 0, r.at(file, 6), AccessKind::store, s_tile[block], 4, ValueType::u32,
                 one_lane(0, 0, block));
        r.barrier(block, r.at(file, 7));
    };
    const auto load_tile = [&](std::uint32_t block) {
        // Every lane reads the same word: a broadcast.
        r.access(block, 0, r.at(file, 8), AccessKind::load, s_tile[block], 4, ValueType::u32,
                 warp([&](std::uint32_t i) { return lane_at(i, 0, block); }));
        r.access(block, 0, r.at(file, 9), AccessKind::load, in, 4, ValueType::i32,
                 warp([&](std::uint32_t i) {
                     return lane_at(i, block * kTile + i, input[block * kTile + i]);
                 }));
    };
    const auto store_out = [&](std::uint32_t block, int prefix) {
        int running = prefix;
        r.access(block, 0, r.at(file, 15), AccessKind::store, out, 4, ValueType::i32,
                 warp([&](std::uint32_t i) {
                     running += input[block * kTile + i];
                     return lane_at(i, block * kTile + i, running);
                 }));
    };

    r.block_start(0, 0);
    r.block_start(1, 1);
    take_tile(0);
    take_tile(1);
    load_tile(0);
    load_tile(1);
    publish(1, 1, TileFlag::A, aggregate[1]);
    // Tile 1 looks back while tile 0 has not published: it sees X and spins.
    r.access(1, 0, r.at(file, 12), AccessKind::load, status, 8, ValueType::u64,
             one_lane(0, 0, descriptor(TileFlag::X, 0)));
    look(1, 0, TileFlag::X, 0, 3); // three polls that found X
    publish(0, 0, TileFlag::P, aggregate[0]);
    r.access(1, 0, r.at(file, 12), AccessKind::load, status, 8, ValueType::u64,
             one_lane(0, 0, descriptor(TileFlag::P, aggregate[0])));
    look(1, 0, TileFlag::P, aggregate[0]);
    publish(1, 1, TileFlag::P, aggregate[0] + aggregate[1]);
    store_out(0, 0);
    r.block_end(0);
    // Blocks 2 and 3 are not recorded: only their schedule and tile flags.
    r.block_start(2, 0);
    store_out(1, aggregate[0]);
    r.block_end(1);
    r.block_start(3, 1);
    flag(2, 2, TileFlag::A, aggregate[2]);
    flag(3, 3, TileFlag::A, aggregate[3]);
    // Tile 3 finds tile 2's aggregate and tile 1's prefix: prefix = P1 + A2.
    look(3, 2, TileFlag::A, aggregate[2]);
    look(2, 1, TileFlag::P, aggregate[0] + aggregate[1]);
    look(3, 1, TileFlag::P, aggregate[0] + aggregate[1]);
    flag(2, 2, TileFlag::P, aggregate[0] + aggregate[1] + aggregate[2]);
    r.block_end(2);
    flag(3, 3, TileFlag::P, aggregate[0] + aggregate[1] + aggregate[2] + aggregate[3]);
    r.block_end(3);
    return r.finish(Truncation{TruncationLimit::max_blocks, 2,
                               "instructions were recorded for blocks 0 and 1 only; block events "
                               "cover all 4 blocks"});
}

Trace harris_prescan_trace(bool padded) {
    constexpr std::uint32_t kN = 2048;
    constexpr std::uint32_t kThreads = kN / 2;
    const auto pad = [padded](std::uint32_t k) { return padded ? k + k / 32 : k; };
    LaunchInfo launch = launch_of("prescan", 1, kThreads);
    launch.dynamic_shared_bytes = 4 * pad(kN - 1) + 4;
    TraceRecorder r(launch);
    const std::uint32_t file =
        r.add_source(padded ? "prescan_padded.cu" : "prescan.cu", kPrescanSource);
    const std::uint32_t temp = r.add_shared("temp", 0, 0, launch.dynamic_shared_bytes, "int", 4);

    // Each warp's access to temp[pad(index(t))] by its threads t with active(t).
    const auto access = [&](std::uint32_t line, AccessKind kind, auto active, auto index) {
        for (std::uint32_t w = 0; w < kThreads / kWarpSize; ++w) {
            std::vector<Lane> lanes;
            for (std::uint32_t lane = 0; lane < kWarpSize; ++lane) {
                const std::uint32_t t = w * kWarpSize + lane;
                if (active(t)) lanes.push_back({lane, 4 * std::uint64_t{pad(index(t))}, {}, {}});
            }
            if (!lanes.empty())
                r.access(0, w, r.at(file, line), kind, temp, 4, ValueType::none, lanes);
        }
    };
    const auto all = [](std::uint32_t) { return true; };
    const auto ai = [](std::uint32_t t) { return t; };
    const auto bi = [](std::uint32_t t) { return t + kN / 2; };

    r.block_start(0, 0);
    access(8, AccessKind::store, all, ai);
    access(9, AccessKind::store, all, bi);
    std::uint32_t offset = 1;
    for (std::uint32_t d = kN >> 1; d > 0; d >>= 1) {
        r.barrier(0, r.at(file, 11));
        const auto active = [d](std::uint32_t t) { return t < d; };
        const auto a = [offset](std::uint32_t t) { return offset * (2 * t + 1) - 1; };
        const auto b = [offset](std::uint32_t t) { return offset * (2 * t + 2) - 1; };
        access(14, AccessKind::load, active, a);
        access(14, AccessKind::load, active, b);
        access(14, AccessKind::store, active, b);
        offset *= 2;
    }
    access(
        18, AccessKind::store, [](std::uint32_t t) { return t == 0; },
        [](std::uint32_t) { return kN - 1; });
    for (std::uint32_t d = 1; d < kN; d *= 2) {
        offset >>= 1;
        r.barrier(0, r.at(file, 21));
        const auto active = [d](std::uint32_t t) { return t < d; };
        const auto a = [offset](std::uint32_t t) { return offset * (2 * t + 1) - 1; };
        const auto b = [offset](std::uint32_t t) { return offset * (2 * t + 2) - 1; };
        access(24, AccessKind::load, active, a);
        access(25, AccessKind::load, active, b);
        access(25, AccessKind::store, active, a);
        access(26, AccessKind::load, active, b);
        access(26, AccessKind::store, active, b);
    }
    r.barrier(0, r.at(file, 29));
    access(30, AccessKind::load, all, ai);
    access(31, AccessKind::load, all, bi);
    r.block_end(0);
    return r.finish();
}

Trace minimal_trace() {
    TraceRecorder r(launch_of("reverse4", 1, 4));
    const std::uint32_t file = r.add_source("examples/reverse4.cu", kMinimalSource);
    const std::uint32_t in = r.add_global("in", 16, "int", 4);
    const std::uint32_t out = r.add_global("out", 16, "int", 4);
    const std::uint32_t s = r.add_shared("s", 0, 0, 16, "int", 4);
    const std::array<int, 4> input{10, 20, 30, 40};
    const auto lanes = [&](auto index, auto value) {
        std::vector<Lane> result;
        for (std::uint32_t i = 0; i < 4; ++i) result.push_back(lane_at(i, index(i), value(i)));
        return result;
    };
    const auto same = [](std::uint32_t i) { return i; };
    const auto mirrored = [](std::uint32_t i) { return 3 - i; };
    const auto loaded = [&](std::uint32_t i) { return input[i]; };
    const auto reversed = [&](std::uint32_t i) { return input[3 - i]; };

    r.block_start(0, 0);
    r.access(0, 0, r.at(file, 5), AccessKind::load, in, 4, ValueType::i32, lanes(same, loaded));
    r.access(0, 0, r.at(file, 5), AccessKind::store, s, 4, ValueType::i32, lanes(same, loaded));
    r.barrier(0, r.at(file, 6));
    r.access(0, 0, r.at(file, 7), AccessKind::load, s, 4, ValueType::i32,
             lanes(mirrored, reversed));
    r.access(0, 0, r.at(file, 7), AccessKind::store, out, 4, ValueType::i32, lanes(same, reversed));
    r.block_end(0);
    return r.finish();
}

} // namespace scanlab::trace::testing
