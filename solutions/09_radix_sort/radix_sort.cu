// Lab 09: one-sweep radix sort (Adinets and Merrill, 2022), built from the course's own pieces:
// a histogram, lab 05's block scan, and lab 07's decoupled look-back, one descriptor per digit.
// SOLUTION.
#include "radix_sort.h"

#include <scanlab/cuda_check.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace lab09 {

inline constexpr unsigned kFullMask = 0xffffffffu;
inline constexpr int kWarps = kBlockThreads / kWarpSize;
static_assert(kBlockThreads == kDigits, "the look-back gives each thread one digit");

using Bits = std::uint32_t; // every key and value is moved as its 32 bits

// Loops over a thread's keys are unrolled on the GPU: nvcc keeps a register array in registers
// only when every index is a constant, and it unrolls 32 iterations only when told. (The
// emulator's C++ compiler does not know the pragma, and needs none.)
#if defined(__CUDACC__)
#define LAB09_UNROLL _Pragma("unroll")
#else
#define LAB09_UNROLL
#endif

__device__ inline int lane_id() {
    return static_cast<int>(threadIdx.x) % kWarpSize;
}
__device__ inline int warp_id() {
    return static_cast<int>(threadIdx.x) / kWarpSize;
}

// =============================================================================================
// GIVEN, Part 0: keys as unsigned bits in sort order (README.md, Part 0)
// =============================================================================================

// Radix sort compares bits, so the bits of a key must order like the key itself. Unsigned
// integers already do. Two's complement integers do once the sign bit is flipped (negative
// numbers then start with 0). IEEE floats store sign and magnitude: flip the sign bit of a
// positive float, and every bit of a negative one (a larger magnitude is then a smaller number).
enum class KeyOrder { unsigned_bits, signed_int, ieee_float };

template <class Key>
inline constexpr KeyOrder kOrderOf = std::is_same_v<Key, float> ? KeyOrder::ieee_float
                                     : std::is_signed_v<Key>    ? KeyOrder::signed_int
                                                                : KeyOrder::unsigned_bits;

template <KeyOrder Order>
__host__ __device__ inline Bits to_sort_order(Bits key) {
    if constexpr (Order == KeyOrder::ieee_float)
        return (key & 0x80000000u) ? ~key : key ^ 0x80000000u;
    if constexpr (Order == KeyOrder::signed_int) return key ^ 0x80000000u;
    return key;
}

template <KeyOrder Order>
__host__ __device__ inline Bits from_sort_order(Bits bits) {
    if constexpr (Order == KeyOrder::ieee_float)
        return (bits & 0x80000000u) ? bits ^ 0x80000000u : ~bits;
    if constexpr (Order == KeyOrder::signed_int) return bits ^ 0x80000000u;
    return bits;
}

__device__ inline int digit_of(Bits bits, int shift) {
    return static_cast<int>((bits >> shift) & (kDigits - 1));
}

// =============================================================================================
// Part 1: one histogram per pass, all from one read of the keys
// =============================================================================================

inline constexpr int kHistogramThreads = 256;

// histograms[p * kDigits + d] counts the keys whose digit p is d. Each block counts its share in
// shared memory (fast atomics, little contention) and adds its counts to the global ones once.
template <KeyOrder Order>
__global__ void __launch_bounds__(kHistogramThreads)
    histogram_kernel(const Bits* keys, long long n, unsigned* histograms) {
    __shared__ unsigned counts[kPasses * kDigits];
    for (int i = threadIdx.x; i < kPasses * kDigits; i += blockDim.x) counts[i] = 0;
    __syncthreads();
    // Four keys per load (16 bytes): fewer loads to wait for. The keys before the first 16-byte
    // boundary and the last (n - head) % 4 are counted one by one.
    auto count_key = [&](Bits key) {
        const Bits bits = to_sort_order<Order>(key);
        for (int pass = 0; pass < kPasses; ++pass)
            atomicAdd(&counts[pass * kDigits + digit_of(bits, pass * kDigitBits)], 1u);
    };
    const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
    const long long first = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
    const auto misaligned = static_cast<long long>(reinterpret_cast<std::uintptr_t>(keys) % 16);
    const long long head_keys = (16 - misaligned) % 16 / 4;
    const long long head = head_keys < n ? head_keys : n;
    const auto* quads = reinterpret_cast<const uint4*>(keys + head);
    const long long quad_count = (n - head) / 4;
    for (long long q = first; q < quad_count; q += stride) {
        const uint4 four = quads[q];
        count_key(four.x);
        count_key(four.y);
        count_key(four.z);
        count_key(four.w);
    }
    if (first < head) count_key(keys[first]);
    for (long long i = head + quad_count * 4 + first; i < n; i += stride) count_key(keys[i]);
    __syncthreads();
    for (int i = threadIdx.x; i < kPasses * kDigits; i += blockDim.x)
        if (counts[i] != 0) atomicAdd(&histograms[i], counts[i]);
}

