/* partition_check.h — oracles and fixtures of the partitioning tests: the
 * cut recounted from a dense adjacency matrix, the balance cap recomputed
 * from its definition, random (balanced or not) partitions, generated graphs
 * with random vertex weights, and a check that a partition is valid and
 * within the cap. Independent of partition/ (no call into it). */
#ifndef TESTS_SUPPORT_PARTITION_CHECK_H
#define TESTS_SUPPORT_PARTITION_CHECK_H

#include <stdint.h>

#include "coarsen.h"

/* Cut of part over the pairs i < j of a dense n x n weight matrix built from
 * g (n <= 4096). */
double oracle_partition_cut(const coarsen_graph *g, const int32_t *part);
/* max(floor((1 + eps) W / k), ceil(W / k) + wmax - 1). */
int64_t oracle_cap(const coarsen_graph *g, int32_t k, double eps);
/* Asserts every part id in 0..k-1 and every part weight <= cap. */
void expect_partition_within(const coarsen_graph *g, const int32_t *part, int32_t k, int64_t cap);
/* part[v] = hash of (seed, v) mod k; malloc'd, caller frees. */
int32_t *random_partition(const coarsen_graph *g, int32_t k, uint64_t seed);
/* A generated graph from a spec string (gen/generators.h), vertex weights
 * replaced by hash values in [1, maxvw] when maxvw > 1. Caller frees. */
coarsen_graph *partition_test_graph(const char *spec, int64_t maxvw, uint64_t seed);

#endif
