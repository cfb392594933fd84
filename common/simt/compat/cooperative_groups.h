// Cooperative groups on the simt emulator: the thread block, static tiles of 1 to 512 threads
// (a power-of-two part of a warp, or whole warps), groups of either kind behind `thread_group`,
// coalesced groups (binary_partition, labeled_partition, coalesced_threads) and the grid of a
// cooperative launch.
// Everything is built on the emulator's own barriers and warp intrinsics (__syncthreads,
// __syncwarp(mask), __shfl*_sync(mask, ..., width), __ballot_sync, __any_sync, __all_sync), so the
// checks see through the API: lanes of a tile are unordered until a tile operation, a tile
// sync() from diverged lanes is reported, and so on. Every member is always inlined, because the
// runtime finds the user's line from its callers' return addresses.
//
// Not here, and loud: grid_group::sync() in a kernel not launched with
// cudaLaunchCooperativeKernel (a run-time "unsupported feature" fault), and, as compile errors
// that name them where they are used:
// multi-grid groups, clusters, shuffles and votes of
// tiles of more than 32 threads, tile match_any/match_all, memcpy_async/wait/
// wait_prior, invoke_one. Reductions and scans: cooperative_groups/reduce.h, scan.h.
#pragma once

#include <cuda_runtime.h>

#include <cstring>
#include <type_traits>

#define SIMT_CG_INLINE __attribute__((always_inline)) inline

namespace simt::detail {
// The arrival counter of the running cooperative launch (src/cooperative_launch.h), or nullptr.
unsigned* grid_barrier_word();
} // namespace simt::detail

namespace cooperative_groups {
namespace details {

template <class>
inline constexpr bool always_false = false;

// The rank of the calling thread in its block, x fastest (as CUDA ranks them).
SIMT_CG_INLINE unsigned block_rank() {
    const uint3 t = threadIdx;
    const dim3 d = blockDim;
    return (t.z * d.y + t.y) * d.x + t.x;
}
SIMT_CG_INLINE unsigned block_threads() {
    const dim3 d = blockDim;
    return d.x * d.y * d.z;
}

// The lanes of the calling thread's warp that are in its tile of `size` threads.
SIMT_CG_INLINE unsigned tile_mask(unsigned size) {
    if (size >= 32) return 0xffffffffu;
    const unsigned lane = block_rank() % 32;
    return ((1u << size) - 1u) << (lane / size * size);
}

// A tile shuffle of any trivially copyable type: the types the warp shuffles take go through one
// shuffle, others in 4-byte pieces (as CUDA's tile shuffles accept any such type).
template <class T, class Shuffle>
SIMT_CG_INLINE T shuffle_any(const T& value, Shuffle shuffle) {
    static_assert(std::is_trivially_copyable_v<T>,
                  "cooperative groups shuffle trivially copyable types only");
    if constexpr (::simt::detail::shufflable<T>) {
        return shuffle(value);
    } else {
        constexpr unsigned words = (sizeof(T) + 3) / 4;
        unsigned in[words] = {};
        unsigned out[words];
        std::memcpy(in, &value, sizeof(T));
        for (unsigned i = 0; i < words; ++i) out[i] = shuffle(in[i]);
        T result;
        std::memcpy(&result, out, sizeof(T));
        return result;
    }
}

} // namespace details

class thread_group;

// The threads of the calling block. Its sync() is __syncthreads().
class thread_block {
  public:
    SIMT_CG_INLINE static void sync() { __syncthreads(); }
    SIMT_CG_INLINE static unsigned thread_rank() { return details::block_rank(); }
    SIMT_CG_INLINE static unsigned size() { return details::block_threads(); }
    SIMT_CG_INLINE static unsigned long long num_threads() { return details::block_threads(); }
    SIMT_CG_INLINE static dim3 group_index() { return blockIdx; }
    SIMT_CG_INLINE static dim3 thread_index() { return threadIdx; }
    SIMT_CG_INLINE static dim3 group_dim() { return blockDim; }
    SIMT_CG_INLINE static dim3 dim_threads() { return blockDim; }
    operator thread_group() const;