// =============================================================================================
// GIVEN, Part 2: lab 05's block scan, and the scan of each pass's histogram
// =============================================================================================

__device__ inline unsigned warp_inclusive_sum(unsigned x) {
    const int lane = lane_id();
    for (int offset = 1; offset < kWarpSize; offset *= 2) {
        const unsigned earlier = __shfl_up_sync(kFullMask, x, offset);
        if (lane >= offset) x += earlier;
    }
    return x;
}

// The exclusive sum of one value per thread across a block of kBlockThreads, in thread order:
// warp scans, the warps' totals in shared memory, one warp scans those. Call it from every thread.
__device__ inline unsigned block_exclusive_sum(unsigned x) {
    __shared__ unsigned warp_totals[kWarps];
    const int lane = lane_id();
    const int warp = warp_id();
    const unsigned inclusive = warp_inclusive_sum(x);
    if (lane == kWarpSize - 1) warp_totals[warp] = inclusive;
    __syncthreads();
    if (warp == 0) {
        const unsigned total = lane < kWarps ? warp_totals[lane] : 0u;
        const unsigned scanned = warp_inclusive_sum(total);
        __syncwarp();
        if (lane < kWarps) warp_totals[lane] = scanned - total; // exclusive: the warps before
    }
    __syncthreads();
    const unsigned result = warp_totals[warp] + inclusive - x;
    __syncthreads(); // warp_totals may be reused by the next call
    return result;
}

// One block per pass: histograms[p * kDigits + d] becomes the number of keys whose digit p is
// below d, which is where the keys of digit d start in the output of pass p.
__global__ void __launch_bounds__(kBlockThreads) scan_histograms_kernel(unsigned* histograms) {
    unsigned* histogram = histograms + blockIdx.x * kDigits;
    const unsigned count = histogram[threadIdx.x];
    const unsigned start = block_exclusive_sum(count);
    histogram[threadIdx.x] = start;
}

// =============================================================================================
// Part 3: ranking a tile's keys by digit, stable (warp-level multi-split)
// =============================================================================================

// The lanes of the warp whose digit equals this lane's: for each of the 8 bits, keep the lanes
// that agree with this lane on it. Every lane of the warp must call it (the ballots).
__device__ inline unsigned lanes_with_same_digit(int digit) {
    unsigned peers = kFullMask;
    for (int bit = 0; bit < kDigitBits; ++bit) {
        const bool set = (digit >> bit) & 1;
        const unsigned with_bit = __ballot_sync(kFullMask, set);
        peers &= set ? with_bit : ~with_bit;
    }
    return peers;
}

