/* hierarchy_check.h — independent checks of one coarsening step (fine
 * graph, map, coarse graph) and of a whole hierarchy, shared by the
 * hierarchy and CLI tests. They recount everything from the fine graph and
 * the map (no code under test is called) and fail the running Criterion
 * test with a message naming the level. */
#ifndef TESTS_SUPPORT_HIERARCHY_CHECK_H
#define TESTS_SUPPORT_HIERARCHY_CHECK_H

#include <stdint.h>

#include "coarsen.h"

/* Checks level `level` = contraction of fine by map: coarse passes
 * coarsen_graph_check; map is onto [0, coarse->n); every group is a single
 * vertex, an adjacent pair (matched), a pair sharing a neighbour (two-hop
 * leaf, twin or relative pair), a pair of isolated vertices (islands) or a
 * group of three or more (clustering) whose members with edges are connected
 * and two or more, with at most one isolated member (HEC's joined island);
 * coarse vertex weights are
 * the members' sums and no group of two or more exceeds cap (cap > 0);
 * total edge weight = fine total -
 * internal edges; and for a few random partitions of coarse the cut equals
 * the cut of the partition projected to fine (exactly for integer weights). */
void check_level(const coarsen_graph *fine, const coarsen_graph *coarse, const int32_t *map, int64_t cap,
                 int level, uint64_t seed);

/* check_level on every level of h (cap COARSEN_VWGT_AUTO: each level's
 * recorded vertex_weight_cap), plus: level stats agree with the graphs,
 * and random partitions of every level cut the finest graph equally when
 * projected through all maps. */
void check_hierarchy(coarsen_hierarchy *h, int64_t cap, uint64_t seed);

/* Edge cut of part[] (undirected edges, each counted once). */
double cut_of(const coarsen_graph *g, const int32_t *part);

#endif