  private:
    friend thread_block this_thread_block();
    thread_block() = default;
};

SIMT_CG_INLINE thread_block this_thread_block() {
    return thread_block();
}

// A tile of Size consecutive threads of the block (by thread_rank), Size a power of two from 1
// to 512. A tile of at most 32 threads never spans two warps, so its sync is a __syncwarp over
// its lanes and its shuffles and votes are the warp's, with the tile's lane mask and width.
// A larger tile (64 to 512 threads, whole warps) has what CUDA gives such tiles without
// shuffles and votes (sync, ranks, sizes; cg::reduce in cooperative_groups/reduce.h); its sync()
// is the block's barrier, __syncthreads(), so every tile of the block must sync together: where
// only some tiles of a block sync (valid on a GPU), the emulator reports barrier divergence.
template <unsigned Size, class Parent = void>
class thread_block_tile;

template <unsigned Size>
class thread_block_tile<Size, void> {
    static_assert(Size >= 1 && Size <= 512 && (Size & (Size - 1)) == 0,
                  "the simt emulator supports thread_block_tile sizes 1, 2, 4, ..., 512 (a power "
                  "of two)");

  public:
    static constexpr unsigned num_threads_value = Size;

    SIMT_CG_INLINE void sync() const {
        if constexpr (Size > 32)
            __syncthreads();
        else
            __syncwarp(mask_);
    }
    SIMT_CG_INLINE unsigned thread_rank() const { return details::block_rank() % Size; }
    SIMT_CG_INLINE static constexpr unsigned size() { return Size; }
    SIMT_CG_INLINE static constexpr unsigned long long num_threads() { return Size; }
    // Which tile of its parent this is, and how many tiles the parent was cut into.
    SIMT_CG_INLINE unsigned meta_group_rank() const { return meta_rank_; }
    SIMT_CG_INLINE unsigned meta_group_size() const { return meta_size_; }

    template <class T>
    SIMT_CG_INLINE T shfl(T value, int source_rank) const {
        static_assert(Size <= 32, "thread_block_tile::shfl on a tile of more than 32 threads is "
                                  "not supported by the simt emulator");
        return details::shuffle_any(value, [&](auto v) {
            return __shfl_sync(mask_, v, source_rank, static_cast<int>(Size));
        });
    }
    template <class T>
    SIMT_CG_INLINE T shfl_up(T value, unsigned delta) const {
        static_assert(Size <= 32, "thread_block_tile::shfl_up on a tile of more than 32 threads "
                                  "is not supported by the simt emulator");
        return details::shuffle_any(value, [&](auto v) {
            return __shfl_up_sync(mask_, v, static_cast<int>(delta), static_cast<int>(Size));
        });
    }
    template <class T>
    SIMT_CG_INLINE T shfl_down(T value, unsigned delta) const {
        static_assert(Size <= 32, "thread_block_tile::shfl_down on a tile of more than 32 threads "
                                  "is not supported by the simt emulator");
        return details::shuffle_any(value, [&](auto v) {
            return __shfl_down_sync(mask_, v, static_cast<int>(delta), static_cast<int>(Size));
        });
    }
    template <class T>
    SIMT_CG_INLINE T shfl_xor(T value, unsigned lane_mask) const {
        static_assert(Size <= 32, "thread_block_tile::shfl_xor on a tile of more than 32 threads "
                                  "is not supported by the simt emulator");
        return details::shuffle_any(value, [&](auto v) {
            return __shfl_xor_sync(mask_, v, static_cast<int>(lane_mask), static_cast<int>(Size));
        });
    }
    template <unsigned S = Size>
    SIMT_CG_INLINE int any(int predicate) const {
        static_assert(S <= 32, "thread_block_tile::any on a tile of more than 32 threads is not "
                               "supported by the simt emulator");
        return __any_sync(mask_, predicate);
    }
    template <unsigned S = Size>
    SIMT_CG_INLINE int all(int predicate) const {
        static_assert(S <= 32, "thread_block_tile::all on a tile of more than 32 threads is not "
                               "supported by the simt emulator");
        return __all_sync(mask_, predicate);
    }
    // Bit i is the predicate of the tile's thread i (not of warp lane i), as in CUDA.
    template <unsigned S = Size>
    SIMT_CG_INLINE unsigned ballot(int predicate) const {
        static_assert(S <= 32, "thread_block_tile::ballot on a tile of more than 32 threads is "
                               "not supported by the simt emulator");
        const unsigned bits = __ballot_sync(mask_, predicate);
        return Size >= 32 ? bits
                          : (bits >> (details::block_rank() % 32 / Size * Size)) & mask_low();
    }
    template <class T>
    unsigned long long match_any(T) const {
        static_assert(details::always_false<T>,
                      "thread_block_tile::match_any is not supported by the simt emulator");
        return 0;
    }
    template <class T>
    unsigned long long match_all(T, int&) const {
        static_assert(details::always_false<T>,
                      "thread_block_tile::match_all is not supported by the simt emulator");
        return 0;
    }