// The place in the tile of this lane's key of `digit`, for one item of the warp: the keys are
// ranked in input order (item by item, lane by lane within an item), so equal digits keep their
// order. counts[d] is the place of the warp's next key of digit d (it starts where the warp's
// first such key goes: Part 5). A digit's peers share it: the highest peer reads it and moves it
// on by the number of peers, and the others get what it read from it (__shfl_sync); each adds
// its peers in lower lanes. Every lane of the warp must call it (the ballots and the shuffle).
__device__ inline unsigned place_in_tile(int digit, unsigned* counts) {
    const int lane = lane_id();
    const unsigned peers = lanes_with_same_digit(digit);
    const int highest = kWarpSize - 1 - __clz(peers);
    unsigned first = 0; // where this item's keys of the digit start
    if (lane == highest) {
        first = counts[digit];
        counts[digit] = first + static_cast<unsigned>(__popc(peers));
    }
    first = __shfl_sync(kFullMask, first, highest);
    const unsigned lanes_below = (1u << lane) - 1u;
    __syncwarp(); // the update is seen by the next item's highest peer
    return first + static_cast<unsigned>(__popc(peers & lanes_below));
}

// =============================================================================================
// Part 4: each digit's offset among the earlier tiles: decoupled look-back (lab 07)
// =============================================================================================

// A descriptor is one 32-bit word per tile and digit: a status in the top 2 bits and a count of
// keys in the low 30, written and read whole (no fence needed between them: lab 07, Part 1).
inline constexpr unsigned kStatusMask = 3u << 30;
inline constexpr unsigned kCountMask = ~kStatusMask;
inline constexpr unsigned kInvalid = 0u;         // X: nothing published yet
inline constexpr unsigned kAggregate = 1u << 30; // A: this tile's count of the digit
inline constexpr unsigned kPrefix = 2u << 30;    // P: the count in this tile and all earlier

__device__ inline void publish(unsigned* descriptor, unsigned status, unsigned count) {
    // volatile: a real store now, which the look-backs of other blocks can see.
    *reinterpret_cast<volatile unsigned*>(descriptor) = status | count;
}

// The number of keys with `digit` in the tiles before `tile`: walks back from the tile before,
// adding aggregates, until a tile that knows its prefix.
__device__ inline unsigned look_back(const unsigned* descriptors, int tile, int digit) {
    unsigned before = 0;
    for (int earlier = tile - 1;;) {
        // volatile: a real load every time, since another block may publish in between.
        const unsigned word = *reinterpret_cast<const volatile unsigned*>(
            &descriptors[static_cast<long long>(earlier) * kDigits + digit]);
        const unsigned status = word & kStatusMask;
        if (status == kInvalid) continue; // not published yet: look again
        before += word & kCountMask;
        if (status == kPrefix) return before;
        --earlier; // an aggregate: go on to the tile before it
    }
}

// =============================================================================================
// Part 5: the one-sweep pass: rank, look back, scatter
// =============================================================================================

// One pass of the sort, on the digit at `shift`: each block takes the next tile, ranks its keys
// by digit, finds where each digit's keys go from the pass's histogram scan and the look-back,
// and writes them there. keys_in holds keys as they are in the first pass (First), sort-order
// bits after it; keys_out gets sort-order bits except in the last pass (Last).
// Three blocks per SM (768 threads, up to 80 registers each) with tiles of 8192 keys (32 per
// thread). A large tile pays less per key for what a tile does once (the digit counts, the block
// scan, 256 look-backs), and its runs of one digit are longer (32 keys on average), so the
// scatter writes fewer partial 32-byte sectors. Measured on an H200 at 2^24 / 2^28 keys, as a
// fraction of CUB's speed: 16 keys a thread and five blocks per SM, 0.87 / 0.80; 24 and four,
// 0.89 / 0.84; 32 and three, 0.89 / 0.86.
inline constexpr int kMinBlocksPerSm = 3;

