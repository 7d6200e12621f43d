/* contract_oracles.h — test helpers for contraction and two-hop matching:
 * random matchings and maps, and naive oracles (dense recount, cuts,
 * brute-force twin classes) independent of the code under test. Stars and
 * random vertex weights come from match_oracles.h. */
#ifndef TESTS_SUPPORT_CONTRACT_ORACLES_H
#define TESTS_SUPPORT_CONTRACT_ORACLES_H

#include <stdint.h>

#include "coarsen.h"

/* A maximal matching of g by a greedy pass in a seeded random vertex order,
 * each vertex taking a random unmatched neighbour (mate has g->n entries). */
void oracle_random_greedy_matching(const coarsen_graph *g, uint64_t seed, int32_t *mate);

/* A random map of n vertices onto [0, *nc): groups of 1..max_group vertices
 * (random members, random coarse ids). */
void oracle_random_map(int32_t n, int max_group, uint64_t seed, int32_t *cmap, int32_t *nc);

/* Dense nc x nc recount: for a < b, d[a * nc + b] = sum of the weights of
 * fine entries (u, v) with cmap[u] = a, cmap[v] = b, added for u = 0, 1, ...
 * in stored row order; d[b * nc + a] = the same value; present[] = 1 where
 * such an entry exists. Caller frees both (malloc). */
void oracle_dense_contract(const coarsen_graph *g, const int32_t *cmap, int32_t nc, double **d, char **present);

/* Weight of the entries of g whose endpoints lie in different parts
 * (each undirected edge counted twice). */
double oracle_cut(const coarsen_graph *g, const int32_t *part);

/* 1 when u and v have the same set of neighbours. */
int oracle_same_neighbours(const coarsen_graph *g, int32_t u, int32_t v);

/* 1 when u and v have a neighbour in common (all pairs of entries). */
int oracle_share_neighbour(const coarsen_graph *g, int32_t u, int32_t v);

/* Two-hop matching by brute force (matching/two_hop.h's rules, written
 * independently): islands (unmatched, degree 0) listed in id order and
 * paired by position; classes of unmatched vertices of degree >= 1 with
 * identical neighbour sets (all pairs compared), each paired greedily in
 * increasing id under the cap; then, when more than relatives_threshold * n
 * vertices are still unmatched, classes of unmatched vertices of degree >= 1
 * with the same heaviest neighbour (plain scan, ties to the smaller id),
 * paired the same way. Extends mate in place; pairs[0..3] = leaf, twin,
 * relative, island pairs; *blocked = unmatched vertices with an unmatched
 * neighbour at the end. */
void oracle_two_hop(const coarsen_graph *g, int64_t cap, double relatives_threshold, int32_t *mate,
                    int64_t pairs[4], int64_t *blocked);

/* 1 when a and b are identical graphs, bit for bit (host graphs); on a
 * difference, writes what differs to why. */
int graphs_identical(const coarsen_graph *a, const coarsen_graph *b, char *why, size_t why_len);

/* A graph with many twins and leaves: vertices get one of `types` types,
 * two vertices of different types are adjacent when their types are (random
 * type graph, probability p), and `leaves` extra degree-1 vertices hang on
 * random vertices. Weights as test_random_graph's weight_mode. */
coarsen_graph *oracle_twin_graph(int32_t n, int32_t types, double p, int32_t leaves, int weight_mode, uint64_t seed);

#endif