    operator thread_group() const;

    // What tiled_partition makes: the calling thread's tile, the meta_rank-th of meta_size.
    SIMT_CG_INLINE thread_block_tile(unsigned meta_rank, unsigned meta_size)
        : mask_(details::tile_mask(Size)), meta_rank_(meta_rank), meta_size_(meta_size) {}

  private:
    static constexpr unsigned mask_low() {
        if constexpr (Size >= 32)
            return 0xffffffffu;
        else
            return (1u << Size) - 1u;
    }

    unsigned mask_;
    unsigned meta_rank_;
    unsigned meta_size_;
};

// The tile as tiled_partition returns it, knowing its parent's type; it converts to the plain
// thread_block_tile<Size>, which is what most code names.
template <unsigned Size, class Parent>
class thread_block_tile : public thread_block_tile<Size, void> {
  public:
    using thread_block_tile<Size, void>::thread_block_tile;
};

namespace details {
// The size of a static tile type, 0 for anything else.
template <class G>
constexpr unsigned static_tile_size = 0;
template <unsigned Size, class P>
constexpr unsigned static_tile_size<thread_block_tile<Size, P>> = Size;
} // namespace details

// tiled_partition<Size>(block) and tiled_partition<Size>(a larger tile).
template <unsigned Size, class Parent>
SIMT_CG_INLINE thread_block_tile<Size, Parent> tiled_partition(const Parent& parent) {
    constexpr unsigned parent_tile = details::static_tile_size<Parent>;
    static_assert(std::is_same_v<Parent, thread_block> || parent_tile != 0,
                  "tiled_partition<N> takes a thread_block or a thread_block_tile on the simt "
                  "emulator");
    static_assert(parent_tile == 0 || parent_tile > Size,
                  "tiled_partition<N>(tile) needs N smaller than the tile's size (as nvcc does)");
    const unsigned parent_size = static_cast<unsigned>(parent.num_threads());
    return thread_block_tile<Size, Parent>(parent.thread_rank() / Size,
                                           (parent_size + Size - 1) / Size);
}

// thread_group: a block or a tile behind one type, chosen at run time (`void f(thread_group g)`).
// tiled_partition(group, n) with a run-time n makes one too, for n a power of two up to 32.
class thread_group {
  public:
    SIMT_CG_INLINE void sync() const {
        if (tile_size_ == 0)
            __syncthreads();
        else
            __syncwarp(details::tile_mask(tile_size_));
    }
    SIMT_CG_INLINE unsigned thread_rank() const {
        return tile_size_ == 0 ? details::block_rank() : details::block_rank() % tile_size_;
    }
    SIMT_CG_INLINE unsigned size() const {
        return tile_size_ == 0 ? details::block_threads() : tile_size_;
    }
    SIMT_CG_INLINE unsigned long long num_threads() const { return size(); }