template <KeyOrder Order, bool Pairs>
__global__ void __launch_bounds__(kBlockThreads, kMinBlocksPerSm)
    onesweep_kernel(const Bits* keys_in, Bits* keys_out, const Bits* values_in, Bits* values_out,
                    long long n, int shift, bool first, bool last, const unsigned* digit_starts,
                    unsigned* descriptors, unsigned* tile_counter) {
    __shared__ int tile_id;
    __shared__ unsigned warp_counts[kWarps][kDigits]; // per warp, then its places per digit
    __shared__ unsigned digit_shift[kDigits];         // tile position -> output position
    __shared__ Bits staged_keys[kTileKeys];           // the tile, sorted by digit
    // The values (Pairs) in dynamic shared memory: 32 KB more than the 48 KB a block may declare.
    extern __shared__ Bits staged_values[];

    const int lane = lane_id();
    const int warp = warp_id();
    const int thread = static_cast<int>(threadIdx.x);

    // Tiles in the order blocks start (lab 07): every earlier tile's block has started.
    if (thread == 0) tile_id = static_cast<int>(atomicAdd(tile_counter, 1u));
    for (int d = lane; d < kDigits; d += kWarpSize) warp_counts[warp][d] = 0;
    __syncthreads();
    const int tile = tile_id;
    // Positions in 32 bits (n <= kMaxKeys < 2^30): 64-bit ones take registers the tile's keys need.
    const unsigned key_count = static_cast<unsigned>(n);
    const unsigned tile_base = static_cast<unsigned>(tile) * kTileKeys;

    // Each warp loads kItemsPerThread * 32 consecutive keys, 32 at a time (coalesced). Past the
    // end of the input, the largest key: it ranks after every real key of the tile.
    const unsigned warp_base =
        tile_base + static_cast<unsigned>(warp) * kItemsPerThread * kWarpSize;
    Bits keys[kItemsPerThread];
    Bits values[kItemsPerThread];
    LAB09_UNROLL
    for (int i = 0; i < kItemsPerThread; ++i) {
        const unsigned index = warp_base + i * kWarpSize + lane;
        keys[i] = index < key_count
                      ? (first ? to_sort_order<Order>(keys_in[index]) : keys_in[index])
                      : ~Bits{0};
        if constexpr (Pairs) values[i] = index < key_count ? values_in[index] : 0u;
    }

    // Count the tile's digits first, each warp its own (shared atomics): the tile's count of
    // each digit is then known before the rank, and is published at once, so that later tiles'
    // look-backs find an A here rather than wait on an X while this tile ranks.
    LAB09_UNROLL
    for (int i = 0; i < kItemsPerThread; ++i)
        atomicAdd(&warp_counts[warp][digit_of(keys[i], shift)], 1u);
    __syncthreads();

    // Thread d handles digit d: the warps' counts add up to the tile's count, which is published
    // (A; tile 0 knows its prefix: P), and a block scan over the digits places each digit in the
    // tile. Each warp's counter of the digit then starts where the warp's first such key goes:
    // after the keys of smaller digits and the digit's keys in earlier warps.
    const int digit = thread;
    unsigned tile_count = 0;
    for (int w = 0; w < kWarps; ++w) tile_count += warp_counts[w][digit];
    unsigned* descriptor = descriptors + static_cast<long long>(tile) * kDigits + digit;
    publish(descriptor, tile == 0 ? kPrefix : kAggregate, tile_count);
    const unsigned start_in_tile = block_exclusive_sum(tile_count);
    unsigned start = start_in_tile;
    for (int w = 0; w < kWarps; ++w) {
        const unsigned count = warp_counts[w][digit];
        warp_counts[w][digit] = start;
        start += count;
    }
    __syncthreads();

    // Rank: each key goes straight to its place in the tile sorted by digit, in shared memory
    // (no array of places to keep: the 32 keys already fill most of a thread's registers).
    LAB09_UNROLL
    for (int i = 0; i < kItemsPerThread; ++i) {
        const unsigned place = place_in_tile(digit_of(keys[i], shift), warp_counts[warp]);
        staged_keys[place] = keys[i];
        if constexpr (Pairs) staged_values[place] = values[i];
    }

    // Then the look-back, by which time the tiles before have mostly published.
    unsigned before_tile = 0; // the digit's keys in the tiles before this one
    if (tile != 0) {
        before_tile = look_back(descriptors, tile, digit);
        publish(descriptor, kPrefix, before_tile + tile_count);
    }
    // The digit's keys of this tile go to digit_starts[digit] + before_tile onwards.
    // (This can wrap below 0; adding the place wraps back: unsigned arithmetic is modulo 2^32.)
    digit_shift[digit] = digit_starts[digit] + before_tile - start_in_tile;
    __syncthreads();

    // Write the sorted tile out: consecutive threads take consecutive places, which are mostly
    // consecutive output positions (runs of one digit). The padding keys sort last in the tile:
    // places from `valid` on are past the end of the input and are not written.
    const unsigned left = key_count - tile_base;
    const int valid = left < kTileKeys ? static_cast<int>(left) : kTileKeys;
    for (int i = 0; i < kItemsPerThread; ++i) {
        const int place = i * kBlockThreads + thread;
        if (place >= valid) break;
        const Bits bits = staged_keys[place];
        const unsigned position = digit_shift[digit_of(bits, shift)] + place;
        keys_out[position] = last ? from_sort_order<Order>(bits) : bits;
        if constexpr (Pairs) values_out[position] = staged_values[place];
    }
}

