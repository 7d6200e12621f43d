/* redblue_rules.h — the random draws of the red/blue matcher (Fagginger Auer
 * & Bisseling), shared by the CPU and GPU code so both draw the same numbers:
 * the colour of a vertex in a round and the hash keys of random mode. Every
 * draw is a pure function of (seed, round, vertices), see core/hash.h. */
#ifndef MATCHING_REDBLUE_RULES_H
#define MATCHING_REDBLUE_RULES_H

#include <stdint.h>

#include "core/hash.h"

#define REDBLUE_SALT_PROPOSE 0x70726f706f7365ULL /* "propose" */
#define REDBLUE_SALT_ACCEPT 0x616363657074ULL    /* "accept" */

/* 1 when v is blue in round r (probability p). */
COARSEN_HD int redblue_is_blue(uint64_t seed, int32_t round, int32_t v, double p)
{
    return hash_unit(hash3(seed, (uint64_t)round, (uint64_t)v)) < p;
}

/* Random mode: the key of pair {u, v} in round r under salt; larger wins (so
 * the smallest hash wins). Exact: 53 bits fit a double. */
COARSEN_HD double redblue_random_key(uint64_t seed, uint64_t salt, int32_t round, int32_t u, int32_t v)
{
    uint64_t lo = (uint64_t)(uint32_t)(u < v ? u : v), hi = (uint64_t)(uint32_t)(u < v ? v : u);
    return -(double)(hash3(seed ^ salt, (uint64_t)round, (hi << 32) | lo) >> 11);
}

#endif
