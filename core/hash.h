/* hash.h — the counter-based random numbers every randomised algorithm uses.
 * A value depends only on (seed, a, b), never on thread timing, so CPU and GPU
 * code that hash the same counters draw the same numbers. Usable from C and
 * CUDA (host and device). */
#ifndef CORE_HASH_H
#define CORE_HASH_H

#include <stdint.h>

#ifdef __CUDACC__
#define COARSEN_HD __host__ __device__ __forceinline__
#else
#define COARSEN_HD static inline
#endif

/* SplitMix64 finaliser: a bijective 64-bit mix. */
COARSEN_HD uint64_t hash_mix64(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

/* 64 random bits for the counter pair (a, b) under seed. */
COARSEN_HD uint64_t hash3(uint64_t seed, uint64_t a, uint64_t b)
{
    return hash_mix64(hash_mix64(hash_mix64(seed) ^ a) ^ b);
}

/* Uniform double in [0, 1) with 53 random bits. */
COARSEN_HD double hash_unit(uint64_t h)
{
    return (double)(h >> 11) * (1.0 / 9007199254740992.0);
}

#endif