// =============================================================================================
// GIVEN: the host side
// =============================================================================================

namespace {

long long tiles_for(long long n) {
    return (n + kTileKeys - 1) / kTileKeys;
}

template <class T>
T* carve(unsigned char*& at, long long count) {
    T* p = reinterpret_cast<T*>(at);
    at += (count * static_cast<long long>(sizeof(T)) + 255) / 256 * 256; // 256-byte aligned
    return p;
}

void check_arguments(const char* function, long long n, bool null_pointer) {
    if (n < 0)
        throw std::invalid_argument(std::string("lab09::") + function + ": n must be >= 0, got " +
                                    std::to_string(n));
    if (n > kMaxKeys)
        throw std::invalid_argument(
            std::string("lab09::") + function + ": n = " + std::to_string(n) +
            " is more than kMaxKeys = " + std::to_string(kMaxKeys) + " (30-bit descriptor counts)");
    if (n > 0 && null_pointer)
        throw std::invalid_argument(std::string("lab09::") + function + ": a pointer is null");
}

template <KeyOrder Order, bool Pairs>
void radix_sort(const Bits* keys_in, Bits* keys_out, const Bits* values_in, Bits* values_out,
                long long n, Workspace* workspace) {
    if (n == 0) return;
    const long long tiles = tiles_for(n);
    const long long counter_words = kPasses * kDigits + kPasses + kPasses * tiles * kDigits;
    const long long bytes = (counter_words * 4 + 255) / 256 * 256 + (n * 4 + 255) / 256 * 256 +
                            (Pairs ? (n * 4 + 255) / 256 * 256 : 0) + 3 * 256;
    Workspace own;
    Workspace& memory = workspace != nullptr ? *workspace : own;
    auto* at = static_cast<unsigned char*>(memory.reserve(static_cast<std::size_t>(bytes)));
    unsigned char* const counters_begin = at;
    unsigned* histograms = carve<unsigned>(at, kPasses * kDigits);
    unsigned* tile_counters = carve<unsigned>(at, kPasses);
    unsigned* descriptors = carve<unsigned>(at, kPasses * tiles * kDigits);
    const auto counters_bytes = static_cast<std::size_t>(at - counters_begin);
    Bits* other_keys = carve<Bits>(at, n);
    Bits* other_values = Pairs ? carve<Bits>(at, n) : nullptr;

    // Histograms, tile counters and every pass's descriptors start at zero (X).
    SCANLAB_CUDA_CHECK(cudaMemsetAsync(counters_begin, 0, counters_bytes));
    const int histogram_blocks = static_cast<int>(
        std::min<long long>(2048, (n + kHistogramThreads * 16 - 1) / (kHistogramThreads * 16)));
    histogram_kernel<Order><<<histogram_blocks, kHistogramThreads>>>(keys_in, n, histograms);
    SCANLAB_CUDA_CHECK(cudaGetLastError());
    scan_histograms_kernel<<<kPasses, kBlockThreads>>>(histograms);
    SCANLAB_CUDA_CHECK(cudaGetLastError());

    // Passes alternate between the other buffer and the output, ending in the output (4 passes).
    const Bits* from_keys = keys_in;
    const Bits* from_values = values_in;
    // Pairs stage their values in 32 KB of dynamic shared memory. Without the attribute a block's
    // static and dynamic shared memory together must fit in 48 KB; the attribute raises the limit
    // of the dynamic part, and the two together may then pass 48 KB.
    const int staged_values_bytes = Pairs ? kTileKeys * static_cast<int>(sizeof(Bits)) : 0;
    if constexpr (Pairs)
        SCANLAB_CUDA_CHECK(cudaFuncSetAttribute(onesweep_kernel<Order, Pairs>,
                                                cudaFuncAttributeMaxDynamicSharedMemorySize,
                                                staged_values_bytes));
    for (int pass = 0; pass < kPasses; ++pass) {
        Bits* to_keys = pass % 2 == 0 ? other_keys : keys_out;
        Bits* to_values = pass % 2 == 0 ? other_values : values_out;
        onesweep_kernel<Order, Pairs>
            <<<static_cast<unsigned>(tiles), kBlockThreads, staged_values_bytes>>>(
                from_keys, to_keys, from_values, to_values, n, pass * kDigitBits, pass == 0,
                pass == kPasses - 1, histograms + pass * kDigits,
                descriptors + pass * tiles * kDigits, tile_counters + pass);
        SCANLAB_CUDA_CHECK(cudaGetLastError());
        from_keys = to_keys;
        from_values = to_values;
    }
}

} // namespace

