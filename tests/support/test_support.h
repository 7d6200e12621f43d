/* test_support.h — helpers every test file may use: small random graphs,
 * the shared-data folder, and exact oracles on small graphs. Oracles here are
 * deliberately naive (enumeration) so they are independent of the code under
 * test. */
#ifndef TESTS_SUPPORT_TEST_SUPPORT_H
#define TESTS_SUPPORT_TEST_SUPPORT_H

#include <stdint.h>

#include "coarsen.h"

/* Random simple graph on n vertices, each pair an edge with probability p
 * (in [0,1]); weights: 0 unit, 1 integers in [1, 4] (many ties), 2 reals in
 * (0, 1]. Vertex weights 1. Pure function of its arguments. */
coarsen_graph *test_random_graph(int32_t n, double p, int weight_mode, uint64_t seed);

/* The graph of a generator spec ("rgg:n=1000,deg=8,weights=int", see
 * gen_opts_parse_spec); fails the running test on a bad spec. Caller frees. */
coarsen_graph *test_gen(const char *spec);

/* The folder of shared real graphs (COARSEN_DATA, default ../shared/data),
 * or NULL when it is absent; the caller then skips visibly (cr_skip_test). */
const char *test_data_dir(void);

/* Maximum weight of any matching of g (n <= 20), by enumeration over subsets. */
double oracle_max_matching_weight(const coarsen_graph *g);

/* 1 when v is in u's row (linear scan: independent of the sorted-row search
 * under test). */
int test_has_edge(const coarsen_graph *g, int32_t u, int32_t v);

/* 1 when mate[] is a valid matching of g (symmetric, every pair an edge). */
int oracle_matching_valid(const coarsen_graph *g, const int32_t *mate);

/* 1 when no edge of g joins two unmatched vertices. */
int oracle_matching_maximal(const coarsen_graph *g, const int32_t *mate);

/* 1 when the GPU backend can run here (built with CUDA and a GPU present). */
int test_have_gpu(void);

#endif
