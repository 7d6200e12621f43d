/* map.h — the coarse map of a distributed level from its mates: one coarse
 * vertex per pair and per unmatched vertex, numbered in order of each
 * group's smallest fine id (contract_map_from_mates_cpu's numbering), by a
 * global prefix sum (MPI_Exscan) of each rank's leaders; a pair's other end
 * asks its leader's owner for the id. */
#ifndef DIST_MAP_H
#define DIST_MAP_H

#include "dist/ghosts.h"

/* Collective. mate [in, d->local->n entries]: global partner ids or -1, a
 * symmetric pairing (pairs need not be edges: two-hop pairs are not);
 * COARSEN_ERR_INPUT on every rank when it is not. cmap [out,
 * caller-allocated, nlocal + nghost entries]: the global coarse id of every
 * local vertex and of every ghost (the extended layout of ghosts.h, so the
 * contraction reads its neighbours' ids there). *nc [out]: coarse vertices
 * of the whole level. cvtx [out, caller-allocated, nranks + 1 entries]: the
 * coarse level's blocks (dist_blocks_weighted), of about equal work by the
 * fine rows of each group. Messages: one MPI_Exscan, two MPI_Allreduce, one
 * MPI_Alltoall and two MPI_Alltoallv (requests for the leaders' ids on other
 * ranks, 8 B each way per such pair), one ghost exchange; for the blocks one
 * MPI_Exscan and three MPI_Allreduce. */
int dist_map_from_mates(const dist_graph *d, const dist_ghosts *gh, const int32_t *mate, int32_t *cmap, int32_t *nc,
                        int64_t *cvtx, MPI_Comm comm, coarsen_error *err);

#endif
