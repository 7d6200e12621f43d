/* bipartite_oracle.h — helpers of the bipartite tests: random bipartite
 * graphs and naive enumeration oracles, independent of bipartite/. */
#ifndef TESTS_SUPPORT_BIPARTITE_ORACLE_H
#define TESTS_SUPPORT_BIPARTITE_ORACLE_H

#include <stdint.h>

#include "bipartite/bipartite.h"

/* rows x cols, each (i, j) an entry with probability p; values integers in
 * [1, maxval] (maxval 1: a pattern). Pure function of its arguments. */
bip_graph *bip_test_random(int32_t rows, int32_t cols, double p, int maxval, uint64_t seed);

/* Size of a maximum matching by Hopcroft–Karp from an empty matching (the
 * reference for the faster algorithms and the transversals). */
int64_t bip_test_hk_rank(const bip_graph *g);

/* Size of a maximum matching by enumeration (rows <= 12, cols <= 30). */
int bip_oracle_max_cardinality(const bip_graph *g);

/* Loads NAME from the shared data folder; NULL when the folder is absent. */
bip_graph *bip_test_shared(const char *name);

/* Among the matchings of maximum cardinality, the largest total value, by
 * enumeration (rows <= 7, cols <= 30); *cardinality receives the size. */
double bip_oracle_max_weight(const bip_graph *g, int *cardinality);

#endif
