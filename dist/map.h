/* map.h — the coarse map of a distributed level from its mates: one coarse
 * vertex per pair and per unmatched vertex, numbered in order of each
 * group's smallest fine id (contract_map_from_mates_cpu's numbering), by a
 * global prefix sum (MPI_Exscan) of each rank's leaders. */
#ifndef DIST_MAP_H
#define DIST_MAP_H

#include "dist/ghosts.h"

/* Collective. mate [in, d->local->n entries]: global partner ids or -1, a
 * symmetric matching whose pairs are edges (the ghost layer holds every
 * partner on another rank; COARSEN_ERR_INPUT otherwise). cmap [out,
 * caller-allocated, nlocal + nghost entries]: the global coarse id of every
 * local vertex and of every ghost (the extended layout of ghosts.h, so the
 * contraction reads its neighbours' ids there). *nc [out]: coarse vertices
 * of the whole level. Messages: one MPI_Exscan, one MPI_Allreduce, two ghost
 * exchanges. */
int dist_map_from_mates(const dist_graph *d, const dist_ghosts *gh, const int32_t *mate, int32_t *cmap, int32_t *nc,
                        MPI_Comm comm, coarsen_error *err);

#endif
