/* kernel_util.cuh — launch geometry shared by the contraction, two-hop, HEC
 * and ROMA kernels: grid-stride loops over int64 item counts, one thread or
 * one warp per item; a lane found by its start; block-aggregated counters;
 * and the bit range of their radix sorts. */
#ifndef CONTRACT_KERNEL_UTIL_CUH
#define CONTRACT_KERNEL_UTIL_CUH

#include <stdint.h>

enum { KU_THREADS = 256, KU_WARP = 32 };

/* Blocks for `items` work items of `per_item` threads each: at least one
 * (kernels loop with a grid stride, so an empty range launches one idle
 * block), at most 65536 * 4 blocks. */
static inline unsigned ku_blocks(int64_t items, int per_item = 1)
{
    int64_t threads = items * per_item;
    int64_t b = (threads + KU_THREADS - 1) / KU_THREADS;
    const int64_t cap = (int64_t)1 << 18;
    return (unsigned)(b < 1 ? 1 : b > cap ? cap : b);
}

/* Bits a radix sort needs for keys in [0, bound): at least 1, at most 31. */
static inline int ku_key_bits(int64_t bound)
{
    int b = 1;
    while (b < 31 && ((int64_t)1 << b) < bound)
        b++;
    return b;
}

/* Grid-stride loop index and stride of the calling thread / warp. */
__device__ __forceinline__ int64_t ku_thread() { return (int64_t)blockIdx.x * blockDim.x + threadIdx.x; }
__device__ __forceinline__ int64_t ku_threads() { return (int64_t)gridDim.x * blockDim.x; }
__device__ __forceinline__ int64_t ku_warp() { return ku_thread() / KU_WARP; }
__device__ __forceinline__ int64_t ku_warps() { return ku_threads() / KU_WARP; }
__device__ __forceinline__ int ku_lane() { return (int)(threadIdx.x % KU_WARP); }

/* For lane starts increasing over the warp's lanes (start: this lane's),
 * the last lane whose start is <= t (this lane's t; lane 0's start must be
 * <= it): a binary search over shuffles. Every lane of the warp calls it. */
template <typename T>
__device__ __forceinline__ int ku_lane_at(T start, T t)
{
    int l = 0;
#pragma unroll
    for (int step = KU_WARP / 2; step > 0; step /= 2)
        if (__shfl_sync(0xffffffffu, start, l + step) <= t)
            l += step;
    return l;
}

/* Adds the block's c (one per thread) to *counter with one atomic per
 * block: a counter that every warp of a large grid hits serializes them
 * (same-address atomics; 0.5-3 ms a kernel on a level of 10^7 vertices).
 * The sum does not depend on the order. Every thread of the block calls it
 * (it synchronizes the block), after its grid-stride loop; blocks of whole
 * warps, at most 1024 threads. */
__device__ __forceinline__ void ku_block_add(unsigned c, unsigned long long *counter)
{
    __shared__ unsigned warp_sum[32];
    c = __reduce_add_sync(0xffffffffu, c);
    __syncthreads(); /* a previous call's sums are read */
    if (ku_lane() == 0)
        warp_sum[threadIdx.x / KU_WARP] = c;
    __syncthreads();
    if (threadIdx.x == 0) {
        unsigned s = 0;
        for (unsigned w = 0; w < blockDim.x / KU_WARP; w++)
            s += warp_sum[w];
        if (s)
            atomicAdd(counter, (unsigned long long)s);
    }
}

/* The same for a maximum: *target = max(*target, the block's largest d),
 * one atomic per block where that is positive. */
__device__ __forceinline__ void ku_block_max(int d, int *target)
{
    __shared__ int warp_max[32];
    d = __reduce_max_sync(0xffffffffu, d);
    __syncthreads(); /* a previous call's maxima are read */
    if (ku_lane() == 0)
        warp_max[threadIdx.x / KU_WARP] = d;
    __syncthreads();
    if (threadIdx.x == 0) {
        int m = 0;
        for (unsigned w = 0; w < blockDim.x / KU_WARP; w++)
            m = warp_max[w] > m ? warp_max[w] : m;
        if (m > 0)
            atomicMax(target, m);
    }
}

#endif
