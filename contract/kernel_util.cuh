/* kernel_util.cuh — launch geometry shared by the contraction, two-hop and
 * HEC kernels: grid-stride loops over int64 item counts, one thread or one
 * warp per item; and the bit range of their radix sorts. */
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

#endif