template <class Key>
void sort_keys(const Key* d_in, Key* d_out, std::int64_t n, Workspace* workspace) {
    static_assert(sizeof(Key) == 4, "lab 09 sorts 32-bit keys");
    check_arguments("sort_keys", n, d_in == nullptr || d_out == nullptr);
    radix_sort<kOrderOf<Key>, false>(reinterpret_cast<const Bits*>(d_in),
                                     reinterpret_cast<Bits*>(d_out), nullptr, nullptr, n,
                                     workspace);
}

template <class Key, class Value>
void sort_pairs(const Key* d_keys_in, Key* d_keys_out, const Value* d_values_in,
                Value* d_values_out, std::int64_t n, Workspace* workspace) {
    static_assert(sizeof(Key) == 4, "lab 09 sorts 32-bit keys");
    static_assert(sizeof(Value) == 4, "lab 09 moves 4-byte values");
    check_arguments("sort_pairs", n,
                    d_keys_in == nullptr || d_keys_out == nullptr || d_values_in == nullptr ||
                        d_values_out == nullptr);
    radix_sort<kOrderOf<Key>, true>(reinterpret_cast<const Bits*>(d_keys_in),
                                    reinterpret_cast<Bits*>(d_keys_out),
                                    reinterpret_cast<const Bits*>(d_values_in),
                                    reinterpret_cast<Bits*>(d_values_out), n, workspace);
}

} // namespace lab09

// ---------------------------------------------------------------------------------------------
// DO NOT EDIT BELOW THIS LINE. The tests call these instantiations.
// ---------------------------------------------------------------------------------------------
template void lab09::sort_keys<std::uint32_t>(const std::uint32_t*, std::uint32_t*, std::int64_t,
                                              lab09::Workspace*);
template void lab09::sort_keys<std::int32_t>(const std::int32_t*, std::int32_t*, std::int64_t,
                                             lab09::Workspace*);
template void lab09::sort_keys<float>(const float*, float*, std::int64_t, lab09::Workspace*);
template void lab09::sort_pairs<std::uint32_t, std::uint32_t>(const std::uint32_t*, std::uint32_t*,
                                                              const std::uint32_t*, std::uint32_t*,
                                                              std::int64_t, lab09::Workspace*);
template void lab09::sort_pairs<std::int32_t, std::uint32_t>(const std::int32_t*, std::int32_t*,
                                                             const std::uint32_t*, std::uint32_t*,
                                                             std::int64_t, lab09::Workspace*);
template void lab09::sort_pairs<float, std::uint32_t>(const float*, float*, const std::uint32_t*,
                                                      std::uint32_t*, std::int64_t,
                                                      lab09::Workspace*);
