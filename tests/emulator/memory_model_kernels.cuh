// The memory-model mistakes of labs 04-07 that only the reader's side, the history of a word or
// the launch order shows, each beside its fixed twin. Shared by the emulator's planted-bug tests
// (memory_model_test.cu, which expects each `// BUG:` line in a report and each twin clean) and
// the GPU driver (memory_model_gpu.cu, which counts the wrong results each one gives on a GPU).
#pragma once

#include <cuda_runtime.h>

namespace memory_model {

inline constexpr const char* kKernelsFile = __FILE__;

// Volatile accesses as macros, not functions: a report then names the kernel's own line.
#define load_volatile(p) (*reinterpret_cast<const volatile int*>(p))
#define store_volatile(p, v) (*reinterpret_cast<volatile int*>(p) = (v))
#define load_word(p) (*reinterpret_cast<const volatile unsigned long long*>(p))

// 1. A chain of blocks: block b waits for block b-1's value (b + 1 when right). The reader
//    reads the value, then a fence, then the flag: the value may be older than the flag.
__global__ void value_before_flag(int* values, int* flags, int* out) {
    if (threadIdx.x != 0) return;
    const int b = blockIdx.x;
    int before = 0;
    if (b > 0) {
        for (;;) {
            // BUG: value-before-flag
            before = load_volatile(&values[b - 1]);
            __threadfence();
            if (load_volatile(&flags[b - 1]) != 0) break;
        }
    }
    store_volatile(&values[b], before + 1);
    __threadfence();
    store_volatile(&flags[b], 1);
    out[b] = before + 1;
}
// Fixed: the flag, then a fence, then the value.
__global__ void flag_then_value(int* values, int* flags, int* out) {
    if (threadIdx.x != 0) return;
    const int b = blockIdx.x;
    int before = 0;
    if (b > 0) {
        while (load_volatile(&flags[b - 1]) == 0) {
        }
        __threadfence();
        before = load_volatile(&values[b - 1]);
    }
    store_volatile(&values[b], before + 1);
    __threadfence();
    store_volatile(&flags[b], 1);
    out[b] = before + 1;
}

// 1b. The value read with a plain load, once, after block 0 wrote it (block 1 waits first),
//     then the flag: nothing orders the read after the write, which is a data race, reported at
//     the read (what the race report says to do is what the flag and the fences are for).
__global__ void plain_value_then_flag(int* values, int* flags, int* out) {
    if (threadIdx.x != 0) return;
    if (blockIdx.x == 0) {
        values[0] = 42;
        __threadfence();
        store_volatile(&flags[0], 1);
    } else if (blockIdx.x == 1) {
        for (int i = 0; i < 50; ++i) __nanosleep(100); // block 0 writes first
        // BUG: plain-value-then-flag
        const int value = values[0];
        __threadfence();
        while (load_volatile(&flags[0]) == 0) {
        }
        out[1] = value;
    }
}

// 2. A 64-bit descriptor (value in the low half, flag in the high half) read whole, but
//    published as two 32-bit stores: a reader can see the new flag with the old value.
__global__ void descriptor_in_two_stores(unsigned long long* words, int* out) {
    if (threadIdx.x != 0) return;
    const int b = blockIdx.x;
    int before = 0;
    if (b > 0) {
        unsigned long long w;
        while (((w = load_word(&words[b - 1])) >> 32) == 0) {
        }
        before = static_cast<int>(static_cast<unsigned>(w));
    }
    volatile unsigned* halves = reinterpret_cast<volatile unsigned*>(&words[b]);
    // BUG: descriptor-two-stores
    halves[0] = static_cast<unsigned>(before + 1);
    halves[1] = 1u;
    out[b] = before + 1;
}
// Fixed: flag and value built in a register, published in one 64-bit store.
__global__ void descriptor_in_one_store(unsigned long long* words, int* out) {
    if (threadIdx.x != 0) return;
    const int b = blockIdx.x;
    int before = 0;
    if (b > 0) {
        unsigned long long w;
        while (((w = load_word(&words[b - 1])) >> 32) == 0) {
        }
        before = static_cast<int>(static_cast<unsigned>(w));
    }
    *reinterpret_cast<volatile unsigned long long*>(&words[b]) =
        (1ull << 32) | static_cast<unsigned>(before + 1);
    out[b] = before + 1;
}

// 3. The same descriptor published in one store but read as two 32-bit loads: between them the
//    writer may store again (here: the aggregate, then the final value, as a look-back does), so
//    the halves can come from different stores.
__global__ void descriptor_in_two_loads(unsigned long long* words, int* out) {
    if (threadIdx.x != 0) return;
    const int b = blockIdx.x;
    int before = 0;
    if (b > 0) {
        const volatile unsigned* halves = reinterpret_cast<const volatile unsigned*>(&words[b - 1]);
        while (halves[1] != 2u) {
        }
        // BUG: descriptor-two-loads
        before = static_cast<int>(halves[0]);
    }
    volatile unsigned long long* mine = reinterpret_cast<volatile unsigned long long*>(&words[b]);
    *mine = (1ull << 32) | 0xFFFFFFFFu; // "aggregate only": not the value the next block wants
    *mine = (2ull << 32) | static_cast<unsigned>(before + 1);
    out[b] = before + 1;
}
// Fixed: one 64-bit load of the whole descriptor.
__global__ void descriptor_in_one_load(unsigned long long* words, int* out) {
    if (threadIdx.x != 0) return;
    const int b = blockIdx.x;
    int before = 0;
    if (b > 0) {
        unsigned long long w;
        while (((w = load_word(&words[b - 1])) >> 32) != 2u) {
        }
        before = static_cast<int>(static_cast<unsigned>(w));
    }
    volatile unsigned long long* mine = reinterpret_cast<volatile unsigned long long*>(&words[b]);
    *mine = (1ull << 32) | 0xFFFFFFFFu;
    *mine = (2ull << 32) | static_cast<unsigned>(before + 1);
    out[b] = before + 1;
}

// 4. Stream compaction's count: every block adds its kept elements with atomicAdd, and the last
//    block copies the counter with a plain load, assuming the others have added already.
__device__ inline bool kept(int x) {
    return x % 3 == 0;
}
__global__ void count_copied_by_last_block(const int* in, int n, int* count, int* total) {
    const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (i < n && kept(in[i])) atomicAdd(count, 1);
    __syncthreads();
    if (blockIdx.x == gridDim.x - 1 && threadIdx.x == 0) {
        // BUG: count-read-early
        *total = *count;
    }
}
// Fixed: the block that finishes last (a ticket taken after a fence) copies the count.
__global__ void count_copied_after_all(const int* in, int n, int* count, unsigned* done,
                                       int* total) {
    __shared__ bool last;
    const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (i < n && kept(in[i])) atomicAdd(count, 1);
    __syncthreads();
    if (threadIdx.x == 0) {
        __threadfence(); // the block's adds come before its ticket
        last = atomicAdd(done, 1u) == gridDim.x - 1;
    }
    __syncthreads();
    if (last && threadIdx.x == 0) {
        __threadfence(); // and the other blocks' adds before this read
        *total = *count;
    }
}

// 5. Block 0 resets the tile counter inside the kernel while the other blocks take tickets from
//    it: on an in-order dispatch block 0 usually runs first, and the tickets come out right.
__global__ void counter_reset_in_kernel(unsigned* counter, int* tickets) {
    if (threadIdx.x != 0) return;
    if (blockIdx.x == 0) {
        // BUG: counter-reset-in-kernel
        *counter = 0;
    }
    tickets[blockIdx.x] = static_cast<int>(atomicAdd(counter, 1u));
}
// Fixed: the host resets the counter (cudaMemset) before the launch.
__global__ void counter_reset_by_host(unsigned* counter, int* tickets) {
    if (threadIdx.x != 0) return;
    tickets[blockIdx.x] = static_cast<int>(atomicAdd(counter, 1u));
}

// 6. A block reads its neighbour's partial result, which the neighbour writes only later: a
//    plain read and another block's write with nothing ordering them (write after read).
__global__ void read_before_neighbour_writes(int* partial, int* out) {
    if (threadIdx.x != 0) return;
    const int b = blockIdx.x;
    if (b + 1 < static_cast<int>(gridDim.x)) {
        // BUG: read-before-neighbour-writes
        out[b] = partial[b + 1];
    }
    for (int k = 0; k < 20; ++k) __nanosleep(100); // the next block reads meanwhile
    partial[b] = 10 * b;
}
// Fixed: two kernels (the boundary orders every write before every read).
__global__ void write_partials(int* partial) {
    if (threadIdx.x == 0) partial[blockIdx.x] = 10 * static_cast<int>(blockIdx.x);
}
__global__ void read_next_partial(const int* partial, int* out) {
    const int b = blockIdx.x;
    if (threadIdx.x == 0 && b + 1 < static_cast<int>(gridDim.x)) out[b] = partial[b + 1];
}

// 7. Programmatic dependent launch: the second kernel reads the first one's output before
//    cudaGridDependencySynchronize().
__global__ void produce(const int* in, int* mid, int n) {
    const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    cudaTriggerProgrammaticLaunchCompletion(); // the dependent kernel may start now
    if (i < n) mid[i] = 2 * in[i];
}
__global__ void consume_too_early(const int* mid, int* out, int n) {
    const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    // BUG: read-before-grid-dependency-sync
    const int x = i < n ? mid[i] : 0;
    cudaGridDependencySynchronize();
    if (i < n) out[i] = x + 1;
}
// Fixed: wait for the first kernel, then read its output.
__global__ void consume_after_sync(const int* mid, int* out, int n) {
    const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    cudaGridDependencySynchronize();
    if (i < n) out[i] = mid[i] + 1;
}
// Launches `second` right after `produce`, programmatically dependent on it.
template <class Kernel>
cudaError_t launch_dependent(Kernel second, const int* mid, int* out, int n, int threads) {
    cudaLaunchAttribute attribute[1];
    attribute[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attribute[0].val.programmaticStreamSerializationAllowed = 1;
    cudaLaunchConfig_t config = {};
    config.gridDim = dim3((n + threads - 1) / threads);
    config.blockDim = dim3(threads);
    config.dynamicSmemBytes = 0;
    config.stream = nullptr;
    config.attrs = attribute;
    config.numAttrs = 1;
    return cudaLaunchKernelEx(&config, second, mid, out, n);
}

// 8. A warp sum of the first n elements: lanes past n return, and the others shuffle with
//    __activemask(), which names only them; a lane whose source lane returned reads an undefined
//    value, and it flows into lane 0's sum.
__global__ void shuffle_after_return(const int* in, int* out, int n) {
    const int lane = static_cast<int>(threadIdx.x);
    if (lane >= n) return;
    int x = in[lane];
    for (int offset = 16; offset > 0; offset /= 2) {
        // BUG: shuffle-from-exited-lane
        x += __shfl_down_sync(__activemask(), x, offset);
    }
    if (lane == 0) *out = x;
}
// Fixed: every lane stays, the lanes past n with the identity.
__global__ void shuffle_with_identity(const int* in, int* out, int n) {
    const int lane = static_cast<int>(threadIdx.x);
    int x = lane < n ? in[lane] : 0;
    for (int offset = 16; offset > 0; offset /= 2) x += __shfl_down_sync(0xffffffffu, x, offset);
    if (lane == 0) *out = x;
}
// What __activemask() returns: after lanes past n returned, and in a whole warp.
__global__ void active_masks(unsigned* masks, int n) {
    const int lane = static_cast<int>(threadIdx.x);
    if (lane >= n) return;
    masks[lane] = __activemask();
}

// __activemask() in a branch, between two full-warp intrinsics: the even lanes run the branch
// together, so their mask is the even lanes; the ballot after the branch waits for every lane.
__global__ void active_mask_in_branch(unsigned* masks, unsigned* ballot) {
    const int lane = static_cast<int>(threadIdx.x);
    const int first = __shfl_sync(0xffffffffu, lane, 0); // 0
    unsigned mask = 0;
    if (lane % 2 == 0) mask = __activemask();
    const unsigned votes = __ballot_sync(0xffffffffu, lane < 4);
    masks[lane] = mask + static_cast<unsigned>(first);
    if (lane == 0) *ballot = votes;
}

} // namespace memory_model

#undef load_volatile
#undef store_volatile
#undef load_word
