/* graph_build.h — turning a list of stored entries (i, j, w) into a
 * coarsen_graph, with the merge rules of docs/formats.md. Used by the Matrix
 * Market reader, the generators and anything else that produces edges.
 *
 * Steps: (1) drop diagonal entries; (2) merge duplicates of the same stored
 * key with dup_rule (for mirrored input the key is the unordered pair);
 * (3) take |w|; (4) emit both directions and merge the two directions of an
 * edge with sym_rule; (5) sort rows. The result satisfies every invariant of
 * coarsen_graph. */
#ifndef CORE_GRAPH_BUILD_H
#define CORE_GRAPH_BUILD_H

#include "coarsen.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum merge_rule { MERGE_SUM = 0, MERGE_MAX = 1 } merge_rule;

/* A growable list of stored entries; the owner frees it with edge_list_free. */
typedef struct edge_list {
    int64_t count, cap;
    int32_t *i, *j;
    double *w;
} edge_list;

/* Reserves room for cap entries (count = 0). */
int edge_list_init(edge_list *e, int64_t cap, coarsen_error *err);
/* Appends one entry, growing geometrically. */
int edge_list_push(edge_list *e, int32_t i, int32_t j, double w, coarsen_error *err);
void edge_list_free(edge_list *e);

typedef struct graph_build_opts {
    int mirrored;          /* 1: (i,j) and (j,i) are the same stored entry (symmetric input) */
    merge_rule dup_rule;   /* duplicates of one stored key */
    merge_rule sym_rule;   /* the two directions of an edge (unmirrored input) */
} graph_build_opts;

typedef struct graph_build_stats {
    int64_t diagonal_dropped;
    int64_t duplicates_merged;
    int64_t zero_weight_edges;   /* undirected edges of weight 0 in the result */
} graph_build_stats;

/* Builds the graph on n vertices. Every index must already be in [0, n).
 * Vertex weights are set to 1. e is left unchanged. stats may be NULL. */
int graph_from_edges(int32_t n, const edge_list *e, const graph_build_opts *opts,
                     coarsen_graph **out, graph_build_stats *stats, coarsen_error *err);

/* graph_from_edges's second half, also for a block of rows (coarsen-mpi's
 * Matrix Market reading, dist/read.h): g [in/out] holds its rows' entries
 * as placed, row r (global row first + r) at [off[r], off[r + 1]) of
 * g->adj (global neighbour ids) and g->ewgt, each row's entries in the
 * order of their stored entries, with rev [in, may be NULL when
 * opts->mirrored] 1 for the mirror of a stored (c, r); every row is merged
 * by the rules above and the rows closed up: g->xadj, nnz, vwgt (1),
 * integral_weights set. *dups [out]: the duplicates merged, *zero_entries
 * [out]: the entries of weight 0 (twice the undirected zero edges over the
 * whole graph). off must not be g->xadj, which holds the row lengths while
 * the rows are merged. */
int graph_merge_rows(coarsen_graph *g, const int64_t *off, const uint8_t *rev, int32_t first,
                     const graph_build_opts *opts, int64_t *dups, int64_t *zero_entries, coarsen_error *err);

/* Sorts every row of g by neighbour id, carrying the weights along (rows of
 * any length; parallel over rows): graph_sort_neighbours on each. */
int graph_sort_rows(coarsen_graph *g, coarsen_error *err);

/* One entry of a row being built: neighbour, 1 when it is the mirror of a
 * stored entry (unmirrored input only), weight. */
typedef struct graph_entry {
    int32_t col;
    int32_t rev;
    double w;
} graph_entry;

/* Sorts one row by (col, rev), stably: nothing when already sorted,
 * insertion sort for short rows, merge sort through a scratch buffer for
 * long ones. Returns -1 when that buffer cannot be allocated. */
int graph_row_sort(graph_entry *r, int64_t len);

/* Sorts one row, neighbours adj [in/out] and weights w [in/out] of len
 * entries, by neighbour id, stably (equal ids keep their order): nothing
 * when already sorted, in place by insertion for short rows, through
 * graph_row_sort in *scratch [in/out] (grown as needed, *cap its capacity;
 * the caller frees it) for long ones. Returns -1 when *scratch cannot
 * grow. */
int graph_sort_neighbours(int32_t *adj, double *w, int64_t len, graph_entry **scratch, int64_t *cap);

#ifdef __cplusplus
}
#endif
#endif
