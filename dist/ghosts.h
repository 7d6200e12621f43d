/* ghosts.h — the ghost layer of a distributed level: the vertices of other
 * ranks adjacent to this rank's rows, the exchange plan that brings their
 * per-vertex values (mate status, pointers, coarse ids, weights) here, and
 * the rows' neighbours as indices into "extended" arrays: local vertices
 * 0..nlocal-1, then the ghosts nlocal..nlocal+nghost-1 in increasing global
 * id. */
#ifndef DIST_GHOSTS_H
#define DIST_GHOSTS_H

#include <stddef.h>

#include "dist/vtxdist.h"

typedef struct dist_ghosts {
    int32_t nlocal, nghost;
    int32_t *gid;        /* nghost global ids, increasing (so grouped by owner) */
    int32_t *ladj;       /* local->nnz: row entry e's neighbour as an extended index */
    int *recv_count, *recv_displ; /* per rank: the ghosts it owns, a run of gid */
    int *send_count, *send_displ; /* per rank: the local vertices it holds as ghosts */
    int32_t *send_idx;   /* local indices to send, grouped by destination rank */
} dist_ghosts;

/* Collective. Builds the ghost layer of d [in] into *gh [out, owned by the
 * caller, dist_ghosts_free]. One all-to-all of counts and one of ids. */
int dist_ghosts_build(const dist_graph *d, MPI_Comm comm, dist_ghosts *gh, coarsen_error *err);
/* Collective. ext [in/out]: an extended array of elements of elem bytes;
 * its local part [0, nlocal) is sent, its ghost part [nlocal, nlocal +
 * nghost) receives the owners' values. The sent values packed on the host,
 * then one dist_alltoallv_records (MPI_Alltoallv, or through NCCL when comm
 * carries an NCCL communicator: dist/nccl.h). */
int dist_ghosts_exchange(const dist_ghosts *gh, void *ext, size_t elem, MPI_Comm comm, coarsen_error *err);
/* The extended index of global vertex v among d's rows and gh's ghosts, or
 * -1 when v is neither. */
int32_t dist_ghosts_index(const dist_graph *d, const dist_ghosts *gh, int32_t v);
/* The global id of extended index x. */
static inline int32_t dist_ghosts_gid(const dist_graph *d, const dist_ghosts *gh, int32_t x)
{
    return x < gh->nlocal ? d->first + x : gh->gid[x - gh->nlocal];
}
void dist_ghosts_free(dist_ghosts *gh);

#endif
