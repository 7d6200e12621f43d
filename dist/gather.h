/* gather.h — a distributed level brought to rank 0 as one host graph, and
 * per-vertex arrays (maps, mates) brought there in global order: what rank 0
 * needs to keep the hierarchy whole (the files of `coarsen --out`, the
 * level's figures) and to go on with the single-process code. */
#ifndef DIST_GATHER_H
#define DIST_GATHER_H

#include "dist/vtxdist.h"

/* Collective. Rank 0 receives d's level [in] as a host graph into *out
 * [out, owned by rank 0's caller, coarsen_graph_free]; the other ranks get
 * NULL. Row lengths and vertex weights by MPI_Gatherv, the entries point to
 * point (each rank's share below 2^31 entries). */
int dist_gather_graph(const dist_graph *d, MPI_Comm comm, coarsen_graph **out, coarsen_error *err);
/* Collective. local [in]: d->local->n values per rank; rank 0 receives the
 * d->n values in global vertex order into *out [out, owned by rank 0's
 * caller, free()]; the other ranks get NULL. */
int dist_gather_ints(const dist_graph *d, const int32_t *local, MPI_Comm comm, int32_t **out, coarsen_error *err);

#endif
