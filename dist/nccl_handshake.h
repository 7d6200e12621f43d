/* nccl_handshake.h — the device side of the distributed handshake on GPUs
 * (dist/handshake.h's passes, dist/nccl.h's runs): the level's rows, the
 * extended arrays (ghosts.h) of vertex weights, mate status and pointers,
 * and the ghost plan live on this rank's GPU; a pass is one kernel that
 * chooses (edge_order.h's rules, as dist/handshake.c's best_neighbour), two
 * ghost exchanges through NCCL (status before, pointers after) and one
 * kernel that matches mutual pointers and counts the vertices still active,
 * the one figure that crosses to the host. C interface over
 * dist/nccl_handshake.cu; the passes' loop and its MPI_Allreduce are
 * dist/nccl_handshake.c's. */
#ifndef DIST_NCCL_HANDSHAKE_H
#define DIST_NCCL_HANDSHAKE_H

#include "dist/nccl_exchange.h"
#include "matching/matching.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct dist_nccl_hs dist_nccl_hs;

/* The level as dist_graph and dist_ghosts hold it, borrowed for the call
 * (host memory; the plan's counts stay borrowed until dist_nccl_hs_free). */
typedef struct dist_nccl_level {
    const coarsen_graph *local; /* this rank's rows, neighbours as global ids */
    int32_t first;              /* global id of local vertex 0 */
    const int32_t *ladj;        /* the rows' neighbours as extended indices */
    const int32_t *ghost_gid;   /* nghost global ids */
    int32_t nghost;
    const int32_t *send_idx;    /* the plan (dist_ghosts) */
    const int *sc, *sd, *rc, *rd;
} dist_nccl_level;

/* Collective (one ghost exchange: the vertex weights). Uploads the level
 * and starts every local vertex active, unmatched, pointing nowhere. *out
 * [out] is owned by the caller (dist_nccl_hs_free). */
int dist_nccl_hs_begin(dist_nccl *nc, const dist_nccl_level *lv, const matching_opts *mo, dist_nccl_hs **out,
                       coarsen_error *err);
/* Collective: one pass; *active [out]: this rank's vertices still active. */
int dist_nccl_hs_pass(dist_nccl_hs *s, int64_t *active, coarsen_error *err);
/* mate [out, host, local->n entries]: each local vertex's partner as a
 * global id, or -1. */
int dist_nccl_hs_mates(dist_nccl_hs *s, int32_t *mate, coarsen_error *err);
void dist_nccl_hs_free(dist_nccl_hs *s);

#ifdef __cplusplus
}
#endif

#endif