  private:
    friend class thread_block;
    template <unsigned, class>
    friend class thread_block_tile;
    friend thread_group tiled_partition(const thread_group&, unsigned);
    explicit thread_group(unsigned tile_size) : tile_size_(tile_size) {}
    unsigned tile_size_; // 0: the whole block
};

inline thread_block::operator thread_group() const {
    return thread_group(0);
}
template <unsigned Size>
thread_block_tile<Size, void>::operator thread_group() const {
    return thread_group(Size);
}

SIMT_CG_INLINE thread_group tiled_partition(const thread_group& parent, unsigned tile_size) {
    const bool power_of_two = tile_size != 0 && (tile_size & (tile_size - 1)) == 0;
    if (!power_of_two || tile_size > 32 || tile_size > parent.size())
        ::simt::detail::unsupported("cooperative_groups::tiled_partition(group, n) for n that is "
                                    "not a power of two from 1 to 32 within the group");
    return thread_group(tile_size);
}

// The calling thread alone.
SIMT_CG_INLINE thread_block_tile<1, void> this_thread() {
    return tiled_partition<1>(this_thread_block());
}

// Free-function forms.
template <class Group>
SIMT_CG_INLINE void sync(const Group& g) {
    g.sync();
}
template <class Group>
SIMT_CG_INLINE unsigned thread_rank(const Group& g) {
    return g.thread_rank();
}
template <class Group>
SIMT_CG_INLINE unsigned long long group_size(const Group& g) {
    return g.num_threads();
}

// The whole grid. sync() needs a cooperative launch (cudaLaunchCooperativeKernel), which runs
// every block at once: it is the barrier CUDA's own implementation uses (a block barrier, then
// one thread per block adds its arrival to a counter in device memory, after a fence, and waits
// until the counter's top bit flips; block 0 adds what flips it once all have arrived, then a
// fence and a block barrier), so the emulator's checks see the same ordering a GPU gives. In a
// kernel launched otherwise it is a run-time fault that says so.
class grid_group {
  public:
    SIMT_CG_INLINE static void sync() {
        unsigned* const arrived = ::simt::detail::grid_barrier_word();
        if (!arrived)
            ::simt::detail::unsupported(
                "grid-wide synchronization (cooperative_groups::grid_group::sync) in a kernel "
                "not launched with cudaLaunchCooperativeKernel");
        __syncthreads();
        if (details::block_rank() == 0) {
            const unsigned blocks = static_cast<unsigned>(num_blocks());
            const unsigned add = block_rank() == 0 ? 0x80000000u - (blocks - 1) : 1u;
            __threadfence();
            const unsigned old = atomicAdd(arrived, add);
            while (((old ^ *static_cast<volatile unsigned*>(arrived)) & 0x80000000u) == 0) {
            }
            __threadfence();
        }
        __syncthreads();
    }
    SIMT_CG_INLINE static unsigned long long thread_rank() {
        return block_rank() * details::block_threads() + details::block_rank();
    }
    SIMT_CG_INLINE static unsigned long long num_threads() {
        return num_blocks() * details::block_threads();
    }
    SIMT_CG_INLINE static unsigned long long size() { return num_threads(); }
    SIMT_CG_INLINE static unsigned long long block_rank() {
        const uint3 b = blockIdx;
        const dim3 g = gridDim;
        return (1ull * b.z * g.y + b.y) * g.x + b.x;
    }
    SIMT_CG_INLINE static unsigned long long num_blocks() {
        const dim3 g = gridDim;
        return 1ull * g.x * g.y * g.z;
    }
    SIMT_CG_INLINE static dim3 group_dim() { return gridDim; }
    SIMT_CG_INLINE static dim3 dim_blocks() { return gridDim; }
    SIMT_CG_INLINE static dim3 block_index() { return blockIdx; }
    // Whether the launch was cooperative (cudaLaunchCooperativeKernel).
    SIMT_CG_INLINE static bool is_valid() { return ::simt::detail::grid_barrier_word() != nullptr; }
};

SIMT_CG_INLINE grid_group this_grid() {
    return grid_group();
}

template <class U = void>
auto this_multi_grid() {
    static_assert(details::always_false<U>,
                  "cooperative_groups::this_multi_grid is not supported by the simt emulator");
}
// Some lanes of one warp, by mask, ranked in lane order: what binary_partition and
// coalesced_threads make. Its
// collectives are the warp's over the group's lanes (__syncwarp, __shfl_sync with the mask).
class coalesced_group {
  public:
    SIMT_CG_INLINE void sync() const { __syncwarp(mask_); }
    SIMT_CG_INLINE unsigned thread_rank() const { return __popc(mask_ & ((1u << lane()) - 1u)); }
    SIMT_CG_INLINE unsigned size() const { return __popc(mask_); }
    SIMT_CG_INLINE unsigned long long num_threads() const { return size(); }
    SIMT_CG_INLINE unsigned meta_group_rank() const { return 0; }
    SIMT_CG_INLINE unsigned meta_group_size() const { return 1; }
    template <class T>
    SIMT_CG_INLINE T shfl(T value, unsigned source_rank) const {
        const int from = lane_of(source_rank % size());
        return details::shuffle_any(value, [&](auto v) { return __shfl_sync(mask_, v, from); });
    }
    template <class T>
    SIMT_CG_INLINE T shfl_down(T value, unsigned delta) const {
        const unsigned rank = thread_rank() + delta;
        const int from = rank < size() ? lane_of(rank) : static_cast<int>(lane());
        return details::shuffle_any(value, [&](auto v) { return __shfl_sync(mask_, v, from); });
    }
    template <class T>
    SIMT_CG_INLINE T shfl_up(T value, unsigned delta) const {
        const unsigned rank = thread_rank();
        const int from = rank >= delta ? lane_of(rank - delta) : static_cast<int>(lane());
        return details::shuffle_any(value, [&](auto v) { return __shfl_sync(mask_, v, from); });
    }
    SIMT_CG_INLINE int any(int predicate) const { return __any_sync(mask_, predicate); }
    SIMT_CG_INLINE int all(int predicate) const { return __all_sync(mask_, predicate); }
    // Bit i is the predicate of the group's thread of rank i.
    SIMT_CG_INLINE unsigned ballot(int predicate) const {
        const unsigned bits = __ballot_sync(mask_, predicate);
        unsigned packed = 0, rank = 0;
        for (unsigned l = 0; l < 32; ++l)
            if (mask_ >> l & 1u) packed |= (bits >> l & 1u) << rank++;
        return packed;
    }
    template <class T>
    unsigned long long match_any(T) const {
        static_assert(details::always_false<T>,
                      "coalesced_group::match_any is not supported by the simt emulator");
        return 0;
    }

