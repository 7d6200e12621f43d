/* halving_tree.cuh — the block-level halving tree of the project's
 * fixed-order sums (core/fixed_sum.h, matching/match_weight.h), so that the
 * device adds in exactly the host's order: for .cu files only. */
#ifndef DEVICE_HALVING_TREE_CUH
#define DEVICE_HALVING_TREE_CUH

/* x[0..HALF) in shared memory holds the tree's first level (each thread t
 * wrote x[t]); reduces it in place by x[t] = x[t] + x[t + s] for
 * s = HALF/2, ..., 1 and returns the sum. Every thread of a block of HALF
 * threads must call it. */
template <int HALF>
__device__ __forceinline__ double halving_tree_sum(double *x)
{
    const int t = (int)threadIdx.x;
    __syncthreads();
    for (int s = HALF / 2; s > 0; s >>= 1) {
        if (t < s)
            x[t] = x[t] + x[t + s];
        __syncthreads();
    }
    return x[0];
}

#endif
