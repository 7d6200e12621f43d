/* match_oracles.h — what the matching tests share: the sequential greedy
 * oracle (written independently of matching/), test graphs beyond
 * test_random_graph (sparse random, star, random vertex weights), the CPU vs
 * GPU comparison and shared-graph loading. */
#ifndef TESTS_SUPPORT_MATCH_ORACLES_H
#define TESTS_SUPPORT_MATCH_ORACLES_H

#include <stddef.h>
#include <stdint.h>

#include "coarsen.h"
#include "matching/edge_order.h" /* tie_rule, tie_rank: the scramble is part of the spec */
#include "matching/matching.h"

/* Greedy matching over the edges with vwgt[u] + vwgt[v] <= cap (cap <= 0: all)
 * sorted by weight desc, smaller endpoint rank asc, larger endpoint rank asc
 * (qsort), where a vertex's rank is tie_rank(ties, id): its id by default. */
void oracle_greedy_matching(const coarsen_graph *g, int64_t cap, tie_rule ties, int32_t *mate);

/* Heaviest eligible neighbour of v (ties to the smaller rank) by a plain scan. */
int32_t oracle_strongest(const coarsen_graph *g, int32_t v, int64_t cap, tie_rule ties);

/* Ties by vertex id (the default rule). */
#define TIES_BY_ID ((tie_rule){0, 0})

/* Random graph with about m undirected edges on n vertices (duplicates
 * merged), weights as test_random_graph's modes (0 unit, 1 ints 1..4, 2 reals,
 * 3 all zero). Pure function of the arguments. */
coarsen_graph *test_sparse_graph(int32_t n, int64_t m, int weight_mode, uint64_t seed);

/* Star: vertex 0 joined to every other vertex, plus a sparse random graph of
 * about m edges among the leaves (skewed degrees, heavy vertex 0). */
coarsen_graph *test_star_graph(int32_t n, int64_t m, int weight_mode, uint64_t seed);

/* Sets vertex weights to random integers in [1, max_w]. */
void test_random_vertex_weights(coarsen_graph *g, int64_t max_w, uint64_t seed);

/* Runs opts on g with match_cpu and through exec_match_host on the GPU backend and compares
 * mates, strongest neighbours and stats (all but ms) bit for bit. Returns 0
 * when identical, else 1 with the first difference (or the error) in why. */
int test_compare_cpu_gpu(const coarsen_graph *g, const matching_opts *opts, char *why, size_t why_len);

/* test_compare_cpu_gpu under each of a fixed list of GPU launch shapes
 * (every group width, medium classes, heavy cut-offs down to 1); why names
 * the shape. */
int test_compare_all_shapes(const coarsen_graph *g, matching_opts opts, char *why, size_t why_len);

/* GPU vs CPU (all shapes) on test_small_graph(t, seed) for t < count,
 * opts varied per graph: every fourth gets random vertex weights and cap 5,
 * every eighth (t % 8 == 5) one pass/round only, every third (t % 3 == 1)
 * hashed ties, and opts.seed = t; for handshake the rating cycles through
 * weight, expansion and expansion2 (t % 3), with vertex weights on t % 4 == 1. */
int test_gpu_small_graphs(matching_opts opts, int count, uint64_t seed, char *why, size_t why_len);

/* match_cpu with 1 and with 2 OpenMP threads: 0 when mates and stats (but
 * ms) are identical, else 1 with the difference in why. */
int test_threads_independent(const coarsen_graph *g, const matching_opts *opts, char *why, size_t why_len);

/* Small random graph number t: 1 + t % 16 vertices, density varying with
 * t / 16, weight mode t % 3 (test_random_graph's modes). */
coarsen_graph *test_small_graph(int t, uint64_t seed);

/* Loads a shared graph by file name from test_data_dir(); NULL with the
 * reason in why when it cannot be read. *skip is 1 when the reason is a
 * missing folder or a build without graph readers (the test then skips
 * visibly), 0 when the file itself failed (the test then fails). */
coarsen_graph *test_load_shared(const char *name, int *skip, char *why, size_t why_len);

/* Calls fn(g, name) for each of the named shared graphs. Returns 0 when all
 * were loaded, -1 when shared graphs cannot be read here (why says why: the
 * test skips visibly), 1 when a file failed to load (the test fails). */
int test_each_shared(const char *const *names, size_t count, void (*fn)(const coarsen_graph *, const char *),
                     char *why, size_t why_len);

#endif
