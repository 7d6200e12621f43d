/* transversal_graph.h — `coarsen --transversal`: a Matrix Market matrix of
 * any shape is read as a bipartite graph, its columns are permuted by a
 * maximum transversal (bipartite/transversal.h) so the diagonal is as full as
 * possible, and the permuted matrix B becomes an undirected graph by the
 * general-matrix rules of docs/formats.md (pattern of B + B^T, weight
 * max(|b_ij|, |b_ji|), diagonal dropped). An m x n matrix gives a graph on
 * max(m, n) vertices: B is padded with empty rows or columns to a square
 * (no entry is lost; vertex i stands for row i and for column col_perm[i]). */
#ifndef COARSEN_TRANSVERSAL_GRAPH_H
#define COARSEN_TRANSVERSAL_GRAPH_H

#include "bipartite/transversal.h"

/* What the transversal did, for stderr and stats.json. */
typedef struct transversal_info {
    bip_transversal_kind kind;
    int32_t rows, cols;
    bip_transversal_result res;
} transversal_info;

/* "pr" or "weighted". */
const char *transversal_kind_name(bip_transversal_kind kind);

/* Loads path (Matrix Market only: a METIS file is an input error saying so;
 * "-" reads standard input), computes the transversal (on the GPU when
 * use_gpu) and builds the graph.
 * *out (host graph) and *col_perm (info->cols entries, malloc'd: position i
 * holds the original column placed at column i) belong to the caller. */
int transversal_graph_load(const char *path, bip_transversal_kind kind, int use_gpu, coarsen_graph **out,
                           int32_t **col_perm, transversal_info *info, coarsen_error *err);

#endif
