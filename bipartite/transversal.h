/* transversal.h — column permutations that put a maximum transversal on the
 * diagonal of a matrix (for projecting an unsymmetric or rectangular matrix
 * onto a graph, `coarsen --transversal`): the structural one by maximum-
 * cardinality matching, or the weighted one maximising the product of the
 * diagonal magnitudes among maximum transversals (MC64-style static
 * pivoting) by the auction on log2|a_ij|. */
#ifndef BIPARTITE_TRANSVERSAL_H
#define BIPARTITE_TRANSVERSAL_H

#include "bipartite/bipartite.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum bip_transversal_kind { BIP_TRANSVERSAL_PR = 0, BIP_TRANSVERSAL_WEIGHTED = 1 } bip_transversal_kind;

typedef struct bip_transversal_result {
    int64_t rank;          /* size of the transversal (the structural rank) */
    int64_t diag_before;   /* rows i < cols with an entry (i, i) */
    int64_t diag_after;    /* rows i with an entry (i, col_perm[i]): the rank when rows <= cols
                              (rows beyond the last column cannot reach the diagonal) */
    double log2_product;   /* weighted: sum of log2|a| over the transversal's entries */
    int proven_optimal;    /* weighted: the auction's certificate closed on exact benefits */
} bip_transversal_result;

/* col_perm (cols entries, caller-allocated) receives a permutation of the
 * columns: position i holds the column matched to row i when row i is
 * matched; the other positions take the unmatched columns in increasing
 * order. Permuting the columns so (B[:, i] = A[:, col_perm[i]]) puts the
 * transversal on the diagonal. Weighted: entries of value 0 get benefit
 * (smallest log2 of a non-zero) - 1: used only where the rank needs them.
 * GPU (G-PR / auction) when use_gpu. res may be NULL. */
int bip_transversal(const bip_graph *g, bip_transversal_kind kind, int use_gpu, int32_t *col_perm,
                    bip_transversal_result *res, coarsen_error *err);

#ifdef __cplusplus
}
#endif
#endif
