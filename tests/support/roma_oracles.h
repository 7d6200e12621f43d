/* roma_oracles.h — what the ROMA tests share: a brute-force enumeration of
 * every 2-augmentation centred at a vertex (written independently of
 * matching/roma_aug.h: it builds each new matching and re-sums its weight),
 * a naive matching weight and random starting matchings. */
#ifndef TESTS_SUPPORT_ROMA_ORACLES_H
#define TESTS_SUPPORT_ROMA_ORACLES_H

#include <stdint.h>

#include "coarsen.h"
#include "matching/roma.h"

/* Total weight of mate by scanning rows (mate must be valid). */
double oracle_matching_weight(const coarsen_graph *g, const int32_t *mate);

/* The largest gain W(M') - W(M) over the augmentations centred at v (at
 * most two new edges, each at v or mate[v], new pairs within cap), by
 * enumeration; *count receives how many there are (the result is 0 when
 * none). */
double oracle_best_centred_gain(const coarsen_graph *g, const int32_t *mate, int64_t cap, int32_t v, int *count);

/* A random valid (not necessarily maximal) matching under cap: vertices in
 * a hashed order take a random free eligible neighbour with probability
 * 3/4. Pure function of the arguments. */
void test_random_matching(const coarsen_graph *g, int64_t cap, uint64_t seed, int32_t *mate);

#endif
