/* vtxdist.h — the 1-D block distribution of a graph over MPI ranks
 * (ParMETIS's vtxdist): rank r owns the vertices [vtxdist[r], vtxdist[r+1])
 * of a level, with their whole rows (neighbour ids global); and the scatter
 * of a graph that rank 0 holds into those blocks. Every rank of the
 * communicator holds the same vtxdist. */
#ifndef DIST_VTXDIST_H
#define DIST_VTXDIST_H

#include <mpi.h>
#include <stdint.h>

#include "coarsen.h"

/* One level, distributed. local is a host coarsen_graph used as storage for
 * the owned rows only: local->n = vtxdist[rank+1] - vtxdist[rank] rows,
 * local->nnz their entries, adj holding GLOBAL ids (so local is not a graph
 * by coarsen_graph_check's rules), vwgt the owned vertices' weights. */
typedef struct dist_graph {
    int32_t n;             /* global vertices */
    int64_t nnz;           /* global adjacency entries */
    int integral_weights;  /* every edge weight an integer (same on all ranks) */
    int nranks, rank;
    int64_t *vtxdist;      /* nranks + 1 entries, owned */
    int32_t first;         /* vtxdist[rank]: the global id of local row 0 */
    coarsen_graph *local;  /* owned */
} dist_graph;

/* Collective. Blocks of equal weight: the ranks hold, in rank order,
 * consecutive runs of the items 0..N-1 (count [in] here, weights w [in],
 * each >= 1); vtxdist [out, nranks + 1 entries, the same on every rank]:
 * vtxdist[k] = the items whose weights before them sum below k W / nranks
 * (W the total), so block k gets about W / nranks. Any vtxdist gives the
 * same hierarchy; this one balances the work. */
void dist_blocks_weighted(int64_t count, const int64_t *w, int64_t *vtxdist, MPI_Comm comm);
/* The rank owning global vertex v under vtxdist (binary search). */
int dist_owner(const int64_t *vtxdist, int nranks, int64_t v);

/* Collective. Rank 0 passes its host graph g [in] (borrowed; the other ranks
 * pass NULL); every rank receives its block, blocks of equal 1 + degree
 * summed over their vertices, into *out [out, owned by the
 * caller, dist_graph_free]. Counts travel as MPI int: a rank's share must
 * stay below 2^31 entries (otherwise, as on any failure inside it, MPI_Abort
 * with COARSEN_ERR_NOMEM: dist.h). Returns COARSEN_OK. */
int dist_graph_scatter(const coarsen_graph *g, MPI_Comm comm, dist_graph *out, coarsen_error *err);
/* Allocates the arrays of a distributed level: vtxdist (copied from
 * vtxdist [in]) and a local graph of nlocal rows, nnz_local entries. */
int dist_graph_init(dist_graph *d, int32_t n, const int64_t *vtxdist, int64_t nnz_local, int integral,
                    MPI_Comm comm, coarsen_error *err);
void dist_graph_free(dist_graph *d);

/* MPI's int counts: COARSEN_ERR_NOMEM naming what when count does not fit. */
int dist_int_count(int64_t count, const char *what, int *out, coarsen_error *err);

#endif
