/* validate.h — checking a matching against its graph (used by the tests and
 * by `coarsen match --check`): validity (mates in range, symmetric, never
 * self, every pair an edge, every pair within the vertex-weight cap),
 * maximality among eligible edges, weight and cardinality. Host only. */
#ifndef MATCHING_VALIDATE_H
#define MATCHING_VALIDATE_H

#include "coarsen.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct match_check {
    int valid;              /* every rule above holds */
    int maximal;            /* no eligible edge joins two unmatched vertices (valid only) */
    int64_t matched_edges;  /* pairs (valid only) */
    int64_t matched_vertices;
    double weight;          /* total weight, fixed order of match_weight.h (valid only) */
} match_check;

/* Checks mate[g->n] on host graph g under cap (<= 0: none). Returns 0 when
 * valid, else COARSEN_ERR_INPUT with the first broken rule in err (e.g.
 * "mate[3] = 5 but mate[5] = -1"); out (may be NULL) is filled either way. */
int match_validate(const coarsen_graph *g, const int32_t *mate, int64_t cap, match_check *out,
                   coarsen_error *err);

#ifdef __cplusplus
}
#endif
#endif
