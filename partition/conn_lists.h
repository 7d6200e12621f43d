/* conn_lists.h — per-vertex connectivity lists for the FM polish: for a
 * vertex, one entry per adjacent part (its number of edges and their weight
 * sum into that part), summed from the vertex's row in CSR order, so that
 * its figures are those of partition_best_move. On integer edge weights a
 * list is built once and then updated as its neighbours move, instead of
 * summing the whole row again at every evaluation: integer sums below 2^53
 * (coarsen.h's bound) are exact in any order, so the updated figures still
 * equal the CSR-order sums. (Real weights have no such exactness: updated,
 * a list is an estimate, and the polish builds it again, in its own room,
 * where it needs the exact figures.) Lists live in a pool for one polish
 * call, each in its own room for the whole call (built again, a list takes
 * the same room); which lists hold for the current parts is the polish's
 * record (polish_fm.c: a move updates its neighbours' lists, a rollback puts
 * every list out of date); a vertex refers to its list by a conn_ref kept in
 * the polish's per-vertex state. Internal to partition/. */
#ifndef PARTITION_CONN_LISTS_H
#define PARTITION_CONN_LISTS_H

#include <stddef.h>

#include "coarsen.h"

typedef struct conn_entry {
    int32_t part;  /* an adjacent part, or a part that was adjacent (edges 0) */
    int32_t edges; /* the vertex's edges into part */
    double conn;   /* their weight sum */
} conn_entry;

typedef struct conn_pool {
    conn_entry *e;
    size_t n, cap;
    int32_t k;
    double *sum;    /* k, zero between builds */
    int32_t *edges; /* k, zero between builds */
    int32_t *seen;  /* k: the parts of the row being built */
} conn_pool;

/* A vertex's list: entries e[off, off + len) of the pool, room for cap. */
typedef struct conn_ref {
    size_t off;
    int32_t len, cap;
    int built; /* 0: no list yet */
} conn_ref;

/* An empty pool for parts 0..k-1. */
int conn_pool_init(conn_pool *p, int32_t k, coarsen_error *err);
void conn_pool_free(conn_pool *p);

/* Builds v's list from its row and the current parts, summing in CSR order
 * (room for min(k, degree) entries: never more distinct adjacent parts); a
 * list built before (r->built) is built again in its own room. */
int conn_build(conn_pool *p, const coarsen_graph *g, const int32_t *part, int32_t v, conn_ref *r,
               coarsen_error *err);

/* A neighbour joined by an edge of weight w moved from part `from` to part
 * `to` != from. */
void conn_shift(conn_pool *p, conn_ref *r, int32_t from, int32_t to, double w);

/* partition_best_move from v's list: the adjacent part other than own of
 * highest connectivity among those with weights[b] + vwgt <= cap (ties: the
 * lowest id) in *best (-1 when none) and conn[best] - conn[own] returned (0
 * when none). */
double conn_best(const conn_pool *p, const conn_ref *r, int32_t own, int64_t vwgt, const int64_t *weights,
                 int64_t cap, int32_t *best);

#endif
