/* hec_order.h — the order in which HEC admits the candidates of a group:
 * (leader, rating descending, id), as a key of two 64-bit words for
 * core/radix_sort.h (word 0 the rating made monotone, word 1 the leader;
 * the id comes from the input being in increasing id, which the stable
 * sort keeps). The distributed HEC (dist/hec.c) sorts by this key;
 * hec_cpu.c reaches the same order by leader and then by comparison.
 * Ratings must not be -0.0 (the callers add +0.0). Host C only. */
#ifndef MATCHING_HEC_ORDER_H
#define MATCHING_HEC_ORDER_H

#include <stdint.h>
#include <string.h>

/* Word 0 of the key: decreasing as the rating increases. */
static inline uint64_t hec_rating_word(double rating)
{
    uint64_t u;
    memcpy(&u, &rating, sizeof u);
    u = u >> 63 ? ~u : u | (UINT64_C(1) << 63); /* increasing with the rating */
    return ~u;                                  /* decreasing */
}

#endif