  private:
    template <unsigned Size, class Parent>
    friend coalesced_group binary_partition(const thread_block_tile<Size, Parent>&, bool);
    friend coalesced_group binary_partition(const coalesced_group&, bool);
    friend coalesced_group coalesced_threads();
    template <unsigned Size, class Parent>
    friend coalesced_group labeled_partition(const thread_block_tile<Size, Parent>&, int);
    friend coalesced_group labeled_partition(const coalesced_group&, int);
    explicit SIMT_CG_INLINE coalesced_group(unsigned mask) : mask_(mask) {}
    SIMT_CG_INLINE static unsigned lane() { return details::block_rank() % 32; }
    // The lane of the group's thread of rank `rank`.
    SIMT_CG_INLINE int lane_of(unsigned rank) const {
        unsigned m = mask_;
        for (unsigned i = 0; i < rank; ++i) m &= m - 1;
        return __builtin_ctz(m);
    }
    SIMT_CG_INLINE unsigned mask() const { return mask_; }

    unsigned mask_;
};

// The threads of a tile (of at most 32) or coalesced group whose predicate is the caller's:
// every thread of the parent calls it, as on a GPU.
template <unsigned Size, class Parent>
SIMT_CG_INLINE coalesced_group binary_partition(const thread_block_tile<Size, Parent>& parent,
                                                bool predicate) {
    static_assert(Size <= 32, "cooperative_groups::binary_partition of a tile of more than 32 "
                              "threads is not supported by the simt emulator");
    (void)parent;
    const unsigned whole = details::tile_mask(Size);
    const unsigned yes = __ballot_sync(whole, predicate);
    return coalesced_group(predicate ? yes : whole & ~yes);
}
SIMT_CG_INLINE coalesced_group binary_partition(const coalesced_group& parent, bool predicate) {
    const unsigned whole = parent.mask();
    const unsigned yes = __ballot_sync(whole, predicate);
    return coalesced_group(predicate ? yes : whole & ~yes);
}

// The threads of the caller's warp that call it together: the lanes of __activemask(), which on
// the emulator are those that reach this same call together (docs/emulator.md).
SIMT_CG_INLINE coalesced_group coalesced_threads() {
    return coalesced_group(__activemask());
}
namespace details {
// The lanes of `whole` whose label equals the caller's: every lane of `whole` calls it and reads
// each other lane's label with a shuffle (what __match_any_sync gives on a GPU).
SIMT_CG_INLINE unsigned same_label_lanes(unsigned whole, int label) {
    unsigned same = 0;
    for (unsigned m = whole; m != 0; m &= m - 1) {
        const int lane = __builtin_ctz(m);
        if (__shfl_sync(whole, label, lane) == label) same |= 1u << lane;
    }
    return same;
}
} // namespace details

// The threads of a tile (of at most 32) or coalesced group whose label is the caller's: every
// thread of the parent calls it, as on a GPU (compute capability 7.0 and later).
template <unsigned Size, class Parent>
SIMT_CG_INLINE coalesced_group labeled_partition(const thread_block_tile<Size, Parent>& parent,
                                                 int label) {
    static_assert(Size <= 32, "cooperative_groups::labeled_partition of a tile of more than 32 "
                              "threads is not supported by the simt emulator");
    (void)parent;
    return coalesced_group(details::same_label_lanes(details::tile_mask(Size), label));
}
SIMT_CG_INLINE coalesced_group labeled_partition(const coalesced_group& parent, int label) {
    return coalesced_group(details::same_label_lanes(parent.mask(), label));
}
// Thread block clusters are not modelled. simt-rewrite refuses `cg::cluster_group` at its line;
// this catches the name where it is not qualified (after `using namespace cooperative_groups`)
// or not rewritten: any use that needs the type fails with the message.
namespace details {
template <class U = void>
struct cluster_group_is_not_supported {
    static_assert(always_false<U>, "cooperative_groups::cluster_group (thread block clusters) is "
                                   "not supported by the simt emulator");
};
} // namespace details
using cluster_group = details::cluster_group_is_not_supported<>;
template <class U = void>
auto this_cluster() {
    static_assert(details::always_false<U>, "cooperative_groups::this_cluster (thread block "
                                            "clusters) is not supported by the simt emulator");
}
template <class Group, class... Args>
void memcpy_async(const Group&, Args&&...) {
    static_assert(details::always_false<Group>,
                  "cooperative_groups::memcpy_async is not supported by the simt emulator: copy "
                  "with plain loads and stores, then sync() the group");
}
template <class Group>
void wait(const Group&) {
    static_assert(details::always_false<Group>,
                  "cooperative_groups::wait (of memcpy_async) is not supported by the simt "
                  "emulator");
}
template <unsigned Stage, class Group>
void wait_prior(const Group&) {
    static_assert(details::always_false<Group>,
                  "cooperative_groups::wait_prior (of memcpy_async) is not supported by the simt "
                  "emulator");
}
template <class Group, class... Args>
void invoke_one(const Group&, Args&&...) {
    static_assert(details::always_false<Group>,
                  "cooperative_groups::invoke_one is not supported by the simt emulator: write "
                  "`if (g.thread_rank() == 0) f();`");
}
template <class Group, class... Args>
auto invoke_one_broadcast(const Group&, Args&&...) {
    static_assert(details::always_false<Group>,
                  "cooperative_groups::invoke_one_broadcast is not supported by the simt "
                  "emulator: call f in thread_rank() 0 and broadcast with g.shfl()");
}
// On a GPU before compute capability 8.0, tiles larger than a warp keep their state in this
// shared memory, handed to this_thread_block(); the emulator's tiles need none (as on 8.0 and
// later), so it only takes up its room. CUDA 12 names it block_tile_memory<MaxBlockSize>.
template <unsigned MaxBlockSize = 1024, unsigned = 0>
struct block_tile_memory {
    unsigned long long reserved[MaxBlockSize / 32 > 0 ? MaxBlockSize / 32 : 1];
};
template <unsigned MaxBlockSize, unsigned Unused>
SIMT_CG_INLINE thread_block this_thread_block(block_tile_memory<MaxBlockSize, Unused>&) {
    return this_thread_block();
}

} // namespace cooperative_groups

#undef SIMT_CG_INLINE
