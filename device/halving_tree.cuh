/* halving_tree.cuh — the block-level halving tree of the project's
 * fixed-order sums (core/fixed_sum.h, matching/match_weight.h), so that the
 * device adds in exactly the host's order: for .cu files only (the graph
 * totals, coarsen/graph_totals.cu, add the same tree a warp per chunk). */
#ifndef DEVICE_HALVING_TREE_CUH
#define DEVICE_HALVING_TREE_CUH

/* x[0..HALF) in shared memory holds the tree's first level (each thread t
 * wrote x[t]); reduces it by x[t] = x[t] + x[t + s] for s = HALF/2, ..., 1
 * and returns the sum to every thread. Every thread of a block of HALF
 * threads must call it. The levels s >= 32 go through shared memory, one
 * block barrier each; the last ones, within the first warp, by shuffles
 * (lane t adds lane t + s's value: the same additions, without a barrier
 * a level); x[0] then holds the sum. */
template <int HALF>
__device__ __forceinline__ double halving_tree_sum(double *x)
{
    const int t = (int)threadIdx.x;
    __syncthreads();
    int s = HALF / 2;
    for (; s >= 32; s >>= 1) {
        if (t < s)
            x[t] = x[t] + x[t + s];
        __syncthreads();
    }
    if (t < 32) { /* x[0..2s) holds the level before s */
        double v = t < 2 * s ? x[t] : 0.0;
        for (; s > 0; s >>= 1)
            v = v + __shfl_down_sync(0xffffffffu, v, s);
        if (t == 0)
            x[0] = v;
    }
    __syncthreads();
    return x[0];
}

#endif
