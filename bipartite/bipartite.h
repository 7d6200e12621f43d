/* bipartite.h — the bipartite graph of a sparse matrix's pattern: rows on one
 * side, columns on the other, an edge (i, j) for every stored entry, with the
 * entry's value kept as the edge's benefit (for the auction). Stored twice:
 * by row (CSR: each row's columns) and by column (CSC: each column's rows),
 * both sorted by index, without duplicates; int64 offsets, int32 ids.
 * Rectangular and unsymmetric matrices are the point of this type.
 *
 * A matching is two arrays: row_match[r] = matched column or -1 and
 * col_match[c] = matched row or -1, each the inverse of the other.
 * All memory here is host memory from malloc, owned by the bip_graph. */
#ifndef BIPARTITE_BIPARTITE_H
#define BIPARTITE_BIPARTITE_H

#include <stdint.h>

#include "coarsen.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct bip_graph {
    int32_t rows, cols;
    int64_t nnz;
    int64_t *rptr;   /* rows + 1 offsets into rind/rval */
    int32_t *rind;   /* column of each entry, row by row */
    double *rval;    /* value of each entry, row by row */
    int64_t *cptr;   /* cols + 1 offsets into cind/cval */
    int32_t *cind;   /* row of each entry, column by column */
    double *cval;    /* value of each entry, column by column */
    int integral;    /* 1 when every value is an integer */
} bip_graph;

/* Builds the graph of count entries (i[k], j[k], value[k]) (0-based, value
 * may be NULL for a pattern: all ones). Duplicate (i, j) entries are summed.
 * Ids must lie in range (checked: input error). The caller frees *out. */
int bip_from_entries(int32_t rows, int32_t cols, int64_t count, const int32_t *i, const int32_t *j,
                     const double *value, bip_graph **out, coarsen_error *err);

/* Builds the graph from a row view the caller hands over (ownership of rptr,
 * rind, rval passes to the graph, also on failure): each row's columns must
 * be strictly increasing and in range (checked: input error). */
int bip_from_csr(int32_t rows, int32_t cols, int64_t *rptr, int32_t *rind, double *rval, bip_graph **out,
                 coarsen_error *err);

/* Reads a Matrix Market file (any field; symmetric, skew and hermitian
 * storage is expanded to both triangles) as a bipartite graph. */
int bip_load(const char *path, bip_graph **out, coarsen_error *err);

void bip_free(bip_graph *g);

/* Position of entry (r, c) in the row view (rind/rval), or -1 when absent. */
int64_t bip_find_entry(const bip_graph *g, int32_t r, int32_t c);

/* 0 when row_match/col_match form a valid matching of g (mutually inverse,
 * every pair an entry); otherwise an error naming the first violation.
 * *cardinality (may be NULL) receives the number of matched pairs. */
int bip_matching_check(const bip_graph *g, const int32_t *row_match, const int32_t *col_match,
                       int64_t *cardinality, coarsen_error *err);

#ifdef __cplusplus
}
#endif
#endif
